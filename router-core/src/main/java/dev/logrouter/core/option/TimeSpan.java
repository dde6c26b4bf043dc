package dev.logrouter.core.option;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/**
 * A duration written with a unit ({@code 250ms}, {@code 5s}, {@code 2m}, {@code 1h}, {@code 100us}) or
 * as a plain number of milliseconds.
 *
 * <p>Threads: immutable.
 */
public record TimeSpan(long nanos) {

    public TimeSpan {
        if (nanos < 0) {
            throw new IllegalArgumentException("duration must not be negative");
        }
    }

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static TimeSpan parse(Object value) {
        if (value instanceof Number n) {
            try {
                return new TimeSpan(Math.multiplyExact(n.longValue(), 1_000_000L));
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("duration too long: " + value + " ms");
            }
        }
        String s = String.valueOf(value).trim();
        String lower = s.toLowerCase(Locale.ROOT);
        String[][] units = {{"ms", "1000000"}, {"us", "1000"}, {"ns", "1"}, {"s", "1000000000"},
            {"m", "60000000000"}, {"h", "3600000000000"}};
        for (String[] u : units) {
            if (lower.endsWith(u[0])) {
                String num = lower.substring(0, lower.length() - u[0].length()).trim();
                try {
                    return new TimeSpan(Math.multiplyExact(Long.parseLong(num), Long.parseLong(u[1])));
                } catch (NumberFormatException | ArithmeticException e) {
                    break;
                }
            }
        }
        try {
            return new TimeSpan(Math.multiplyExact(Long.parseLong(lower), 1_000_000L));
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("not a duration: '" + s + "' (write e.g. 250ms, 5s, 2m)");
        }
    }

    public long millis() {
        return nanos / 1_000_000L;
    }

    @JsonValue
    @Override
    public String toString() {
        if (nanos % 1_000_000_000L == 0 && nanos != 0) {
            return nanos / 1_000_000_000L + "s";
        }
        if (nanos % 1_000_000L == 0) {
            return nanos / 1_000_000L + "ms";
        }
        return nanos / 1000 + "us";
    }
}
