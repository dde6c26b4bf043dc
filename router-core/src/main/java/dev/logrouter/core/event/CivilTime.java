package dev.logrouter.core.event;

/**
 * Allocation-free conversion between proleptic Gregorian dates and days since 1970-01-01
 * (Howard Hinnant's {@code days_from_civil} / {@code civil_from_days} algorithms). Used by the header
 * parsers to turn a wire timestamp into epoch seconds and by templates to print one back.
 *
 * <p>Threads: stateless, any thread.
 */
public final class CivilTime {

    private CivilTime() {
    }

    /** Days since the epoch of {@code year-month-day} (month 1..12). */
    public static long daysFromCivil(long year, int month, int day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        int mp = (month + 9) % 12;
        long doy = (153L * mp + 2) / 5 + day - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }

    /** Epoch seconds of a local date-time written with the given zone offset. */
    public static long epochSecond(long year, int month, int day, int hour, int minute, int second, int offsetSeconds) {
        return daysFromCivil(year, month, day) * 86400L + hour * 3600L + minute * 60L + second - offsetSeconds;
    }

    /**
     * Splits {@code epochSecond + offsetSeconds} into fields, written into {@code out}:
     * year, month (1..12), day, hour, minute, second, day of week (0 = Sunday).
     */
    public static void fields(long epochSecond, int offsetSeconds, int[] out) {
        long local = epochSecond + offsetSeconds;
        long days = Math.floorDiv(local, 86400L);
        int secs = (int) Math.floorMod(local, 86400L);
        long z = days + 719468;
        long era = Math.floorDiv(z, 146097);
        long doe = z - era * 146097;
        long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        int day = (int) (doy - (153 * mp + 2) / 5 + 1);
        int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
        out[0] = (int) year;
        out[1] = month;
        out[2] = day;
        out[3] = secs / 3600;
        out[4] = (secs / 60) % 60;
        out[5] = secs % 60;
        out[6] = (int) Math.floorMod(days + 4, 7L);
    }
}
