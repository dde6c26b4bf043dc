package dev.logrouter.host.journald;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One journal entry as {@link JournalJsonReader} read it from journalctl's JSON, before it is copied into a ring
 * slot: the values as UTF-8 (or binary) bytes in one growing buffer, the well-known fields as spans of it, the
 * other fields as (name, span) pairs. Reused for entry after entry (a pool of them is one publish batch), so a warm
 * entry allocates nothing.
 *
 * <p>Threads: the source's reader thread only.
 */
final class JournalEntry {

    /** The well-known fields, each kept as a span ({@link #has}, {@link #offset}, {@link #length}). */
    static final int MESSAGE = 0;
    static final int HOSTNAME = 1;
    static final int SYSLOG_IDENTIFIER = 2;
    static final int COMM = 3;
    static final int PID = 4;
    static final int SYSLOG_PID = 5;
    static final int PRIORITY = 6;
    static final int SYSLOG_FACILITY = 7;
    static final int TRANSPORT = 8;
    static final int REALTIME = 9;
    static final int CURSOR = 10;
    private static final int WELL_KNOWN = 11;

    /**
     * The well-known field a journal field name denotes, or -1. Only this method knows the names; switch on a
     * String compares the (cached) hash first.
     */
    static int wellKnown(String field) {
        return switch (field) {
            case "MESSAGE" -> MESSAGE;
            case "_HOSTNAME" -> HOSTNAME;
            case "SYSLOG_IDENTIFIER" -> SYSLOG_IDENTIFIER;
            case "_COMM" -> COMM;
            case "_PID" -> PID;
            case "SYSLOG_PID" -> SYSLOG_PID;
            case "PRIORITY" -> PRIORITY;
            case "SYSLOG_FACILITY" -> SYSLOG_FACILITY;
            case "_TRANSPORT" -> TRANSPORT;
            case "__REALTIME_TIMESTAMP" -> REALTIME;
            case "__CURSOR" -> CURSOR;
            default -> -1;
        };
    }

    /**
     * Whether a well-known field is also kept as a name-value pair: those that fill a header field (MESSAGE, HOST,
     * PROGRAM, PID, PRI) and the entry's address ({@code __*}) are not; {@code _COMM}, {@code SYSLOG_PID} and
     * {@code _TRANSPORT} are (they only stand in, or only choose a default).
     */
    static boolean alsoPair(int wellKnown) {
        return wellKnown == COMM || wellKnown == SYSLOG_PID || wellKnown == TRANSPORT;
    }

    byte[] data = new byte[1024];
    int dataLength;
    private final int[] spanOff = new int[WELL_KNOWN];
    private final int[] spanLen = new int[WELL_KNOWN];
    private int spanMask;

    byte[][] pairNames = new byte[16][];
    int[] pairOff = new int[16];
    int[] pairLen = new int[16];
    int pairs;
    /** A value of this entry was cut to max-message-size. */
    boolean truncated;

    /** A value buffer larger than this is dropped at {@link #clear()}: a rare huge entry does not stay in the pool. */
    private static final int KEEP_BYTES = 1 << 20;

    void clear() {
        if (data.length > KEEP_BYTES) {
            data = new byte[1024];
        }
        dataLength = 0;
        spanMask = 0;
        pairs = 0;
        truncated = false;
    }

    boolean has(int field) {
        return (spanMask & (1 << field)) != 0;
    }

    int offset(int field) {
        return spanOff[field];
    }

    int length(int field) {
        return spanLen[field];
    }

    void setSpan(int field, int off, int len) {
        if (!has(field)) { // a field given twice keeps its first value
            spanOff[field] = off;
            spanLen[field] = len;
            spanMask |= 1 << field;
        }
    }

    void addPair(byte[] name, int off, int len) {
        if (pairs == pairNames.length) {
            pairNames = Arrays.copyOf(pairNames, pairs * 2);
            pairOff = Arrays.copyOf(pairOff, pairs * 2);
            pairLen = Arrays.copyOf(pairLen, pairs * 2);
        }
        pairNames[pairs] = name;
        pairOff[pairs] = off;
        pairLen[pairs] = len;
        pairs++;
    }

    /** Makes room for {@code n} more bytes of values. */
    void ensure(int n) {
        if (dataLength + n > data.length) {
            data = Arrays.copyOf(data, Math.max(dataLength + n, data.length * 2));
        }
    }

    /** A field's value as a small non-negative decimal number, or -1 when absent or not such a number. */
    long number(int field) {
        if (!has(field) || length(field) == 0 || length(field) > 18) {
            return -1;
        }
        long v = 0;
        for (int i = offset(field), end = i + length(field); i < end; i++) {
            int d = data[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    /** Whether a field's value is exactly {@code ascii}. */
    boolean is(int field, String ascii) {
        if (!has(field) || length(field) != ascii.length()) {
            return false;
        }
        for (int i = 0; i < ascii.length(); i++) {
            if (data[offset(field) + i] != ascii.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The entry's cursor ({@code __CURSOR}), or null. Allocates: called once per publish batch. */
    String cursor() {
        return has(CURSOR) ? new String(data, offset(CURSOR), length(CURSOR), StandardCharsets.UTF_8) : null;
    }
}
