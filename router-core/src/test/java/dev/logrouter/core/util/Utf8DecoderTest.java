package dev.logrouter.core.util;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link Utf8Decoder}: strict RFC 3629, one U+FFFD per malformed byte, char-to-byte offsets. */
class Utf8DecoderTest {

    private static String decode(byte[] b) {
        char[] out = new char[b.length];
        return new String(out, 0, Utf8Decoder.decode(b, 0, b.length, out, null));
    }

    @Test
    void wellFormedTextDecodesAsTheJdkDoes() {
        String text = "plain ASCII, \u00e1rv\u00edzt\u0171r\u0151, \u20ac, \u6771\u4eac, \ud83d\ude00 end";
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        assertThat(decode(b)).isEqualTo(text);
        int euro = text.substring(0, text.indexOf('\u20ac')).getBytes(StandardCharsets.UTF_8).length;
        assertThat(Utf8Decoder.sequenceLength(b, euro, b.length)).isEqualTo(3);
        assertThat(Utf8Decoder.sequenceLength(b, euro, euro + 2)).as("cut short").isZero();
    }

    @Test
    void eachMalformedByteIsOneReplacementCharacter() {
        byte[] bad = {
            'a', (byte) 0x80,                     // stray continuation
            (byte) 0xC0, (byte) 0xAF,             // overlong '/'
            (byte) 0xED, (byte) 0xA0, (byte) 0x80, // surrogate U+D800
            (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80, // above U+10FFFF
            (byte) 0xE2, (byte) 0x82, 'b',        // interrupted
            (byte) 0xE2, (byte) 0x82              // truncated at the end
        };
        String r = decode(bad);
        assertThat(r).isEqualTo("a" + "\ufffd".repeat(10) + "\ufffd\ufffdb" + "\ufffd\ufffd");
        for (int i = 0; i < bad.length; i++) {
            if (bad[i] < 0) {
                assertThat(Utf8Decoder.sequenceLength(bad, i, bad.length)).as("byte %d", i).isZero();
            }
        }
    }

    @Test
    void byteOffsetsPointAtTheStartOfEachCharacter() {
        byte[] b = {'a', (byte) 0xC3, (byte) 0xA9, (byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80, (byte) 0xFF,
            'z'};
        char[] out = new char[b.length];
        int[] at = new int[b.length + 1];
        int n = Utf8Decoder.decode(b, 0, b.length, out, at);
        assertThat(new String(out, 0, n)).isEqualTo("a\u00e9\ud83d\ude00\ufffdz");
        assertThat(Arrays.copyOf(at, n + 1)).containsExactly(0, 1, 3, 3, 7, 8, 9);
        Utf8CharSequence v = Utf8CharSequence.withByteOffsets().reset(b, 1, b.length - 1);
        assertThat(v.toString()).isEqualTo("\u00e9\ud83d\ude00\ufffdz");
        assertThat(v.byteOffset(0)).isZero();
        assertThat(v.byteOffset(3)).isEqualTo(6);
        assertThat(v.byteOffset(v.length())).isEqualTo(b.length - 1);
    }
}
