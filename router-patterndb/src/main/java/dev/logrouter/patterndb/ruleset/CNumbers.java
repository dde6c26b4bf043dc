package dev.logrouter.patterndb.ruleset;

/**
 * The C library's lenient number parsing, which the reference applies to ruleset attributes: {@code atoi}
 * for {@code version} and {@code rate}, {@code strtol(s, NULL, 0)} for {@code context-timeout}. Leading
 * blanks are skipped, a sign is accepted, digits are read as far as they go and anything after them is
 * ignored; no digits at all gives 0. Results beyond the type's range are clamped (C's {@code strtol}
 * clamps to {@code LONG_MIN}/{@code LONG_MAX}; {@code atoi}'s overflow is undefined in C, we clamp).
 *
 * <p>Threads: stateless.
 */
final class CNumbers {

    private CNumbers() {
    }

    /** C {@code atoi}: decimal, clamped to the int range. */
    static int atoi(String s) {
        long v = strtol(s, 10);
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
    }

    /**
     * C {@code strtol} with base 10 or base 0 (base 0: {@code 0x}/{@code 0X} followed by a hex digit
     * selects hex, another leading {@code 0} selects octal, else decimal).
     */
    static long strtol(String s, int base) {
        int i = 0;
        int n = s.length();
        while (i < n && isCSpace(s.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        int radix = base;
        if (base == 0) {
            if (i + 2 < n && s.charAt(i) == '0' && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X')
                    && Character.digit(s.charAt(i + 2), 16) >= 0 && s.charAt(i + 2) < 0x80) {
                radix = 16;
                i += 2;
            } else if (i < n && s.charAt(i) == '0') {
                radix = 8;
            } else {
                radix = 10;
            }
        }
        long value = 0;
        boolean overflow = false;
        for (; i < n; i++) {
            char c = s.charAt(i);
            int d = c < 0x80 ? Character.digit(c, radix) : -1;
            if (d < 0) {
                break;
            }
            if (!overflow) {
                long next = value * radix + d;
                if (value > (Long.MAX_VALUE - d) / radix) {
                    overflow = true;
                } else {
                    value = next;
                }
            }
        }
        if (overflow) {
            return negative ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return negative ? -value : value;
    }

    /** C {@code isspace} in the "C" locale. */
    static boolean isCSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0b || c == 0x0c;
    }
}
