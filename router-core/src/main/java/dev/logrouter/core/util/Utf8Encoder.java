package dev.logrouter.core.util;

/**
 * Encodes Java chars as UTF-8 into a caller's byte array without allocating: the one encoder behind
 * {@code ByteBuilder.appendUtf8} and {@code FieldTable.appendUtf8ToValue}. An unpaired surrogate becomes
 * {@code ?}, as {@link String#getBytes} with UTF-8 does.
 *
 * <p>Threads: stateless; any thread.
 */
public final class Utf8Encoder {

    private Utf8Encoder() {
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
        while (i < end) {
            char c = src[i];
            if (c >= 0x80) {
                break;
            }
            dst[p++] = (byte) c;
            i++;
        }
        for (; i < end; i++) {
            char c = src[i];
            if (c < 0x80) {
                dst[p++] = (byte) c;
            } else if (c < 0x800) {
                dst[p++] = (byte) (0xC0 | (c >> 6));
                dst[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(src[i + 1])) {
                int cp = Character.toCodePoint(c, src[++i]);
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
        }
        return p;
    }
}
