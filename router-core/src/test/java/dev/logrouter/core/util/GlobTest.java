package dev.logrouter.core.util;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link Glob}: GPatternSpec semantics on UTF-8 bytes, as filters, value-pairs and exclude-tags use it. */
class GlobTest {

    private static boolean matches(String pattern, String text) {
        return new Glob(pattern).matches(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void starMatchesAnyRunAndTheWholeTextMustMatch() {
        assertThat(matches("*", "")).isTrue();
        assertThat(matches("a*b*c", "aXbYbZc")).isTrue();
        assertThat(matches("a*b*c", "aXbYbZ")).isFalse();
        assertThat(matches("*tag_break", "longtag")).isFalse();
        assertThat(matches(".sdata.*", ".sdata.meta.sequenceId")).as("* crosses dots").isTrue();
        assertThat(matches("post", "postfix")).isFalse();
        assertThat(matches("**fix", "postfix")).isTrue();
        assertThat(matches("", "")).isTrue();
        assertThat(matches("", "x")).isFalse();
    }

    @Test
    void questionMarkIsOneUtf8CharacterAndTheOthersAreLiteral() {
        assertThat(matches("caf?", "caf\u00e9")).isTrue();
        assertThat(matches("caf??", "caf\u00e9")).isFalse();
        assertThat(matches("?", "\ud83d\ude00")).as("a four-byte character").isTrue();
        assertThat(matches("*\u00e9", "caf\u00e9")).isTrue();
        assertThat(matches("A*", "abc")).as("case-sensitive").isFalse();
        assertThat(matches("[ab]", "a")).as("no character classes").isFalse();
        assertThat(matches("[ab]", "[ab]")).isTrue();
        byte[] stray = {'a', (byte) 0x80, 'b'};
        assertThat(new Glob("a?b").matches(stray)).as("a stray continuation byte is one character").isTrue();
        assertThat(new Glob("b").matches(stray, 2, 1)).isTrue();
    }

    @Test
    void aLongMismatchStaysCheap() {
        String text = "a".repeat(20_000);
        assertThat(matches("*a*a*a*a*b", text)).isFalse();
        assertThat(new Glob("x*").source()).isEqualTo("x*");
    }
}
