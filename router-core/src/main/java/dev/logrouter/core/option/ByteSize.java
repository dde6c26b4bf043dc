package dev.logrouter.core.option;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/**
 * A size in bytes written as a number ({@code 65536}) or with a unit ({@code 64KiB}, {@code 1MiB},
 * {@code 2GiB}, {@code 64KB} = 64000, {@code 512B}).
 *
 * <p>Threads: immutable.
 */
public record ByteSize(long bytes) {

    public ByteSize {
        if (bytes < 0) {
            throw new IllegalArgumentException("size must not be negative: " + bytes);
        }
    }

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static ByteSize parse(Object value) {
        if (value instanceof Number n) {
            return new ByteSize(n.longValue());
        }
        String s = String.valueOf(value).trim();
        String lower = s.toLowerCase(Locale.ROOT);
        long mult = 1;
        String num = lower;
        String[][] units = {
            {"kib", "1024"}, {"mib", "1048576"}, {"gib", "1073741824"},
            {"kb", "1000"}, {"mb", "1000000"}, {"gb", "1000000000"}, {"k", "1024"}, {"m", "1048576"},
            {"g", "1073741824"}, {"b", "1"},
        };
        for (String[] u : units) {
            if (lower.endsWith(u[0])) {
                mult = Long.parseLong(u[1]);
                num = lower.substring(0, lower.length() - u[0].length()).trim();
                break;
            }
        }
        try {
            return new ByteSize(Math.multiplyExact(Long.parseLong(num), mult));
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("not a size: '" + s + "' (write e.g. 65536, 64KiB, 1MiB)");
        }
    }

    /** The size as an int, for buffer sizes; fails above 2 GiB. */
    public int intBytes() {
        return Math.toIntExact(bytes);
    }

    @JsonValue
    @Override
    public String toString() {
        if (bytes != 0 && bytes % 1048576 == 0) {
            return bytes / 1048576 + "MiB";
        }
        if (bytes != 0 && bytes % 1024 == 0) {
            return bytes / 1024 + "KiB";
        }
        return Long.toString(bytes);
    }
}
