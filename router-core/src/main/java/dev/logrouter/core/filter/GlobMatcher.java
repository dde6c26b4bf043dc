package dev.logrouter.core.filter;

/**
 * syslog-ng's {@code type(glob)} matcher (GLib's {@code GPatternSpec}): the whole value must match the pattern,
 * where {@code *} matches any run of characters and {@code ?} one character (a whole UTF-8 sequence); there are
 * no character classes and no escapes, and matching is case-sensitive. Runs on bytes in time proportional to
 * pattern × value at worst, so it needs no step budget.
 *
 * <p>Threads: immutable, any thread.
 */
final class GlobMatcher implements ByteMatcher {

    private final byte[] pattern;

    GlobMatcher(byte[] pattern) {
        this.pattern = pattern;
    }

    @Override
    public boolean matches(byte[] v, int off, int len) {
        byte[] p = pattern;
        int end = off + len;
        int pi = 0;
        int vi = off;
        int starP = -1;
        int starV = -1;
        while (vi < end) {
            if (pi < p.length && p[pi] == '*') {
                starP = pi++;
                starV = vi;
            } else if (pi < p.length && p[pi] == '?') {
                pi++;
                vi = nextChar(v, vi, end);
            } else if (pi < p.length && p[pi] == v[vi]) {
                pi++;
                vi++;
            } else if (starP >= 0) {
                pi = starP + 1;
                starV = nextChar(v, starV, end);
                vi = starV;
            } else {
                return false;
            }
        }
        while (pi < p.length && p[pi] == '*') {
            pi++;
        }
        return pi == p.length;
    }

    /** Index after the UTF-8 character starting at {@code i} (one byte for a stray continuation byte). */
    private static int nextChar(byte[] v, int i, int end) {
        int j = i + 1;
        while (j < end && (v[j] & 0xC0) == 0x80) {
            j++;
        }
        return j;
    }
}
