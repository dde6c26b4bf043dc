package dev.logrouter.core.event;

import java.nio.charset.StandardCharsets;

/**
 * How RFC 5424 structured data is kept in a {@link FieldTable}: one entry per SD-PARAM named
 * {@code .SDATA.<sd-id>.<param-name>} with the unescaped value, and one entry named
 * {@code .SDATA.<sd-id>} with an empty value for an SD-ELEMENT without parameters. Entries appear in the order
 * first seen; a repeated SD-ID/param pair replaces the value (the last one wins, as in syslog-ng) and keeps the
 * entry where it was.
 *
 * <p>The entry's tag ({@link FieldTable#tag}) says which element the entry belongs to: its low 16 bits
 * ({@link #idLength(int)}) are the SD-ID's length, so that an SD-ID containing dots can still be split from the
 * parameter name; the bits above ({@link #occurrence(int)}) are the occurrence of that SD-ID in the message: 0 for
 * the first {@code [meta ...]}, 1 for a second {@code [meta ...]} element of the same message, and so on. RFC 5424
 * wants SD-IDs unique, but messages in the wild repeat them ({@code [meta a="1"][x@1 b="2"][meta c="3"]}), and
 * {@code ${SDATA}} writes one element per (SD-ID, occurrence), in the order each first appears, so such a message is
 * relayed as it came. An entry written later (a rewrite, a parser other than the syslog one) has occurrence 0 and
 * so joins the first element of its SD-ID: a valid message stays valid. Read the tag through {@link #idLength} and
 * {@link #occurrence}, never as a length.
 *
 * <p>Threads: stateless, any thread.
 */
public final class StructuredData {

    /** Name prefix of structured-data entries. */
    public static final byte[] PREFIX = ".SDATA.".getBytes(StandardCharsets.US_ASCII);

    private StructuredData() {
    }

    /** Tag bits that hold the SD-ID's length; the bits above them hold the occurrence. */
    public static final int ID_LENGTH_MASK = 0xffff;
    private static final int OCCURRENCE_SHIFT = 16;
    /** Highest occurrence a tag holds; later repeats of an SD-ID share it. */
    public static final int MAX_OCCURRENCE = 0x7fff;

    /** The tag of an entry whose SD-ID is {@code idLength} bytes long, in the SD-ID's {@code occurrence}-th element. */
    public static int tag(int idLength, int occurrence) {
        return Math.min(idLength, ID_LENGTH_MASK) | Math.min(occurrence, MAX_OCCURRENCE) << OCCURRENCE_SHIFT;
    }

    /** The SD-ID length an entry's tag holds. */
    public static int idLength(int tag) {
        return tag & ID_LENGTH_MASK;
    }

    /** Which element of its SD-ID an entry's tag puts it in: 0 for the first. */
    public static int occurrence(int tag) {
        return tag >>> OCCURRENCE_SHIFT;
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
     * For a name {@code .SDATA.<sd-id>.<param>} (or {@code .SDATA.<sd-id>}), the SD-ID's length up to the next dot,
     * which is the tag of an entry a rewrite writes (occurrence 0; {@link #tag}). 0 for any other name.
     */
    public static int sdIdLength(byte[] name) {
        return sdIdLength(name, 0, name.length);
    }

    /** {@link #sdIdLength(byte[])} of the name {@code a[off, off + len)}. */
    public static int sdIdLength(byte[] a, int off, int len) {
        if (!isSdName(a, off, len)) {
            return 0;
        }
        int dot = off + PREFIX.length;
        while (dot < off + len && a[dot] != '.') {
            dot++;
        }
        return Math.min(dot - off - PREFIX.length, ID_LENGTH_MASK);
    }
}
