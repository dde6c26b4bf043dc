package dev.logrouter.core.util;

import java.nio.charset.StandardCharsets;

/**
 * A shell-style pattern as GLib's {@code GPatternSpec}, which syslog-ng uses for {@code type(glob)} filters,
 * value-pairs key globs ({@code $(format-json --key/--exclude/--rekey)}) and the xml parser's
 * {@code exclude-tags()}: the whole text must match; {@code *} matches any run of characters (dots included),
 * {@code ?} exactly one character (one UTF-8 sequence; a stray continuation byte counts as a character of its
 * own), everything else itself, case-sensitively. There are no character classes and no escapes.
 *
 * <p>Matching works on UTF-8 bytes and allocates nothing. It never backtracks further than the last {@code *}
 * (a mismatch retries that {@code *} one character further), so the cost is at most pattern × text length
 * and needs no step budget.
 *
 * <p>Threads: immutable, any thread.
 */
public final class Glob {

    private final String source;
    private final byte[] pattern;

    /** A glob of {@code pattern}'s characters. */
    public Glob(String pattern) {
        this.source = pattern;
        this.pattern = pattern.getBytes(StandardCharsets.UTF_8);
    }

    /** The pattern as written. */
    public String source() {
        return source;
    }

    /** True when {@code len} bytes of {@code s} at {@code off} (UTF-8) match the whole pattern. */
    public boolean matches(byte[] s, int off, int len) {
        byte[] p = pattern;
        int end = off + len;
        int pi = 0;
        int si = off;
        int starP = -1;
        int starS = -1;
        while (si < end) {
            if (pi < p.length && p[pi] == '*') {
                starP = ++pi;
                starS = si;
            } else if (pi < p.length && p[pi] == '?') {
                pi++;
                si = nextChar(s, si, end);
            } else if (pi < p.length && p[pi] == s[si]) {
                pi++;
                si++;
            } else if (starP >= 0) {
                pi = starP;
                starS = nextChar(s, starS, end);
                si = starS;
            } else {
                return false;
            }
        }
        while (pi < p.length && p[pi] == '*') {
            pi++;
        }
        return pi == p.length;
    }

    /** True when all of {@code s} (UTF-8) matches the whole pattern. */
    public boolean matches(byte[] s) {
        return matches(s, 0, s.length);
    }

    /** Index after the UTF-8 character starting at {@code i} (one byte for a stray continuation byte). */
    private static int nextChar(byte[] s, int i, int end) {
        int j = i + 1;
        while (j < end && (s[j] & 0xc0) == 0x80) {
            j++;
        }
        return j;
    }

    @Override
    public String toString() {
        return source;
    }
}
