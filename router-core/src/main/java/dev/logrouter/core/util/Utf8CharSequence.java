package dev.logrouter.core.util;

import java.util.Arrays;

/**
 * A {@link CharSequence} holding a UTF-8 byte range decoded to UTF-16 into a reusable char buffer, for regexes
 * that must see whole non-ASCII characters (a non-ASCII literal, {@code .} over accented text, Unicode case
 * folding). A malformed sequence decodes to {@code U+FFFD}, one per bad byte, so decoding never fails.
 *
 * <p>Decoding costs one pass over the bytes per {@link #reset}; a warm instance allocates nothing except in
 * {@link #subSequence} and {@link #toString()}.
 *
 * <p>Threads: an instance belongs to one thread.
 */
public final class Utf8CharSequence implements CharSequence {

    private static final char REPLACEMENT = '\uFFFD';

    private char[] chars = new char[256];
    private int length;

    /** Decodes {@code bytes[offset, offset + len)}; returns this. */
    public Utf8CharSequence reset(byte[] bytes, int offset, int len) {
        if (chars.length < len) {
            chars = new char[Math.max(len, chars.length * 2)];
        }
        char[] out = chars;
        int n = 0;
        int i = offset;
        int end = offset + len;
        while (i < end) {
            int b = bytes[i];
            if (b >= 0) {
                out[n++] = (char) b;
                i++;
                continue;
            }
            int need;
            int cp;
            int min;
            if ((b & 0xE0) == 0xC0) {
                need = 1;
                cp = b & 0x1F;
                min = 0x80;
            } else if ((b & 0xF0) == 0xE0) {
                need = 2;
                cp = b & 0x0F;
                min = 0x800;
            } else if ((b & 0xF8) == 0xF0) {
                need = 3;
                cp = b & 0x07;
                min = 0x10000;
            } else {
                out[n++] = REPLACEMENT;
                i++;
                continue;
            }
            if (i + need >= end) { // truncated sequence
                out[n++] = REPLACEMENT;
                i++;
                continue;
            }
            boolean ok = true;
            for (int k = 1; k <= need; k++) {
                int c = bytes[i + k];
                if ((c & 0xC0) != 0x80) {
                    ok = false;
                    break;
                }
                cp = (cp << 6) | (c & 0x3F);
            }
            if (!ok || cp < min || cp > Character.MAX_CODE_POINT || (cp >= 0xD800 && cp <= 0xDFFF)) {
                out[n++] = REPLACEMENT;
                i++;
                continue;
            }
            if (cp >= 0x10000) {
                out[n++] = Character.highSurrogate(cp);
                out[n++] = Character.lowSurrogate(cp);
            } else {
                out[n++] = (char) cp;
            }
            i += need + 1;
        }
        length = n;
        return this;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        if (index >= length) {
            throw new IndexOutOfBoundsException(index);
        }
        return chars[index];
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return new String(chars, start, end - start);
    }

    @Override
    public String toString() {
        return new String(Arrays.copyOf(chars, length));
    }
}
