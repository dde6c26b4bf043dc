package dev.logrouter.core.filter;

/**
 * syslog-ng's {@code type(string)} matcher on bytes, without a regex: the whole value equals the pattern, or
 * with {@code flags(prefix)} starts with it, or with {@code flags(substring)} contains it ({@code prefix} wins
 * when both are given, as in syslog-ng). {@code flags(ignore-case)} folds ASCII letters only (as
 * {@code strncasecmp} in the C locale). Also used for regexes that are plain literals: an unanchored search for
 * a literal is a substring search.
 *
 * <p>Threads: immutable, any thread.
 */
final class StringMatcher implements ByteMatcher {

    static final int EXACT = 0;
    static final int PREFIX = 1;
    static final int SUBSTRING = 2;

    private final byte[] pattern;
    private final int mode;
    private final boolean ignoreCase;
    private final int[] skip;

    StringMatcher(byte[] pattern, int mode, boolean ignoreCase) {
        this.pattern = ignoreCase ? lower(pattern) : pattern;
        this.mode = mode;
        this.ignoreCase = ignoreCase;
        this.skip = mode == SUBSTRING ? skipTable(this.pattern) : null; // only a substring search uses it
    }

    @Override
    public boolean matches(byte[] v, int off, int len) {
        byte[] p = pattern;
        int plen = p.length;
        switch (mode) {
            case EXACT:
                return len == plen && regionEquals(v, off, p);
            case PREFIX:
                return len >= plen && regionEquals(v, off, p);
            default:
                return indexOf(v, off, len) >= 0;
        }
    }

    private boolean regionEquals(byte[] v, int off, byte[] p) {
        if (!ignoreCase) {
            return java.util.Arrays.equals(v, off, off + p.length, p, 0, p.length);
        }
        for (int i = 0; i < p.length; i++) {
            if (lower(v[off + i]) != p[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Offset of the first occurrence of the pattern in the range, or -1: Boyer-Moore-Horspool, so a search
     * looks at about {@code length / pattern length} bytes of a value that does not contain the pattern.
     */
    private int indexOf(byte[] v, int off, int len) {
        byte[] p = pattern;
        int plen = p.length;
        if (plen == 0) {
            return off;
        }
        int[] skip = this.skip;
        byte lastByte = p[plen - 1];
        int last = off + len - plen;
        int i = off;
        if (ignoreCase) {
            while (i <= last) {
                byte b = lower(v[i + plen - 1]);
                if (b == lastByte && regionEquals(v, i, p)) {
                    return i;
                }
                i += skip[b & 0xFF];
            }
        } else {
            while (i <= last) {
                byte b = v[i + plen - 1];
                if (b == lastByte && java.util.Arrays.equals(v, i, i + plen, p, 0, plen)) {
                    return i;
                }
                i += skip[b & 0xFF];
            }
        }
        return -1;
    }

    /** Horspool shift table: how far the window may move when its last byte is b. */
    private static int[] skipTable(byte[] p) {
        int[] skip = new int[256];
        java.util.Arrays.fill(skip, Math.max(1, p.length));
        for (int i = 0; i < p.length - 1; i++) {
            skip[p[i] & 0xFF] = p.length - 1 - i;
        }
        return skip;
    }

    private static byte lower(byte b) {
        return b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
    }

    private static byte[] lower(byte[] p) {
        byte[] out = p.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] = lower(out[i]);
        }
        return out;
    }
}
