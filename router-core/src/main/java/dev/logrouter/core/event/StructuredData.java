package dev.logrouter.core.event;

import java.nio.charset.StandardCharsets;

/**
 * How RFC 5424 structured data is kept in a {@link FieldTable}: one entry per SD-PARAM named
 * {@code .SDATA.<sd-id>.<param-name>} with the unescaped value, and one entry named
 * {@code .SDATA.<sd-id>} with an empty value for an SD-ELEMENT without parameters. The entry's tag is
 * the SD-ID's length, so that an SD-ID containing dots can still be split from the parameter name when
 * {@code ${SDATA}} re-serialises the table. Entries appear in the order first seen; a repeated
 * SD-ID/param pair replaces the value (the last one wins, as in syslog-ng).
 *
 * <p>Threads: stateless, any thread.
 */
public final class StructuredData {

    /** Name prefix of structured-data entries. */
    public static final byte[] PREFIX = ".SDATA.".getBytes(StandardCharsets.US_ASCII);

    private StructuredData() {
    }

    /** True when entry {@code i} of {@code table} is structured data. */
    public static boolean isSdEntry(FieldTable table, int i) {
        return isSdName(table.data(), table.nameOffset(i), table.nameLength(i));
    }

    /** True when the name {@code a[off, off + len)} is {@code .SDATA.} followed by at least one byte. */
    public static boolean isSdName(byte[] a, int off, int len) {
        if (len <= PREFIX.length) {
            return false;
        }
        for (int k = 0; k < PREFIX.length; k++) {
            if (a[off + k] != PREFIX[k]) {
                return false;
            }
        }
        return true;
    }

    /**
     * For a name {@code .SDATA.<sd-id>.<param>} (or {@code .SDATA.<sd-id>}), the SD-ID's length, as stored in the
     * entry's tag: up to the next dot. 0 for any other name.
     */
    public static int sdIdLength(byte[] name) {
        if (!isSdName(name, 0, name.length)) {
            return 0;
        }
        int dot = PREFIX.length;
        while (dot < name.length && name[dot] != '.') {
            dot++;
        }
        return dot - PREFIX.length;
    }
}
