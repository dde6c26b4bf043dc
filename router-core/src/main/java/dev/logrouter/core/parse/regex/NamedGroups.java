package dev.logrouter.core.parse.regex;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The names of the named groups {@code (?<name>...)} of a compiled pattern (Java 17 has no public API for
 * them): candidates are found by reading the pattern text (skipping escapes, {@code \Q...\E} and character
 * classes), and each is confirmed against the pattern itself, which is made to match the empty string.
 *
 * <p>Threads: stateless; used on the configuring thread.
 */
final class NamedGroups {

    private NamedGroups() {
    }

    static List<String> of(Pattern pattern) {
        Set<String> candidates = candidates(pattern.pattern());
        Matcher empty;
        try {
            // (?:P\n)? matches "" whatever P is; the newline ends a trailing comment in COMMENTS mode
            empty = Pattern.compile("(?:" + pattern.pattern() + "\n)?", pattern.flags()).matcher("");
            if (!empty.matches()) {
                empty = null;
            }
        } catch (PatternSyntaxException e) {
            empty = null;
        }
        List<String> names = new ArrayList<>();
        for (String name : candidates) {
            if (empty == null) {
                names.add(name);
                continue;
            }
            try {
                empty.start(name);
                names.add(name);
            } catch (IllegalArgumentException notAGroup) {
                // text that looked like a group, e.g. inside a comment
            }
        }
        return names;
    }

    private static Set<String> candidates(String p) {
        Set<String> names = new LinkedHashSet<>();
        int classDepth = 0;
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '\\') {
                if (i + 1 < p.length() && p.charAt(i + 1) == 'Q') {
                    int e = p.indexOf("\\E", i + 2);
                    i = e < 0 ? p.length() : e + 1;
                } else {
                    i++;
                }
            } else if (c == '[') {
                classDepth++;
            } else if (c == ']' && classDepth > 0) {
                classDepth--;
            } else if (classDepth == 0 && c == '(' && p.startsWith("?<", i + 1) && i + 3 < p.length()
                    && isAsciiLetter(p.charAt(i + 3))) {
                int s = i + 3;
                int e = s;
                while (e < p.length() && (isAsciiLetter(p.charAt(e)) || (p.charAt(e) >= '0' && p.charAt(e) <= '9'))) {
                    e++;
                }
                if (e < p.length() && p.charAt(e) == '>') {
                    names.add(p.substring(s, e));
                }
            }
        }
        return names;
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
