package dev.logrouter.core.parse.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.logrouter.core.template.ByteBuilder;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link FixedDecimal} against the exact decimal expansion rounded half-to-even (what glibc's %f prints). */
class FixedDecimalTest {

    private static String format(double d) {
        ByteBuilder b = new ByteBuilder(32);
        FixedDecimal.appendFixed6(b, d);
        return b.toString();
    }

    private static String expected(double d) {
        String s = new BigDecimal(d).setScale(6, RoundingMode.HALF_EVEN).toPlainString();
        return (d < 0 || (d == 0 && 1 / d < 0)) && !s.startsWith("-") ? "-" + s : s;
    }

    @Test
    void knownValues() {
        assertThat(format(0.0)).isEqualTo("0.000000");
        assertThat(format(-0.0)).isEqualTo("-0.000000");
        assertThat(format(1.5)).isEqualTo("1.500000");
        assertThat(format(-2.25)).isEqualTo("-2.250000");
        assertThat(format(0.1)).isEqualTo("0.100000");
        assertThat(format(1e-7)).isEqualTo("0.000000");
        assertThat(format(9.9999995e-1)).isEqualTo(expected(9.9999995e-1));
        assertThat(format(Double.MIN_VALUE)).isEqualTo("0.000000");
        assertThat(format(123456789.123456789)).isEqualTo("123456789.123457");
        assertThat(format(1e300)).isEqualTo(expected(1e300));
    }

    @Test
    void matchesTheExactExpansionOnRandomDoubles() {
        SplittableRandom r = new SplittableRandom(42);
        for (int i = 0; i < 200_000; i++) {
            double d;
            switch (i % 4) {
                case 0 -> d = r.nextDouble() * Math.pow(10, r.nextInt(-9, 14)) * (r.nextBoolean() ? 1 : -1);
                case 1 -> d = Double.longBitsToDouble(r.nextLong()); // any bit pattern
                case 2 -> d = (r.nextInt(-1_000_000, 1_000_000) + 0.5) / 1_000_000.0; // near ties
                default -> d = r.nextInt(1 << 20) / 128.0; // exact ties at the sixth decimal
            }
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                continue;
            }
            assertThat(format(d)).as("%s", d).isEqualTo(expected(d));
        }
    }
}
