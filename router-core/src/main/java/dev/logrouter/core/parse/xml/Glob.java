package dev.logrouter.core.parse.xml;

/**
 * Shell-style glob matching ({@code *} any run of characters, {@code ?} one character, everything else
 * literal), as GLib's {@code GPatternSpec} that syslog-ng's {@code exclude-tags()} uses. Never exponential:
 * a mismatch after a {@code *} only retries the last {@code *} one character further, so the cost is at most
 * the product of the two lengths.
 *
 * <p>Threads: stateless.
 */
final class Glob {

    private Glob() {
    }

    static boolean matches(String pattern, String s) {
        int p = 0;
        int i = 0;
        int star = -1;
        int resume = 0;
        while (i < s.length()) {
            if (p < pattern.length() && (pattern.charAt(p) == '?' || pattern.charAt(p) == s.charAt(i))) {
                p++;
                i++;
            } else if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                resume = i;
            } else if (star >= 0) {
                p = star + 1;
                i = ++resume;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }
}
