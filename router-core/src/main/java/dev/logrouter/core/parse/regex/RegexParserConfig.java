package dev.logrouter.core.parse.regex;

import dev.logrouter.core.option.Option;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.FieldParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.parse.ParserConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code type: regex}: the first of a list of regular expressions that matches writes its named groups as
 * fields, like syslog-ng's {@code regexp-parser()}. Patterns are java.util.regex, compiled here once.
 *
 * <p>Threads: immutable; {@link #create} is called on the configuring thread.
 */
public record RegexParserConfig(
        @Option(doc = "Name for the parser's counters (type=Parser,name=...); default <chain>.regex.",
                defaultValue = Option.NONE)
        String name,
        @Option(doc = "Prepended to every group name.", defaultValue = "\"\"")
        String prefix,
        @Option(doc = "What to parse: ${MSG} or any template (syslog-ng template()).", defaultValue = "\"${MSG}\"")
        String template,
        @Option(doc = "Java regular expressions, tried in order; the first that matches (anywhere in the input, "
                + "anchor with ^ and $) writes its named groups (?<name>...) as <prefix>name. No match is a "
                + "parse failure.", defaultValue = Option.REQUIRED)
        List<String> patterns,
        @Option(doc = "Any of ignore-case (case-insensitive, Unicode-aware), drop-invalid (a message that fails "
                + "is also discarded).", defaultValue = "[]")
        List<String> flags,
        @Option(doc = "Matching budget: a match may read at most this many characters per input character "
                + "(at least 100000 in all); past it (catastrophic backtracking) the parse fails and "
                + "stepLimitExceeded counts it.", defaultValue = "1000")
        Integer maxStepsPerChar) implements ParserConfig {

    /** The flags, syslog-ng's names. */
    public static final List<String> FLAGS = List.of("ignore-case", "drop-invalid");

    public RegexParserConfig {
        if (patterns != null) {
            if (patterns.isEmpty()) {
                throw new IllegalArgumentException("patterns: give at least one regular expression");
            }
            compileAll(patterns, flags == null ? List.of() : flags);
        }
        if (flags != null) {
            for (String f : flags) {
                if (!FLAGS.contains(f)) {
                    throw new IllegalArgumentException("flags: unknown '" + f + "' (any of " + FLAGS + ")");
                }
            }
        }
        if (maxStepsPerChar != null && maxStepsPerChar < 1) {
            throw new IllegalArgumentException("max-steps-per-char must be >= 1, got " + maxStepsPerChar);
        }
        if (template != null && template.isEmpty()) {
            throw new IllegalArgumentException("template must not be empty (use \"${MSG}\" for the message)");
        }
    }

    /** A config with the defaults and the given patterns, for tests and benchmarks. */
    public static RegexParserConfig of(String... patterns) {
        return new RegexParserConfig(null, "", FieldParser.MSG_INPUT, List.of(patterns), List.of(), 1000);
    }

    /**
     * Compiles every pattern; a bad one is an {@link IllegalArgumentException} naming the pattern and carrying
     * Java's description of the error.
     */
    static List<Pattern> compileAll(List<String> patterns, List<String> flags) {
        int f = flags.contains("ignore-case") ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0;
        List<Pattern> out = new ArrayList<>();
        for (int i = 0; i < patterns.size(); i++) {
            String p = patterns.get(i);
            if (p == null || p.isEmpty()) {
                throw new IllegalArgumentException("patterns[" + i + "]: a pattern cannot be empty");
            }
            try {
                out.add(Pattern.compile(p, f));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("patterns[" + i + "]: bad regular expression '" + p + "': "
                        + e.getMessage(), e);
            }
        }
        return out;
    }

    @Override
    public EventParser create(ParseContext ctx) {
        return new RegexParser(this, ctx);
    }
}
