package dev.logrouter.core.util;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A {@link CharSequence} holding a UTF-8 byte range decoded to UTF-16 into a reusable char buffer, for regexes
 * that must see whole non-ASCII characters (a non-ASCII literal, {@code .} over accented text, Unicode case
 * folding). Decoding is {@link Utf8Decoder}'s: a malformed sequence decodes to {@code U+FFFD}, one per bad byte,
 * so decoding never fails.
 *
 * <p>An instance made by {@link #withByteOffsets()} also keeps, for every char, the offset of the byte its
 * character starts at ({@link #byteOffset}), so that a caller can copy matched or unmatched text back from the
 * original bytes, malformed bytes included.
 *
 * <p>Pure ASCII input (the common case) is not decoded: the sequence reads the bytes in place, and a byte offset
 * is the char index. Other input costs one decoding pass per {@link #reset}. A warm instance allocates nothing
 * except in {@link #subSequence} and {@link #toString()}.
 *
 * <p>Threads: an instance belongs to one thread.
 */
public final class Utf8CharSequence implements CharSequence {

    private char[] chars = new char[256];
    private int[] byteAt;
    private int length;
    /** The input when it is pure ASCII (read in place), else null. */
    private byte[] ascii;
    private int asciiOff;

    /** A sequence without byte offsets. */
    public Utf8CharSequence() {
    }

    private Utf8CharSequence(int[] byteAt) {
        this.byteAt = byteAt;
    }

    /** A sequence that also records the byte offset of every char ({@link #byteOffset}). */
    public static Utf8CharSequence withByteOffsets() {
        return new Utf8CharSequence(new int[257]);
    }

    /** Decodes {@code bytes[offset, offset + len)}; returns this. */
    public Utf8CharSequence reset(byte[] bytes, int offset, int len) {
        if (isAscii(bytes, offset, len)) {
            ascii = bytes;
            asciiOff = offset;
            length = len;
            return this;
        }
        ascii = null;
        if (chars.length < len) {
            chars = new char[Math.max(len, chars.length * 2)];
        }
        if (byteAt != null && byteAt.length < len + 1) {
            byteAt = new int[Math.max(len + 1, byteAt.length * 2)];
        }
        length = Utf8Decoder.decode(bytes, offset, len, chars, byteAt);
        return this;
    }

    /**
     * The offset, from the {@code offset} given to {@link #reset}, of the byte where the character of char
     * {@code index} starts; {@code byteOffset(length())} is the byte length. Only on an instance made by
     * {@link #withByteOffsets()}.
     */
    public int byteOffset(int index) {
        return ascii != null ? index : byteAt[index];
    }

    private static boolean isAscii(byte[] b, int off, int len) {
        for (int i = off, end = off + len; i < end; i++) {
            if (b[i] < 0) {
                return false;
            }
        }
        return true;
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
        return ascii != null ? (char) ascii[asciiOff + index] : chars[index];
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return ascii != null ? new String(ascii, asciiOff + start, end - start, StandardCharsets.US_ASCII)
                : new String(chars, start, end - start);
    }

    @Override
    public String toString() {
        return ascii != null ? new String(ascii, asciiOff, length, StandardCharsets.US_ASCII)
                : new String(Arrays.copyOf(chars, length));
    }
}
