package dev.logrouter.core.filter;

/**
 * The number at the start of a byte range, read the way C's {@code atoi} reads it in syslog-ng's numeric
 * comparisons: leading white space is skipped, an optional sign and the digits that follow are taken, and
 * whatever comes after is ignored; text with no leading number reads as 0. Two deliberate differences from
 * syslog-ng 3.38 (which calls {@code atoi}): the integer is 64-bit (digits beyond that continue as a
 * floating-point value instead of overflowing), and a fraction or exponent ({@code 1.5}, {@code 2e3}) is kept,
 * so {@code "1.5" > "1"} holds.
 *
 * <p>Parsing allocates nothing: the result is left in this mutable holder, reused per comparison.
 *
 * <p>Threads: an instance belongs to one thread.
 */
final class NumericValue {

    /** True when the value is an integer that fits in {@link #longValue}; otherwise read {@link #doubleValue}. */
    boolean integral;
    long longValue;
    double doubleValue;

    void parse(byte[] a, int off, int len) {
        int i = off;
        int end = off + len;
        while (i < end && isSpace(a[i])) {
            i++;
        }
        boolean negative = false;
        if (i < end && (a[i] == '-' || a[i] == '+')) {
            negative = a[i] == '-';
            i++;
        }
        long mant = 0;
        int digits = 0;
        int exp10 = 0;
        boolean overflow = false;
        boolean fraction = false;
        while (i < end && a[i] >= '0' && a[i] <= '9') {
            int d = a[i] - '0';
            if (!overflow && mant <= (Long.MAX_VALUE - d) / 10) {
                mant = mant * 10 + d;
            } else {
                overflow = true;
                exp10++; // keep the magnitude, drop the digit
            }
            digits++;
            i++;
        }
        if (i + 1 < end && a[i] == '.' && a[i + 1] >= '0' && a[i + 1] <= '9') {
            fraction = true;
            i++;
            while (i < end && a[i] >= '0' && a[i] <= '9') {
                int d = a[i] - '0';
                if (mant <= (Long.MAX_VALUE - d) / 10) {
                    mant = mant * 10 + d;
                    exp10--;
                }
                digits++;
                i++;
            }
        }
        if (digits > 0 && i < end && (a[i] == 'e' || a[i] == 'E')) {
            int j = i + 1;
            boolean expNegative = false;
            if (j < end && (a[j] == '-' || a[j] == '+')) {
                expNegative = a[j] == '-';
                j++;
            }
            if (j < end && a[j] >= '0' && a[j] <= '9') {
                int e = 0;
                while (j < end && a[j] >= '0' && a[j] <= '9') {
                    e = Math.min(e * 10 + (a[j] - '0'), 10_000);
                    j++;
                }
                fraction = true;
                exp10 += expNegative ? -e : e;
            }
        }
        if (!fraction && !overflow) {
            integral = true;
            longValue = negative ? -mant : mant;
            doubleValue = longValue;
            return;
        }
        integral = false;
        double v = exp10 >= 0 ? mant * Math.pow(10, exp10) : mant / Math.pow(10, -exp10);
        doubleValue = negative ? -v : v;
    }

    /** Compares two parsed values: negative, zero or positive. */
    static int compare(NumericValue l, NumericValue r) {
        if (l.integral && r.integral) {
            return Long.compare(l.longValue, r.longValue);
        }
        return Double.compare(l.doubleValue, r.doubleValue);
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == 0x0B || b == '\f';
    }
}
