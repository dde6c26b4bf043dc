package dev.logrouter.core.event;

import java.nio.charset.StandardCharsets;

/**
 * A field name fixed at configuration time (a template's {@code ${.json.user}}, a filter's value, a rewrite's
 * target), kept as UTF-8 bytes with its {@link FieldTable#hash}, so that the per-message lookup
 * ({@link FieldTable#indexOf(FieldName)}) does not hash the name again.
 *
 * <p>Threads: immutable.
 */
public final class FieldName {

    private final byte[] bytes;
    private final int hash;

    private FieldName(byte[] bytes) {
        this.bytes = bytes;
        this.hash = FieldTable.hash(bytes, 0, bytes.length);
    }

    public static FieldName of(String name) {
        return new FieldName(name.getBytes(StandardCharsets.UTF_8));
    }

    public static FieldName of(byte[] name) {
        return new FieldName(name.clone());
    }

    /** The name's bytes (shared: do not modify). */
    public byte[] bytes() {
        return bytes;
    }

    public int hash() {
        return hash;
    }

    @Override
    public String toString() {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
