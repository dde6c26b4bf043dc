package dev.logrouter.core.template;

import dev.logrouter.core.util.Utf8Encoder;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer that templates render into. Reused by its owner across messages
 * ({@link #reset()}), so a warm builder allocates nothing.
 *
 * <p>Threads: owned by one thread (a sink handler, a parse worker, the serial stage); not thread-safe.
 */
public final class ByteBuilder {

    private byte[] buf;
    private int len;

    public ByteBuilder(int initialCapacity) {
        buf = new byte[Math.max(16, initialCapacity)];
    }

    public void reset() {
        len = 0;
    }

    public int length() {
        return len;
    }

    /** The backing array; bytes {@code [0, length())} are valid until the next write. */
    public byte[] array() {
        return buf;
    }

    public void setLength(int newLength) {
        len = newLength;
    }

    public ByteBuilder append(byte b) {
        ensure(1);
        buf[len++] = b;
        return this;
    }

    public ByteBuilder append(byte[] src) {
        return append(src, 0, src.length);
    }

    public ByteBuilder append(byte[] src, int off, int n) {
        ensure(n);
        System.arraycopy(src, off, buf, len, n);
        len += n;
        return this;
    }

    /** Appends a non-negative or negative decimal number without allocating. */
    /** Appends {@code v} as four bytes, big-endian (a length in a binary record). */
    public ByteBuilder appendInt(int v) {
        return append((byte) (v >>> 24)).append((byte) (v >>> 16)).append((byte) (v >>> 8)).append((byte) v);
    }

    /** Writes {@code v} big-endian into {@code b[at, at + 4)}. */
    public static void setInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    /** The big-endian int at {@code b[at, at + 4)}. */
    public static int getInt(byte[] b, int at) {
        return (b[at] & 0xFF) << 24 | (b[at + 1] & 0xFF) << 16 | (b[at + 2] & 0xFF) << 8 | (b[at + 3] & 0xFF);
    }

    public ByteBuilder appendDecimal(long v) {
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                return append("-9223372036854775808".getBytes(StandardCharsets.US_ASCII));
            }
            append((byte) '-');
            v = -v;
        }
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        ensure(digits);
        for (int i = len + digits - 1; i >= len; i--) {
            buf[i] = (byte) ('0' + (v % 10));
            v /= 10;
        }
        len += digits;
        return this;
    }

    /** Appends {@code v} as exactly {@code width} digits, zero-padded (v must be non-negative). */
    private static final byte[] HEX = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};

    /** Appends the byte {@code b & 0xff} as two lower-case hex digits. */
    public ByteBuilder appendHexByte(int b) {
        ensure(2);
        buf[len++] = HEX[(b >> 4) & 0xf];
        buf[len++] = HEX[b & 0xf];
        return this;
    }

    public ByteBuilder appendPadded(long v, int width) {
        ensure(width);
        for (int i = len + width - 1; i >= len; i--) {
            buf[i] = (byte) ('0' + (v % 10));
            v /= 10;
        }
        len += width;
        return this;
    }

    /** Cold path: ASCII/UTF-8 text. */
    public ByteBuilder append(String s) {
        return append(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Appends {@code n} chars of {@code s} from {@code off} encoded as UTF-8, without allocating (hot path). */
    public ByteBuilder appendUtf8(CharSequence s, int off, int n) {
        ensure(Utf8Encoder.maxBytes(n));
        len = Utf8Encoder.encode(s, off, n, buf, len);
        return this;
    }

    /** Appends {@code n} chars of {@code c} from {@code off} encoded as UTF-8, without allocating (hot path). */
    public ByteBuilder appendUtf8(char[] c, int off, int n) {
        ensure(Utf8Encoder.maxBytes(n));
        len = Utf8Encoder.encode(c, off, n, buf, len);
        return this;
    }

    public void ensure(int extra) {
        if (len + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(len + extra, buf.length * 2));
        }
    }

    public boolean contentEquals(byte[] other, int off, int n) {
        return n == len && Arrays.equals(buf, 0, len, other, off, off + n);
    }

    @Override
    public String toString() {
        return new String(buf, 0, len, StandardCharsets.UTF_8);
    }
}
