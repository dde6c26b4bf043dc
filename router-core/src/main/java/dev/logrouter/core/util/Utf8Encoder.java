package dev.logrouter.core.util;

/**
 * Encodes Java chars as UTF-8 into a caller's byte array without allocating: the one encoder behind
 * {@code ByteBuilder.appendUtf8}, {@code FieldTable.appendUtf8ToValue} and the JSON fast path's {@code \\u} escapes. An unpaired surrogate becomes
 * {@code ?}, as {@link String#getBytes} with UTF-8 does.
 *
 * <p>Threads: stateless; any thread.
 */
public final class Utf8Encoder {

    private Utf8Encoder() {
    }

    /**
     * The length of the longest prefix of {@code b[off, off + max]} that is at most {@code max} bytes and does not
     * end inside a UTF-8 sequence, {@code b[off + max]} being the first byte that does not fit (it must exist): when
     * that byte continues a sequence, the cut moves back to the sequence's lead byte. Bytes that are not valid
     * UTF-8 there are cut at {@code max}.
     */
    public static int prefixLength(byte[] b, int off, int max) {
        int cut = max;
        for (int k = 0; k < 3 && cut > 0 && (b[off + cut] & 0xC0) == 0x80; k++) {
            cut--;
        }
        if (cut == max) {
            return max;
        }
        return (b[off + cut] & 0xC0) == 0xC0 ? cut : max;
    }

    /** The most bytes {@code n} chars can take (3 per char; a surrogate pair takes 4 for 2 chars). */
    public static int maxBytes(int n) {
        return 3 * n;
    }

    /**
     * Writes {@code n} chars of {@code src} from {@code off} as UTF-8 into {@code dst} at {@code at}, which must
     * have {@link #maxBytes(int)} bytes of room; returns the position after the last byte written.
     */
    public static int encode(char[] src, int off, int n, byte[] dst, int at) {
        int end = off + n;
        int p = at;
        int i = off;
        // ASCII runs are the common case: a tight loop first, the general one from the first other char on
        while (i < end && src[i] < 0x80) {
            dst[p++] = (byte) src[i++];
        }
        for (; i < end; i++) {
            char c = src[i];
            if (c < 0x80) {
                dst[p++] = (byte) c;
            } else {
                char next = i + 1 < end ? src[i + 1] : 0;
                p = encodeNonAscii(c, next, dst, p);
                if (isPair(c, next)) {
                    i++;
                }
            }
        }
        return p;
    }

    /** As {@link #encode(char[], int, int, byte[], int)}, from a {@link CharSequence} (a String, a name). */
    public static int encode(CharSequence src, int off, int n, byte[] dst, int at) {
        int end = off + n;
        int p = at;
        for (int i = off; i < end; i++) {
            char c = src.charAt(i);
            if (c < 0x80) {
                dst[p++] = (byte) c;
            } else {
                char next = i + 1 < end ? src.charAt(i + 1) : 0;
                p = encodeNonAscii(c, next, dst, p);
                if (isPair(c, next)) {
                    i++;
                }
            }
        }
        return p;
    }

    /** Writes one char (a lone surrogate becomes {@code ?}) at {@code dst[at]}; returns the position after it. */
    public static int encode(char c, byte[] dst, int at) {
        if (c < 0x80) {
            dst[at] = (byte) c;
            return at + 1;
        }
        return encodeNonAscii(c, (char) 0, dst, at);
    }

    private static boolean isPair(char c, char next) {
        return Character.isHighSurrogate(c) && Character.isLowSurrogate(next);
    }

    /** One char of 0x80 or more, with {@code next} when the two form a surrogate pair (the caller skips it). */
    private static int encodeNonAscii(char c, char next, byte[] dst, int at) {
        int p = at;
        if (c < 0x800) {
            dst[p++] = (byte) (0xC0 | (c >> 6));
            dst[p++] = (byte) (0x80 | (c & 0x3F));
        } else if (isPair(c, next)) {
            int cp = Character.toCodePoint(c, next);
            dst[p++] = (byte) (0xF0 | (cp >> 18));
            dst[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
            dst[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
            dst[p++] = (byte) (0x80 | (cp & 0x3F));
        } else if (Character.isSurrogate(c)) {
            dst[p++] = (byte) '?';
        } else {
            dst[p++] = (byte) (0xE0 | (c >> 12));
            dst[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
            dst[p++] = (byte) (0x80 | (c & 0x3F));
        }
        return p;
    }
}
