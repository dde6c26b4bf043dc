package dev.logrouter.core.parse.syslog;

import dev.logrouter.core.event.LogEvent;

/**
 * Byte-level helpers shared by the syslog parsers: PRI, fixed-width numbers, the hostname heuristic and the
 * legacy {@code program[pid]:} tag. All methods work on {@code [p, end)} of a byte array and never read outside
 * it.
 *
 * <p>Threads: stateless, any thread.
 */
final class SyslogBytes {

    /** Returned by the scanning helpers when the input does not match. */
    static final int NO_MATCH = -1;

    private SyslogBytes() {
    }

    static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    static boolean isHexDigit(byte c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /**
     * Reads an optional {@code <digits>} PRI and stores it (or {@link LogEvent#DEFAULT_PRI}
     * when there is none) through {@code pri[0]}. A non-digit before {@code >} is a hard error: returns
     * {@link #NO_MATCH}. A missing {@code >} is tolerated (the digits run to the end). The value is kept to 16 bits
     * like syslog-ng, without any range check.
     *
     * @return the position after the PRI, or {@link #NO_MATCH}
     */
    static int scanPri(byte[] b, int p, int end, int[] pri) {
        if (p >= end || b[p] != '<') {
            pri[0] = LogEvent.DEFAULT_PRI;
            return p;
        }
        p++;
        int value = 0;
        while (p < end && b[p] != '>') {
            if (!isDigit(b[p])) {
                return NO_MATCH;
            }
            value = value * 10 + (b[p] - '0');
            p++;
        }
        pri[0] = value & 0xFFFF;
        return p < end ? p + 1 : p;
    }

    /**
     * A fixed-width unsigned number: leading spaces, then digits, {@code width} bytes in all (so {@code " 7"} and
     * {@code "07"} both read 7).
     *
     * @return the value, or {@link #NO_MATCH}
     */
    static int fixedNumber(byte[] b, int p, int end, int width) {
        if (end - p < width) {
            return NO_MATCH;
        }
        int i = 0;
        while (i < width && b[p + i] == ' ') {
            i++;
        }
        int value = 0;
        while (i < width) {
            byte c = b[p + i];
            if (!isDigit(c)) {
                return NO_MATCH;
            }
            value = value * 10 + (c - '0');
            i++;
        }
        return value;
    }

    /** True when {@code [p, end)} starts with {@code prefix}. */
    static boolean startsWith(byte[] b, int p, int end, byte[] prefix) {
        if (end - p < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (b[p + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The hostname token at {@code p}: bytes up to a space or {@code [}, at most 255 of them; a {@code :} ends the
     * token unless everything so far could be part of an IPv6 address (hex digit groups of at most 4, fewer than 8
     * colons). The token is a hostname only when a space follows it.
     *
     * @return the index of the space after the hostname, or {@link #NO_MATCH}
     */
    static int scanHostname(byte[] b, int p, int end) {
        int i = p;
        boolean ipv6Failed = false;
        int segments = 0;
        int digits = 0;
        while (i < end && b[i] != ' ' && b[i] != '[' && i - p < 255) {
            byte c = b[i];
            if (!ipv6Failed) {
                if (c == ':') {
                    digits = 0;
                    if (++segments >= 8) {
                        ipv6Failed = true;
                    }
                } else if (!isHexDigit(c) || ++digits > 4) {
                    ipv6Failed = true;
                }
            }
            if (c == ':' && ipv6Failed) {
                break;
            }
            i++;
        }
        return i < end && b[i] == ' ' ? i : NO_MATCH;
    }

    /**
     * The legacy tag: PROGRAM up to a space, {@code [} or {@code :}; then {@code [PID]} (PID ends at {@code ]},
     * space or {@code :}; without any of them before the end there is no PID); then one {@code :} and one space
     * are skipped. Sets PROGRAM and PID (when non-empty) as spans of the raw buffer.
     *
     * @return the position where MSG starts
     */
    static int parseProgram(LogEvent e, byte[] b, int p, int end) {
        int start = p;
        while (p < end && b[p] != ' ' && b[p] != '[' && b[p] != ':') {
            p++;
        }
        if (p > start) {
            e.setField(LogEvent.PROGRAM, start, p - start);
        }
        if (p < end && b[p] == '[') {
            int pidStart = p + 1;
            while (p < end && b[p] != ' ' && b[p] != ']' && b[p] != ':') {
                p++;
            }
            if (p < end && p > pidStart) {
                e.setField(LogEvent.PID, pidStart, p - pidStart);
            }
            if (p < end && b[p] == ']') {
                p++;
            }
        }
        if (p < end && b[p] == ':') {
            p++;
        }
        if (p < end && b[p] == ' ') {
            p++;
        }
        return p;
    }
}
