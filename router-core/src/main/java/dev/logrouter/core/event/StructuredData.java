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
        int len = table.nameLength(i);
        if (len <= PREFIX.length) {
            return false;
        }
        byte[] d = table.data();
        int off = table.nameOffset(i);
        for (int k = 0; k < PREFIX.length; k++) {
            if (d[off + k] != PREFIX[k]) {
                return false;
            }
        }
        return true;
    }
}
