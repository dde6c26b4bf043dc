package dev.logrouter.core.parse.syslog;

/**
 * Recognises syslog timestamps and leaves the broken-down result in its fields (no objects per message).
 *
 * <p>Legacy (RFC 3164) frames accept, in this order of detection: ISO 8601 {@code YYYY-MM-DD[T ]hh:mm:ss[.frac][zone]},
 * Cisco PIX/ASA {@code Mmm dd yyyy hh:mm:ss[:]}, Linksys {@code Mmm dd hh:mm:ss yyyy}, BSD
 * {@code Mmm dd hh:mm:ss[.frac]} (no year: {@link #hasYear} is false), each optionally followed by {@code :}.
 * Two-digit fields may be space-padded ({@code " 7"}). Month names need an upper-case first letter; the other two
 * letters are case-insensitive ({@code AUG}). Fractions ({@code .} or {@code ,}) keep at most 6 digits, and how
 * many they had ({@link #fracDigits}, at most 6: {@code .123456789} counts as 6), which an RFC 5424 relay writes
 * back. Zones are {@code Z} or {@code ±hh:mm}; anything else leaves the stamp zone-less ({@link #zoned} false).
 * Values are not range-checked: out-of-range fields roll over when converted, as mktime does.
 *
 * <p>Threads: a parse worker thread; one instance per worker, not thread-safe.
 */
final class SyslogTimestampScanner {

    int year;
    boolean hasYear;
    /** 1..12 for month names; ISO months are taken as written (may be out of range). */
    int month;
    int day;
    int hour;
    int minute;
    int second;
    int micros;
    /** How many fraction digits the stamp had, 0..6 (those beyond the sixth are skipped, not counted). */
    int fracDigits;
    boolean zoned;
    int offsetSeconds;

    /**
     * Scans a timestamp as a legacy (RFC 3164) frame may carry it.
     *
     * @return the position after the stamp (and its optional {@code :}), or {@link SyslogBytes#NO_MATCH}
     */
    int scanLegacy(byte[] b, int p, int end) {
        int q;
        if (looksIso(b, p, end)) {
            q = scanIso(b, p, end);
        } else {
            q = scanBsd(b, p, end);
        }
        if (q < 0) {
            return SyslogBytes.NO_MATCH;
        }
        if (q < end && b[q] == ':') {
            q++;
        }
        return q;
    }

    /**
     * Scans an ISO 8601 / RFC 3339 stamp ({@code T} or a space between date and time, upper-case {@code Z}).
     *
     * @return the position after the stamp, or {@link SyslogBytes#NO_MATCH}
     */
    int scanIso(byte[] b, int p, int end) {
        if (end - p < 19) {
            return SyslogBytes.NO_MATCH;
        }
        int y = SyslogBytes.fixedNumber(b, p, end, 4);
        if (y < 0 || b[p + 4] != '-') {
            return SyslogBytes.NO_MATCH;
        }
        int mo = SyslogBytes.fixedNumber(b, p + 5, end, 2);
        if (mo < 0 || b[p + 7] != '-') {
            return SyslogBytes.NO_MATCH;
        }
        int d = SyslogBytes.fixedNumber(b, p + 8, end, 2);
        if (d < 0 || (b[p + 10] != 'T' && b[p + 10] != ' ')) {
            return SyslogBytes.NO_MATCH;
        }
        if (scanClock(b, p + 11, end) < 0) {
            return SyslogBytes.NO_MATCH;
        }
        year = y;
        hasYear = true;
        month = mo;
        day = d;
        int q = scanFraction(b, p + 19, end);
        if (q < end && b[q] == 'Z') {
            zoned = true;
            offsetSeconds = 0;
            q++;
        } else if (hasNumericZone(b, q, end)) {
            int hours = (b[q + 1] - '0') * 10 + (b[q + 2] - '0');
            int mins = (b[q + 4] - '0') * 10 + (b[q + 5] - '0');
            int off = hours * 3600 + mins * 60;
            zoned = true;
            offsetSeconds = b[q] == '-' ? -off : off;
            q += 6;
        } else {
            zoned = false;
            offsetSeconds = 0;
        }
        return q;
    }

    private static boolean looksIso(byte[] b, int p, int end) {
        return end - p >= 19 && b[p + 4] == '-' && b[p + 7] == '-' && (b[p + 10] == 'T' || b[p + 10] == ' ')
                && b[p + 13] == ':' && b[p + 16] == ':';
    }

    private static boolean hasNumericZone(byte[] b, int q, int end) {
        return end - q >= 6 && (b[q] == '+' || b[q] == '-') && SyslogBytes.isDigit(b[q + 1])
                && SyslogBytes.isDigit(b[q + 2]) && b[q + 3] == ':' && SyslogBytes.isDigit(b[q + 4])
                && SyslogBytes.isDigit(b[q + 5]) && (end - q == 6 || !SyslogBytes.isDigit(b[q + 6]));
    }

