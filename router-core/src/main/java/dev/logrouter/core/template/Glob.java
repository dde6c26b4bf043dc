package dev.logrouter.core.template;

import java.nio.charset.StandardCharsets;

/**
 * A shell-style name pattern as GLib's {@code GPatternSpec} (which syslog-ng's value-pairs use): {@code *}
 * matches any run of characters (dots included), {@code ?} exactly one character (one UTF-8 sequence),
 * everything else itself. There are no character classes and no escapes. Matching works on UTF-8 bytes
 * and allocates nothing; it is linear in practice (one backtrack point, the last {@code *}).
 *
 * <p>Threads: immutable, any thread.
 */
final class Glob {

    private final String source;
    private final byte[] pattern;

    Glob(String pattern) {
        this.source = pattern;
        this.pattern = pattern.getBytes(StandardCharsets.UTF_8);
    }

    String source() {
        return source;
    }

    /** True when {@code len} bytes of {@code s} at {@code off} match the whole pattern. */
    boolean matches(byte[] s, int off, int len) {
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

    boolean matches(byte[] s) {
        return matches(s, 0, s.length);
    }

    private static int nextChar(byte[] s, int i, int end) {
        i++;
        while (i < end && (s[i] & 0xc0) == 0x80) {
            i++;
        }
        return i;
    }

    @Override
    public String toString() {
        return source;
    }
}
