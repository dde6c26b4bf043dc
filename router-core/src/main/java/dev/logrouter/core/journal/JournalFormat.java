package dev.logrouter.core.journal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The byte layout of segment files (all integers big-endian; docs/journal.md draws it).
 *
 * <pre>
 * frame   = len u32 | crc u32 | firstSeq u64 | count u32 | record * count
 * record  = recLen u32 | recLen bytes
 * footer  = magic u32 "LRJF" | count u32 | lastSeq u64 | crc u32
 * </pre>
 *
 * {@code len} is the number of bytes after the crc field ({@code 12 + Σ(4 + recLen)}); {@code crc} is the CRC32C of
 * exactly those {@code len} bytes: firstSeq, count and the records. A valid frame has {@code count >= 1} and records
 * that fill it exactly. The footer's crc is the CRC32C of its first 16 bytes (magic, count, lastSeq).
 *
 * <p>Threads: stateless; the CRC32C passed in belongs to the calling thread.
 */
final class JournalFormat {

    /** len, crc, firstSeq, count. */
    static final int FRAME_HEADER = 20;
    /** The len and crc fields, which {@code len} does not count. */
    static final int LEN_CRC = 8;
    static final int RECORD_HEADER = 4;
    /** The smallest len: firstSeq, count and one empty record. */
    static final int MIN_LEN = 16;
    /** The largest frame (len + 8): a commit may not hold more. */
    static final int MAX_FRAME = 1 << 30;
    static final int FOOTER = 20;
    static final int FOOTER_MAGIC = 0x4C524A46; // "LRJF"
    static final String SEGMENT_SUFFIX = ".seg";
    static final String CORRUPT_SUFFIX = ".corrupt";

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private JournalFormat() {
    }

    static int getInt(byte[] b, int off) {
        return (int) INT.get(b, off);
    }

    static long getLong(byte[] b, int off) {
        return (long) LONG.get(b, off);
    }

    static void putInt(byte[] b, int off, int v) {
        INT.set(b, off, v);
    }

    static void putLong(byte[] b, int off, long v) {
        LONG.set(b, off, v);
    }

    /** {@code 00000000000000000042.seg}: the first sequence, 20 digits. */
    static String segmentName(long firstSeq) {
        String digits = Long.toString(firstSeq);
        return "0".repeat(20 - digits.length()) + digits + SEGMENT_SUFFIX;
    }

    /** The first sequence a segment file name holds, or -1 when the name is not a segment's. */
    static long parseSegmentName(String name) {
        if (name.length() != 20 + SEGMENT_SUFFIX.length() || !name.endsWith(SEGMENT_SUFFIX)) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < 20; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            if (v > (Long.MAX_VALUE - (c - '0')) / 10) {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** Whether a len field can be a frame's, given {@code available} bytes from the frame's start. */
    static boolean lenPlausible(int len, long available) {
        return len >= MIN_LEN && len <= MAX_FRAME - LEN_CRC && LEN_CRC + (long) len <= available;
    }

    /**
     * Checks the whole frame of {@code 8 + len} bytes at {@code off}: its CRC, {@code count >= 1}, and records that
     * fill it exactly. The caller checked {@link #lenPlausible}.
     */
    static boolean frameValid(byte[] b, int off, int len, CRC32C crc) {
        crc.reset();
        crc.update(b, off + LEN_CRC, len);
        if ((int) crc.getValue() != getInt(b, off + 4)) {
            return false;
        }
        int count = getInt(b, off + 16);
        if (count < 1) {
            return false;
        }
        int p = off + FRAME_HEADER;
        int end = off + LEN_CRC + len;
        for (int i = 0; i < count; i++) {
            if (end - p < RECORD_HEADER) {
                return false;
            }
            int recLen = getInt(b, p);
            if (recLen < 0 || recLen > end - p - RECORD_HEADER) {
                return false;
            }
            p += RECORD_HEADER + recLen;
        }
        return p == end;
    }

    /** Writes a footer for a segment holding {@code [firstSeq, lastSeq]} into {@code b[0..20)}. */
    static void encodeFooter(byte[] b, long firstSeq, long lastSeq, CRC32C crc) {
        putInt(b, 0, FOOTER_MAGIC);
        putInt(b, 4, (int) (lastSeq - firstSeq + 1));
        putLong(b, 8, lastSeq);
        crc.reset();
        crc.update(b, 0, 16);
        putInt(b, 16, (int) crc.getValue());
    }

    /**
     * The last sequence of the valid footer in {@code b[0..20)} of a segment starting at {@code firstSeq}, or -1
     * when it is not one (magic, CRC, a count of at least 1 that agrees with lastSeq).
     */
    static long decodeFooter(byte[] b, long firstSeq, CRC32C crc) {
        if (getInt(b, 0) != FOOTER_MAGIC) {
            return -1;
        }
        crc.reset();
        crc.update(b, 0, 16);
        if ((int) crc.getValue() != getInt(b, 16)) {
            return -1;
        }
        long count = Integer.toUnsignedLong(getInt(b, 4));
        long lastSeq = getLong(b, 8);
        if (count < 1 || lastSeq < firstSeq || lastSeq - firstSeq + 1 != count) {
            return -1;
        }
        return lastSeq;
    }
}
