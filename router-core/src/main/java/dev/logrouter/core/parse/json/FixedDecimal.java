package dev.logrouter.core.parse.json;

import dev.logrouter.core.template.ByteBuilder;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Appends a double the way C's {@code printf("%f")} prints it: six decimals, rounded half-to-even on the exact
 * binary value, {@code -} kept on negative zero. This is how syslog-ng 3.38's json-parser stores JSON numbers with a
 * fraction or an exponent ({@code 0.5} → {@code 0.500000}, {@code 1e3} → {@code 1000.000000}).
 *
 * <p>Magnitudes below about 9.2e12 (every value whose six-decimal form fits a {@code long}) are formatted with
 * integer arithmetic and allocate nothing; larger ones go through {@link BigDecimal} (allocates, rare).
 *
 * <p>Threads: stateless, any thread.
 */
final class FixedDecimal {

    private static final long SCALE = 1_000_000L;
    /** Largest magnitude on the integer path: its scaled value must fit a long. */
    private static final double FAST_LIMIT = (double) (Long.MAX_VALUE / SCALE);

    private FixedDecimal() {
    }

    static void appendFixed6(ByteBuilder out, double d) {
        if (Double.isNaN(d)) {
            out.append((byte) 'n').append((byte) 'a').append((byte) 'n');
            return;
        }
        boolean negative = (Double.doubleToRawLongBits(d) < 0);
        double x = Math.abs(d);
        if (Double.isInfinite(x)) {
            if (negative) {
                out.append((byte) '-');
            }
            out.append((byte) 'i').append((byte) 'n').append((byte) 'f');
            return;
        }
        if (x >= FAST_LIMIT) {
            out.append(new BigDecimal(d).setScale(6, RoundingMode.HALF_EVEN).toPlainString());
            return;
        }
        long scaled = scaledHalfEven(x);
        if (negative) {
            out.append((byte) '-');
        }
        out.appendDecimal(scaled / SCALE);
        out.append((byte) '.');
        out.appendPadded(scaled % SCALE, 6);
    }

    /** round(x * 10^6), ties to even, on the exact binary value of a finite non-negative {@code x < FAST_LIMIT}. */
    static long scaledHalfEven(double x) {
        if (x == 0) {
            return 0;
        }
        long bits = Double.doubleToRawLongBits(x);
        int exp = (int) ((bits >>> 52) & 0x7FF);
        long mantissa = bits & 0xF_FFFF_FFFF_FFFFL;
        int shift; // x = mantissa * 2^-shift
        if (exp == 0) {
            shift = 1074;
        } else {
            mantissa |= 1L << 52;
            shift = 1075 - exp;
        }
        if (shift <= 0) {
            // an integer (below FAST_LIMIT, so the product fits)
            return (mantissa << -shift) * SCALE;
        }
        // 128-bit product mantissa * 10^6 (< 2^73), then divided by 2^shift with half-even rounding
        long lo = mantissa * SCALE;
        long hi = Math.multiplyHigh(mantissa, SCALE);
        if (shift >= 75) {
            return 0; // the product is below 2^73 <= half of 2^shift
        }
        long q;
        int cmp; // remainder compared with half of 2^shift
        if (shift < 64) {
            q = (hi << (64 - shift)) | (lo >>> shift);
            long rem = lo & ((1L << shift) - 1);
            cmp = Long.compareUnsigned(rem, 1L << (shift - 1));
        } else if (shift == 64) {
            q = hi;
            cmp = Long.compareUnsigned(lo, Long.MIN_VALUE);
        } else {
            int s = shift - 64;
            q = hi >>> s;
            long remHi = hi & ((1L << s) - 1);
            long halfHi = 1L << (s - 1);
            cmp = remHi != halfHi ? Long.compare(remHi, halfHi) : (lo == 0 ? 0 : 1);
        }
        if (cmp > 0 || (cmp == 0 && (q & 1) != 0)) {
            q++;
        }
        return q;
    }
}
