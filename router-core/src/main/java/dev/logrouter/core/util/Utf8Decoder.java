package dev.logrouter.core.util;

/**
 * Strict UTF-8 (RFC 3629) decoding for the places that read message bytes as text: no overlong forms, no
 * surrogates, nothing above U+10FFFF. Every byte that does not begin a well-formed sequence (a stray
 * continuation byte, a bad lead byte, a truncated or interrupted sequence) is one malformed byte on its own:
 * {@link #decode} turns it into one {@code U+FFFD} and goes on with the next byte.
 *
 * <p>Used by {@link Utf8CharSequence} (regex filters, the {@code regex} parser, {@code subst}) and by the JSON
 * string escaper of {@code $(format-json)}, so that all of them agree on which bytes are valid UTF-8.
 *
 * <p>Threads: stateless, any thread. Allocates nothing.
 */
public final class Utf8Decoder {

    /** What a malformed byte decodes to. */
    public static final char REPLACEMENT = '\uFFFD';

    private Utf8Decoder() {
    }

    /**
     * Length (2..4) of the well-formed UTF-8 sequence starting with the non-ASCII byte at {@code i} and ending
     * before {@code end}, or 0 when there is none there.
     */
    public static int sequenceLength(byte[] src, int i, int end) {
        int cp = codePointAt(src, i, end);
        return cp < 0 ? 0 : length(cp);
    }

    /** Whether {@code b[from, to)} is well-formed UTF-8 throughout. */
    public static boolean isValid(byte[] b, int from, int to) {
        int i = from;
        while (i < to) {
            if (b[i] >= 0) {
                i++;
                continue;
            }
            int n = sequenceLength(b, i, to);
            if (n == 0) {
                return false;
            }
            i += n;
        }
        return true;
    }

    /** Bytes of the shortest UTF-8 form of the non-ASCII code point {@code cp} (the only well-formed one). */
    private static int length(int cp) {
        return cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }

    /**
     * The code point of the well-formed UTF-8 sequence starting with the non-ASCII byte at {@code i} and ending
     * before {@code end}, or -1 when there is none there.
     */
    private static int codePointAt(byte[] src, int i, int end) {
        int b = src[i] & 0xff;
        int n;
        int cp;
        int min;
        if (b >= 0xc2 && b <= 0xdf) {
            n = 2;
            cp = b & 0x1f;
            min = 0x80;
        } else if (b >= 0xe0 && b <= 0xef) {
            n = 3;
            cp = b & 0x0f;
            min = 0x800;
        } else if (b >= 0xf0 && b <= 0xf4) {
            n = 4;
            cp = b & 0x07;
            min = 0x10000;
        } else {
            return -1;
        }
        if (i + n > end) {
            return -1;
        }
        for (int k = 1; k < n; k++) {
            int c = src[i + k] & 0xff;
            if ((c & 0xc0) != 0x80) {
                return -1;
            }
            cp = (cp << 6) | (c & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            return -1;
        }
        return cp;
    }

    /**
     * Decodes {@code src[off, off + len)} to UTF-16 into {@code dst} (which needs room for {@code len} chars:
     * UTF-8 never yields more chars than bytes) and returns the number of chars written. When {@code byteAt} is
     * not null (room for {@code len + 1} entries) it receives, for every char, the offset from {@code off} of
     * the byte its character starts at (both chars of a surrogate pair get the same offset), and after the last
     * char the entry {@code len}.
     */
    public static int decode(byte[] src, int off, int len, char[] dst, int[] byteAt) {
        int n = 0;
        int i = 0;
        int end = off + len;
        while (i < len) {
            if (src[off + i] >= 0) { // a run of ASCII, copied in a tight loop
                int run = i + 1;
                while (run < len && src[off + run] >= 0) {
                    run++;
                }
                for (int k = i; k < run; k++) {
                    dst[n + k - i] = (char) src[off + k];
                }
                if (byteAt != null) {
                    for (int k = i; k < run; k++) {
                        byteAt[n + k - i] = k;
                    }
                }
                n += run - i;
                i = run;
                continue;
            }
            if (byteAt != null) {
                byteAt[n] = i;
            }
            int cp = codePointAt(src, off + i, end);
            if (cp < 0) {
                dst[n++] = REPLACEMENT;
                i++;
                continue;
            }
            if (cp >= 0x10000) {
                dst[n++] = Character.highSurrogate(cp);
                if (byteAt != null) {
                    byteAt[n] = i;
                }
                dst[n++] = Character.lowSurrogate(cp);
            } else {
                dst[n++] = (char) cp;
            }
            i += length(cp);
        }
        if (byteAt != null) {
            byteAt[n] = len;
        }
        return n;
    }
}
