package dev.logrouter.core.event;

import java.nio.charset.StandardCharsets;

/**
 * Facility and severity names as syslog-ng prints them ({@code ${FACILITY}}, {@code ${LEVEL}}) and
 * parses them in filters. Byte arrays are shared constants: never modify them.
 *
 * <p>Threads: immutable, any thread.
 */
public final class SyslogNames {

    private static final String[] FACILITIES = {
        "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp",
        "ntp", "security", "console", "solaris-cron", "local0", "local1", "local2", "local3", "local4", "local5",
        "local6", "local7",
    };
    private static final String[] SEVERITIES = {
        "emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
    };
    private static final String[] MONTHS = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    };
    private static final String[] MONTH_NAMES = {
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    };
    private static final String[] WEEKDAYS = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    private static final String[] WEEKDAY_NAMES = {
        "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
    };

    private static final byte[][] FACILITY_BYTES = ascii(FACILITIES);
    private static final byte[][] SEVERITY_BYTES = ascii(SEVERITIES);
    private static final byte[][] MONTH_BYTES = ascii(MONTHS);
    private static final byte[][] MONTH_NAME_BYTES = ascii(MONTH_NAMES);
    private static final byte[][] WEEKDAY_BYTES = ascii(WEEKDAYS);
    private static final byte[][] WEEKDAY_NAME_BYTES = ascii(WEEKDAY_NAMES);

    private SyslogNames() {
    }

    /** Name of a facility number, or null when it has none (out-of-range PRIs keep their number). */
    public static byte[] facility(int facility) {
        return facility >= 0 && facility < FACILITY_BYTES.length ? FACILITY_BYTES[facility] : null;
    }

    public static byte[] severity(int severity) {
        return SEVERITY_BYTES[severity & 7];
    }

    /** Three-letter English month abbreviation, month 1..12. */
    public static byte[] month(int month) {
        return MONTH_BYTES[month - 1];
    }

    /** Full English month name ({@code ${MONTH_NAME}}), month 1..12. */
    public static byte[] monthName(int month) {
        return MONTH_NAME_BYTES[month - 1];
    }

    /** Three-letter English weekday abbreviation, 0 = Sunday. */
    public static byte[] weekday(int dow) {
        return WEEKDAY_BYTES[dow];
    }

    /** Full English weekday name ({@code ${WEEK_DAY_NAME}}), 0 = Sunday. */
    public static byte[] weekdayName(int dow) {
        return WEEKDAY_NAME_BYTES[dow];
    }

    /**
     * Facility number for a name as syslog-ng's filters take it (case-insensitive; {@code megasafe} is ftp's
     * number 10 on some systems), or -1. Cold path (configuration).
     */
    public static int facilityNumber(String name) {
        if (name.equalsIgnoreCase("megasafe")) {
            return 10;
        }
        return indexOfIgnoreCase(FACILITIES, name);
    }

    /**
     * Severity number for a name or one of syslog-ng's aliases ({@code emergency}, {@code panic}, {@code critical},
     * {@code error}, {@code warn}, {@code informational}; case-insensitive), or -1. Cold path (configuration).
     */
    public static int severityNumber(String name) {
        int i = indexOfIgnoreCase(SEVERITIES, name);
        if (i >= 0) {
            return i;
        }
        int alias = indexOfIgnoreCase(SEVERITY_ALIASES, name);
        return alias >= 0 ? SEVERITY_ALIAS_NUMBERS[alias] : -1;
    }

    /**
     * As {@link #facilityNumber(String)} for UTF-8 bytes, also taking the number itself (0..23); -1 otherwise.
     * Allocates nothing (a message field on a parse worker).
     */
    public static int facilityNumber(byte[] b, int off, int len) {
        int n = smallNumber(b, off, len);
        if (n >= 0) {
            return n < FACILITY_BYTES.length ? n : -1;
        }
        if (equalsIgnoreCase(b, off, len, MEGASAFE)) {
            return 10;
        }
        return indexOfIgnoreCase(FACILITY_BYTES, b, off, len);
    }

    /** As {@link #severityNumber(String)} for UTF-8 bytes, also taking the number itself (0..7); -1 otherwise. */
    public static int severityNumber(byte[] b, int off, int len) {
        int n = smallNumber(b, off, len);
        if (n >= 0) {
            return n < SEVERITY_BYTES.length ? n : -1;
        }
        int i = indexOfIgnoreCase(SEVERITY_BYTES, b, off, len);
        if (i >= 0) {
            return i;
        }
        int alias = indexOfIgnoreCase(SEVERITY_ALIAS_BYTES, b, off, len);
        return alias >= 0 ? SEVERITY_ALIAS_NUMBERS[alias] : -1;
    }

    /** 1-2 decimal digits as a number, or -1. */
    private static int smallNumber(byte[] b, int off, int len) {
        if (len < 1 || len > 2) {
            return -1;
        }
        int n = 0;
        for (int i = off; i < off + len; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return -1;
            }
            n = n * 10 + (b[i] - '0');
        }
        return n;
    }

    private static int indexOfIgnoreCase(byte[][] names, byte[] b, int off, int len) {
        for (int i = 0; i < names.length; i++) {
            if (equalsIgnoreCase(b, off, len, names[i])) {
                return i;
            }
        }
        return -1;
    }

    private static boolean equalsIgnoreCase(byte[] b, int off, int len, byte[] name) {
        if (len != name.length) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            int c = b[off + i];
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            if (c != name[i]) {
                return false;
            }
        }
        return true;
    }

    private static final byte[] MEGASAFE = {'m', 'e', 'g', 'a', 's', 'a', 'f', 'e'};

    private static final String[] SEVERITY_ALIASES = {"emergency", "panic", "critical", "error", "warn", "informational"};
    private static final int[] SEVERITY_ALIAS_NUMBERS = {0, 0, 2, 3, 4, 6};
    private static final byte[][] SEVERITY_ALIAS_BYTES = ascii(SEVERITY_ALIASES);

    private static int indexOfIgnoreCase(String[] names, String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    private static byte[][] ascii(String[] names) {
        byte[][] out = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            out[i] = names[i].getBytes(StandardCharsets.US_ASCII);
        }
        return out;
    }
}