    private int scanBsd(byte[] b, int p, int end) {
        int left = end - p;
        if (left >= 21 && b[p + 3] == ' ' && b[p + 6] == ' ' && b[p + 11] == ' ' && b[p + 14] == ':'
                && b[p + 17] == ':' && (b[p + 20] == ':' || b[p + 20] == ' ') && allDigits(b, p + 7, 4)) {
            // Cisco PIX/ASA: Mmm dd yyyy hh:mm:ss[:]
            int y = SyslogBytes.fixedNumber(b, p + 7, end, 4);
            if (!scanMonthDay(b, p, end) || y < 0 || scanClock(b, p + 12, end) < 0) {
                return SyslogBytes.NO_MATCH;
            }
            year = y;
            hasYear = true;
            micros = 0;
            fracDigits = 0;
            zoned = false;
            int q = p + 20;
            return b[q] == ':' ? q + 1 : q;
        }
        if (left >= 21 && b[p + 3] == ' ' && b[p + 6] == ' ' && b[p + 9] == ':' && b[p + 12] == ':'
                && b[p + 15] == ' ' && allDigits(b, p + 16, 4) && isSpace(b[p + 20])) {
            // Linksys: Mmm dd hh:mm:ss yyyy
            if (!scanMonthDay(b, p, end) || scanClock(b, p + 7, end) < 0) {
                return SyslogBytes.NO_MATCH;
            }
            year = SyslogBytes.fixedNumber(b, p + 16, end, 4);
            hasYear = true;
            micros = 0;
            fracDigits = 0;
            zoned = false;
            return p + 20;
        }
        if (left >= 15 && b[p + 3] == ' ' && b[p + 6] == ' ' && b[p + 9] == ':' && b[p + 12] == ':') {
            // BSD: Mmm dd hh:mm:ss[.frac]
            if (!scanMonthDay(b, p, end) || scanClock(b, p + 7, end) < 0) {
                return SyslogBytes.NO_MATCH;
            }
            hasYear = false;
            zoned = false;
            return scanFraction(b, p + 15, end);
        }
        return SyslogBytes.NO_MATCH;
    }

    /** {@code Mmm dd} at p; sets month and day. */
    private boolean scanMonthDay(byte[] b, int p, int end) {
        int m = monthOf(b, p);
        int d = SyslogBytes.fixedNumber(b, p + 4, end, 2);
        if (m < 0 || d < 0) {
            return false;
        }
        month = m;
        day = d;
        return true;
    }

    /** {@code hh:mm:ss} at p; sets hour, minute, second; returns p + 8 or NO_MATCH. */
    private int scanClock(byte[] b, int p, int end) {
        int h = SyslogBytes.fixedNumber(b, p, end, 2);
        if (h < 0 || p + 2 >= end || b[p + 2] != ':') {
            return SyslogBytes.NO_MATCH;
        }
        int mi = SyslogBytes.fixedNumber(b, p + 3, end, 2);
        if (mi < 0 || p + 5 >= end || b[p + 5] != ':') {
            return SyslogBytes.NO_MATCH;
        }
        int s = SyslogBytes.fixedNumber(b, p + 6, end, 2);
        if (s < 0) {
            return SyslogBytes.NO_MATCH;
        }
        hour = h;
        minute = mi;
        second = s;
        return p + 8;
    }

    /** Optional {@code .frac} or {@code ,frac}: keeps 6 digits, skips the rest; sets micros and fracDigits. */
    private int scanFraction(byte[] b, int q, int end) {
        micros = 0;
        fracDigits = 0;
        if (q >= end || (b[q] != '.' && b[q] != ',')) {
            return q;
        }
        q++;
        int frac = 0;
        int digits = 0;
        while (q < end && digits < 6 && SyslogBytes.isDigit(b[q])) {
            frac = frac * 10 + (b[q] - '0');
            digits++;
            q++;
        }
        while (q < end && SyslogBytes.isDigit(b[q])) {
            q++;
        }
        for (int i = digits; i < 6; i++) {
            frac *= 10;
        }
        micros = frac;
        fracDigits = digits;
        return q;
    }

    private static boolean allDigits(byte[] b, int p, int n) {
        for (int i = 0; i < n; i++) {
            if (!SyslogBytes.isDigit(b[p + i])) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }

    /** Month 1..12 of a three-letter abbreviation at p (first letter upper-case, the rest any case), or -1. */
    static int monthOf(byte[] b, int p) {
        int c1 = b[p + 1] | 0x20;
        int c2 = b[p + 2] | 0x20;
        switch (b[p]) {
            case 'J':
                if (c1 == 'a' && c2 == 'n') {
                    return 1;
                }
                if (c1 == 'u' && c2 == 'n') {
                    return 6;
                }
                return c1 == 'u' && c2 == 'l' ? 7 : -1;
            case 'F':
                return c1 == 'e' && c2 == 'b' ? 2 : -1;
            case 'M':
                if (c1 == 'a' && c2 == 'r') {
                    return 3;
                }
                return c1 == 'a' && c2 == 'y' ? 5 : -1;
            case 'A':
                if (c1 == 'p' && c2 == 'r') {
                    return 4;
                }
                return c1 == 'u' && c2 == 'g' ? 8 : -1;
            case 'S':
                return c1 == 'e' && c2 == 'p' ? 9 : -1;
            case 'O':
                return c1 == 'c' && c2 == 't' ? 10 : -1;
            case 'N':
                return c1 == 'o' && c2 == 'v' ? 11 : -1;
            case 'D':
                return c1 == 'e' && c2 == 'c' ? 12 : -1;
            default:
                return -1;
        }
    }
}
