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

    StringMatcher(byte[] pattern, int mode, boolean ignoreCase) {
        this.pattern = ignoreCase ? lower(pattern) : pattern;
        this.mode = mode;
        this.ignoreCase = ignoreCase;
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

    /** Offset of the first occurrence of the pattern in the range, or -1. */
    private int indexOf(byte[] v, int off, int len) {
        byte[] p = pattern;
        int plen = p.length;
        if (plen == 0) {
            return off;
        }
        byte first = p[0];
        int last = off + len - plen;
        for (int i = off; i <= last; i++) {
            byte b = ignoreCase ? lower(v[i]) : v[i];
            if (b != first) {
                continue;
            }
            int k = 1;
            if (ignoreCase) {
                while (k < plen && lower(v[i + k]) == p[k]) {
                    k++;
                }
            } else {
                while (k < plen && v[i + k] == p[k]) {
                    k++;
                }
            }
            if (k == plen) {
                return i;
            }
        }
        return -1;
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
