package dev.logrouter.core.parse.csv;

import dev.logrouter.core.option.Option;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.FieldParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.parse.ParserConfig;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code type: csv}: splits the input into named columns, like syslog-ng's {@code csv-parser()}.
 *
 * <p>Threads: immutable; {@link #create} is called on the configuring thread.
 */
public record CsvParserConfig(
        @Option(doc = "Name for the parser's counters (type=Parser,name=...); default <chain>.csv.",
                defaultValue = Option.NONE)
        String name,
        @Option(doc = "Prepended to every column name.", defaultValue = "\"\"")
        String prefix,
        @Option(doc = "What to parse: ${MSG} or any template (syslog-ng template()).", defaultValue = "\"${MSG}\"")
        String template,
        @Option(doc = "The column names, in input order; the field of column c is <prefix>c.",
                defaultValue = Option.REQUIRED)
        List<String> columns,
        @Option(doc = "Single-byte delimiters: each character of the string separates columns (ASCII only).",
                defaultValue = "\",\"")
        String delimiters,
        @Option(doc = "Multi-character delimiters, tried before the single-character ones.", defaultValue = "[]")
        List<String> stringDelimiters,
        @Option(doc = "Pairs of opening and closing quote characters: \"\"'' means \"...\" or '...'. A quote opens "
                + "only at the start of a column.", defaultValue = "\"\\\"\\\"''\"")
        String quotePairs,
        @Option(doc = "Escaping inside quotes: escape-none, escape-backslash, escape-backslash-with-sequences "
                + "(\\n \\t \\r \\a \\v \\xHH) or escape-double-char (\"\" stands for \").",
                defaultValue = "escape-none")
        String dialect,
        @Option(doc = "Any of greedy (the last column takes the rest of the input verbatim), strip-whitespace "
                + "(spaces and tabs around values), drop-invalid (a column count other than the number of "
                + "names is a parse failure and the message is discarded). Giving flags replaces the default.",
                defaultValue = "[strip-whitespace]")
        List<String> flags,
        @Option(doc = "A value that stands for an empty column (e.g. NULL or -).", defaultValue = Option.NONE)
        String nullValue) implements ParserConfig {

    /** The dialects, syslog-ng's names. */
    public static final List<String> DIALECTS = List.of("escape-none", "escape-backslash",
            "escape-backslash-with-sequences", "escape-double-char");
    /** The flags, syslog-ng's names; an escape-* flag sets the dialect as in syslog-ng. */
    public static final List<String> FLAGS = List.of("greedy", "strip-whitespace", "drop-invalid",
            "escape-none", "escape-backslash", "escape-double-char");

    public CsvParserConfig {
        if (columns != null) {
            if (columns.isEmpty()) {
                throw new IllegalArgumentException("columns: give at least one column name");
            }
            Set<String> seen = new HashSet<>();
            for (String c : columns) {
                if (c == null || c.isEmpty()) {
                    throw new IllegalArgumentException("columns: a column name cannot be empty");
                }
                if (!seen.add(c)) {
                    throw new IllegalArgumentException("columns: '" + c + "' is given twice");
                }
            }
        }
        if (delimiters != null) {
            for (int i = 0; i < delimiters.length(); i++) {
                if (delimiters.charAt(i) > 0x7F) {
                    throw new IllegalArgumentException("delimiters: '" + delimiters.charAt(i)
                            + "' is not ASCII; give it in string-delimiters instead");
                }
            }
        }
        if (stringDelimiters != null) {
            for (String s : stringDelimiters) {
                if (s == null || s.isEmpty()) {
                    throw new IllegalArgumentException("string-delimiters: a delimiter cannot be empty");
                }
            }
        }
        if (delimiters != null && delimiters.isEmpty() && stringDelimiters != null && stringDelimiters.isEmpty()) {
            throw new IllegalArgumentException("delimiters: give at least one delimiter (or string-delimiters)");
        }
        if (quotePairs != null) {
            if (quotePairs.length() % 2 != 0) {
                throw new IllegalArgumentException("quote-pairs: give pairs of an opening and a closing character, got "
                        + quotePairs.length() + " characters in '" + quotePairs + "'");
            }
            for (int i = 0; i < quotePairs.length(); i++) {
                if (quotePairs.charAt(i) > 0x7F) {
                    throw new IllegalArgumentException("quote-pairs: '" + quotePairs.charAt(i) + "' is not ASCII");
                }
            }
        }
        if (dialect != null && !DIALECTS.contains(dialect)) {
            throw new IllegalArgumentException("dialect: unknown '" + dialect + "' (one of " + DIALECTS + ")");
        }
        if (flags != null) {
            for (String f : flags) {
                if (!FLAGS.contains(f)) {
                    throw new IllegalArgumentException("flags: unknown '" + f + "' (any of " + FLAGS + ")");
                }
            }
        }
        if (template != null && template.isEmpty()) {
            throw new IllegalArgumentException("template must not be empty (use \"${MSG}\" for the message)");
        }
    }

    /** A config with the defaults and the given columns, for tests and benchmarks. */
    public static CsvParserConfig of(List<String> columns) {
        return new CsvParserConfig(null, "", FieldParser.MSG_INPUT, columns, ",", List.of(), "\"\"''",
                "escape-none", List.of("strip-whitespace"), null);
    }

    /** The dialect in effect: an escape-* flag wins over {@code dialect}, as in syslog-ng. */
    String effectiveDialect() {
        String d = dialect;
        for (String f : flags) {
            if (f.startsWith("escape-")) {
                d = f;
            }
        }
        return d;
    }

    @Override
    public EventParser create(ParseContext ctx) {
        return new CsvParser(this, ctx);
    }
}
