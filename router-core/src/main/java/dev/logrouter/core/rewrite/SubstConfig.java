package dev.logrouter.core.rewrite;

import dev.logrouter.core.event.EventField;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;

import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code type: subst}: replaces what a pattern matches in a field, like syslog-ng's
 * {@code rewrite { subst("pattern", "replacement", value("MSG") type("pcre") flags("global")); }}.
 *
 * <p>Threads: immutable.
 */
public record SubstConfig(
        @Option(doc = "Step name for its counters; default <chain>.subst.", defaultValue = Option.NONE)
        String name,
        @Option(doc = "Field to rewrite: HOST, PROGRAM, PID, MSGID, MSG (or MESSAGE), or a name-value field.",
                defaultValue = "MSG")
        String field,
        @Option(doc = "What to replace: a Java regular expression (pattern-type: regex) or literal text "
                + "(pattern-type: string).", defaultValue = Option.REQUIRED)
        String pattern,
        @Option(doc = "regex (Java java.util.regex syntax; pcre is accepted as a synonym) or string (literal).",
                defaultValue = "regex")
        String patternType,
        @Option(doc = "Template written in place of each match; $0 is the whole match, $1..$N (or ${1}) its groups, "
                + "and every other macro or field works as in any template. $$ is a literal $.",
                defaultValue = Option.REQUIRED)
        String replacement,
        @Option(doc = "Replace every match (syslog-ng flags(global)); false replaces the first only.",
                defaultValue = "false")
        Boolean global,
        @Option(doc = "Match without regard to case (syslog-ng flags(ignore-case)).", defaultValue = "false")
        Boolean ignoreCase) implements RewriteConfig {

    public SubstConfig {
        if (patternType != null) {
            String t = patternType.toLowerCase(Locale.ROOT);
            if (!t.equals("regex") && !t.equals("pcre") && !t.equals("string")) {
                throw new IllegalArgumentException("pattern-type must be regex (or pcre) or string, got '"
                        + patternType + "'");
            }
        }
        if (pattern != null && pattern.isEmpty()) {
            throw new IllegalArgumentException("pattern must not be empty");
        }
    }

    /** Compiles the pattern; a syntax error becomes an {@link IllegalArgumentException} naming the position. */
    Pattern compiledPattern() {
        int flags = "string".equalsIgnoreCase(patternType) ? Pattern.LITERAL : 0;
        if (Boolean.TRUE.equals(ignoreCase)) {
            flags |= Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
        }
        try {
            return Pattern.compile(pattern, flags);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("pattern is not a valid regular expression: " + e.getDescription()
                    + " near index " + e.getIndex() + " of \"" + pattern + "\"", e);
        }
    }

    @Override
    public EventParser create(ParseContext ctx) {
        if (pattern == null || replacement == null) {
            throw new IllegalArgumentException("subst needs pattern and replacement");
        }
        return new SubstRewrite(EventField.of(field == null ? "MSG" : field), compiledPattern(), replacement,
                Boolean.TRUE.equals(global), ctx);
    }
}
