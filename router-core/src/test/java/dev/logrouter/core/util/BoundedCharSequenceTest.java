package dev.logrouter.core.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The step budget of {@link BoundedCharSequence} and the byte views it wraps. */
class BoundedCharSequenceTest {

    @Test
    void ordinarySearchesStayWellInsideTheBudget() {
        BoundedCharSequence in = new BoundedCharSequence().reset("GET /api/v1/orders/84412 HTTP/1.1 status=503");
        Matcher m = Pattern.compile("status=(5\\d\\d)").matcher(in);
        assertThat(in.find(m)).isEqualTo(BoundedCharSequence.Outcome.MATCH);
        assertThat(m.group(1)).isEqualTo("503");
        assertThat(in.stepsUsed()).isPositive().isLessThan(BoundedCharSequence.defaultBudget(in.length()) / 100);
        assertThat(in.exceeded()).isFalse();
    }

    @Test
    void catastrophicBacktrackingIsAbandoned() {
        // (a+)+$ is memoised by the JDK's engine since Java 9; these still explode (polynomially, exponentially)
        String text = "a".repeat(40) + "!";
        BoundedCharSequence in = new BoundedCharSequence().reset(text);
        Matcher m = Pattern.compile("(.*a){12}x").matcher(in);
        assertThat(in.find(m)).isEqualTo(BoundedCharSequence.Outcome.BUDGET_EXCEEDED);
        assertThat(in.exceeded()).isTrue();
        assertThat(in.stepsUsed()).isEqualTo(BoundedCharSequence.defaultBudget(text.length()));
        // once exceeded, further calls report it until the next reset
        assertThat(in.find(m)).isEqualTo(BoundedCharSequence.Outcome.BUDGET_EXCEEDED);
        in.reset(text);
        m = Pattern.compile("((a+)+)+$").matcher(in);
        assertThat(in.find(m)).isEqualTo(BoundedCharSequence.Outcome.BUDGET_EXCEEDED);
        in.reset("aaa");
        m.reset(in);
        assertThat(in.matches(m)).isEqualTo(BoundedCharSequence.Outcome.MATCH);
    }

    @Test
    void anExplicitBudgetCoversEveryCallUntilTheNextReset() {
        BoundedCharSequence in = new BoundedCharSequence().reset("x1 x2 x3 x4 x5", 8);
        Matcher m = Pattern.compile("x\\d").matcher(in);
        int found = 0;
        BoundedCharSequence.Outcome r;
        while ((r = in.find(m)) == BoundedCharSequence.Outcome.MATCH) {
            found++;
        }
        assertThat(r).isEqualTo(BoundedCharSequence.Outcome.BUDGET_EXCEEDED);
        assertThat(found).isBetween(1, 4);
        assertThat(in.lookingAt(m)).isEqualTo(BoundedCharSequence.Outcome.BUDGET_EXCEEDED);
    }

    @Test
    void latin1ViewReadsBytesInPlace() {
        byte[] b = "xxcafé!".getBytes(StandardCharsets.UTF_8);
        Latin1CharSequence v = new Latin1CharSequence().reset(b, 2, b.length - 3);
        assertThat(v.length()).isEqualTo(5); // c a f + two bytes of é
        assertThat(v.charAt(3)).isEqualTo((char) 0xC3);
        assertThat(v.subSequence(0, 3).toString()).isEqualTo("caf");
    }

    @Test
    void utf8ViewDecodesAndReplacesMalformedBytes() {
        byte[] good = "aé€😀".getBytes(StandardCharsets.UTF_8);
        Utf8CharSequence v = new Utf8CharSequence().reset(good, 0, good.length);
        assertThat(v.toString()).isEqualTo("aé€😀");
        byte[] bad = {'a', (byte) 0xC3, 'b', (byte) 0xE2, (byte) 0x82};
        v.reset(bad, 0, bad.length);
        assertThat(v.toString()).isEqualTo("a\uFFFDb\uFFFD\uFFFD");
    }
}
