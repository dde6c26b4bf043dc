package dev.logrouter.core.util;

import java.nio.charset.StandardCharsets;

/**
 * A zero-copy {@link CharSequence} view of a byte range, one char per byte (ISO-8859-1): bytes
 * {@code 0x00-0x7F} read as ASCII, bytes {@code 0x80-0xFF} as {@code U+0080-U+00FF}. For an ASCII regex this
 * is exact on UTF-8 input too: an ASCII pattern element can only match an ASCII byte, and a non-ASCII UTF-8
 * character reads as two to four chars (so {@code .} matches one byte of it). Use {@link Utf8CharSequence}
 * when a pattern must see whole non-ASCII characters.
 *
 * <p>The view points into the caller's array; it is valid while the bytes are unchanged. Reused across
 * messages ({@link #reset}); allocates nothing except in {@link #subSequence} and {@link #toString()}.
 *
 * <p>Threads: an instance belongs to one thread.
 */
public final class Latin1CharSequence implements CharSequence {

    private static final byte[] EMPTY = new byte[0];

    private byte[] bytes = EMPTY;
    private int offset;
    private int length;

    /** Points the view at {@code bytes[offset, offset + length)}; returns this. */
    public Latin1CharSequence reset(byte[] bytes, int offset, int length) {
        this.bytes = bytes;
        this.offset = offset;
        this.length = length;
        return this;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        return (char) (bytes[offset + index] & 0xFF);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return new String(bytes, offset + start, end - start, StandardCharsets.ISO_8859_1);
    }

    @Override
    public String toString() {
        return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
    }
}
