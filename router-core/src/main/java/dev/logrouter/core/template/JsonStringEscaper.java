package dev.logrouter.core.template;

import dev.logrouter.core.util.Utf8Decoder;

/**
 * Writes arbitrary bytes as the contents of a JSON string (without the quotes), the way syslog-ng's
 * {@code $(format-json)} does: {@code "} and {@code \} are backslash-escaped; backspace, form feed, newline,
 * carriage return and tab become {@code \b \f \n \r \t}; other control bytes become {@code \}{@code u00XX}; valid
 * UTF-8 is copied unchanged; every byte that does not start a valid UTF-8 sequence (a stray continuation
 * byte, an overlong form, a surrogate, a truncated sequence, above U+10FFFF) is written as the six characters
 * {@code \\xHH} (an escaped backslash, then {@code x} and two lower-case hex digits), so the output is always
 * valid UTF-8 and valid JSON and the original bytes can still be told. Validity is {@link Utf8Decoder}'s.
 *
 * <p>Threads: stateless, any thread.
 */
public final class JsonStringEscaper implements ValueEscaper {

    public static final JsonStringEscaper INSTANCE = new JsonStringEscaper();


    private JsonStringEscaper() {
    }

    @Override
    public void append(ByteBuilder out, byte[] src, int off, int len) {
        escape(out, src, off, len);
    }

    /** Appends {@code len} bytes of {@code src} at {@code off}, escaped for a JSON string. */
    public static void escape(ByteBuilder out, byte[] src, int off, int len) {
        int end = off + len;
        int i = off;
        while (i < end) {
            int b = src[i] & 0xff;
            if (b >= 0x20 && b < 0x80 && b != '"' && b != '\\') {
                int run = i + 1;
                while (run < end) {
                    int r = src[run] & 0xff;
                    if (r < 0x20 || r >= 0x80 || r == '"' || r == '\\') {
                        break;
                    }
                    run++;
                }
                out.append(src, i, run - i);
                i = run;
                continue;
            }
            if (b < 0x80) {
                escapeAscii(out, b);
                i++;
                continue;
            }
            int n = Utf8Decoder.sequenceLength(src, i, end);
            if (n > 0) {
                out.append(src, i, n);
                i += n;
            } else {
                out.ensure(6);
                out.append((byte) '\\').append((byte) '\\').append((byte) 'x')
                        .appendHexByte(b);
                i++;
            }
        }
    }

    private static void escapeAscii(ByteBuilder out, int b) {
        switch (b) {
            case '"':
                out.append((byte) '\\').append((byte) '"');
                break;
            case '\\':
                out.append((byte) '\\').append((byte) '\\');
                break;
            case '\b':
                out.append((byte) '\\').append((byte) 'b');
                break;
            case '\f':
                out.append((byte) '\\').append((byte) 'f');
                break;
            case '\n':
                out.append((byte) '\\').append((byte) 'n');
                break;
            case '\r':
                out.append((byte) '\\').append((byte) 'r');
                break;
            case '\t':
                out.append((byte) '\\').append((byte) 't');
                break;
            default:
                out.append((byte) '\\').append((byte) 'u').append((byte) '0').append((byte) '0')
                        .appendHexByte(b);
        }
    }
}
