package dev.logrouter.core.filter;

import dev.logrouter.core.metrics.Counter;

import dev.logrouter.core.util.Glob;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A pattern with syslog-ng's matcher options, compiled once: {@code type(pcre)} (the default; a regex, searched
 * unanchored), {@code type(string)} (exact, or {@code flags(prefix)} / {@code flags(substring)}) and
 * {@code type(glob)}; {@code flags(ignore-case)}. {@link #newMatcher()} gives a per-thread {@link ByteMatcher}.
 *
 * <p>Fast paths: string types, and regexes with no metacharacter (a plain word such as {@code "error"}), run as
 * byte comparisons without the regex engine.
 *
 * <p>Regexes see an ISO-8859-1 view of the bytes (one char per byte, no decoding) unless the pattern contains a
 * non-ASCII character or has {@code flags(utf8)}: then the value is decoded from UTF-8 first and
 * {@code ignore-case} folds Unicode letters too. With the byte view, {@code .} matches one byte of a multi-byte
 * character and {@code ignore-case} folds ASCII letters only.
 *
 * <p>Threads: immutable; matchers it makes belong to one thread.
 */
final class MatchSpec {

    static final int PCRE = 0;
    static final int STRING = 1;
    static final int GLOB = 2;

    private static final String REGEX_META = "\\^$.|?*+()[]{}";

    private final String pattern;
    private final int type;
    private final boolean ignoreCase;
    private final int stringMode;
    private final Pattern regex;
    private final boolean utf8;
    private final ByteMatcher shared;
    private final Counter budgetExceeded;

    /**
     * @param column column of the pattern's first character, for error messages
     * @throws IllegalArgumentException for a pattern that does not compile
     */
    MatchSpec(String pattern, int type, boolean ignoreCase, boolean prefix, boolean substring, boolean utf8Flag,
              int column, Counter budgetExceeded) {
        this.pattern = pattern;
        this.type = type;
        this.ignoreCase = ignoreCase;
        this.stringMode = prefix ? StringMatcher.PREFIX : substring ? StringMatcher.SUBSTRING : StringMatcher.EXACT;
        this.budgetExceeded = budgetExceeded;
        byte[] bytes = pattern.getBytes(StandardCharsets.UTF_8);
        boolean ascii = bytes.length == pattern.length();
        if (type == STRING) {
            shared = new StringMatcher(bytes, stringMode, ignoreCase);
            regex = null;
            utf8 = false;
        } else if (type == GLOB) {
            shared = new Glob(pattern)::matches;
            regex = null;
            utf8 = false;
        } else if (isLiteral(pattern) && (ascii || !ignoreCase)) {
            shared = new StringMatcher(bytes, StringMatcher.SUBSTRING, ignoreCase);
            regex = null;
            utf8 = false;
        } else {
            utf8 = utf8Flag || !ascii;
            int flags = 0;
            if (ignoreCase) {
                flags |= Pattern.CASE_INSENSITIVE | (utf8 ? Pattern.UNICODE_CASE : 0);
            }
            try {
                regex = Pattern.compile(pattern, flags);
            } catch (PatternSyntaxException e) {
                int at = e.getIndex() < 0 ? column : column + e.getIndex();
                throw FilterExpression.error(at, "invalid regular expression \"" + pattern + "\": "
                        + e.getDescription(), "fix the pattern (Java regex syntax, close to PCRE), or use "
                        + "type(string) for plain text");
            }
            shared = null;
        }
    }

    /** True when the regex has no metacharacter: an unanchored search for it is a substring search. */
    static boolean isLiteral(String pattern) {
        for (int i = 0; i < pattern.length(); i++) {
            if (REGEX_META.indexOf(pattern.charAt(i)) >= 0) {
                return false;
            }
        }
        return true;
    }

    ByteMatcher newMatcher() {
        return shared != null ? shared : new RegexMatcher(regex, utf8, budgetExceeded);
    }

    String describe() {
        StringBuilder sb = new StringBuilder("\"").append(pattern).append('"');
        if (type == STRING) {
            sb.append(" type(string)");
        } else if (type == GLOB) {
            sb.append(" type(glob)");
        }
        if (ignoreCase || (type == STRING && stringMode != StringMatcher.EXACT) || utf8) {
            sb.append(" flags(");
            String sep = "";
            if (ignoreCase) {
                sb.append("ignore-case");
                sep = " ";
            }
            if (type == STRING && stringMode == StringMatcher.PREFIX) {
                sb.append(sep).append("prefix");
                sep = " ";
            } else if (type == STRING && stringMode == StringMatcher.SUBSTRING) {
                sb.append(sep).append("substring");
                sep = " ";
            }
            if (utf8) {
                sb.append(sep).append("utf8");
            }
            sb.append(')');
        }
        return sb.toString();
    }
}
