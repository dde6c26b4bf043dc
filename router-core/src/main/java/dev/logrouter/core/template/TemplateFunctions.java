package dev.logrouter.core.template;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * The template functions a template may call, and how a call's text is split into arguments. A call is
 * {@code $(name arg1 arg2 ...)}; arguments are separated by blanks and may be quoted as in syslog-ng:
 * {@code 'single quotes'} keep everything literally, {@code "double quotes"} allow {@code \"} and
 * {@code \\}. A nested {@code ${...}} or {@code $(...)} and a parenthesised group {@code (...)} (the filter
 * argument of {@code $(if)} and {@code $(grep)}) are one argument kept verbatim, quotes included, as syslog-ng
 * keeps them.
 *
 * <p>Functions: {@code format-json} ({@link FormatJson}), {@code format-syslog-rfc5424}
 * ({@link FormatSyslogRfc5424}, a logrouter extension), and syslog-ng's conditional and correlation functions
 * {@code if} ({@link IfFunction}), {@code grep} and {@code context-lookup} ({@link GrepFunction}),
 * {@code context-length} ({@link ContextLength}) and {@code context-values} ({@link GrepFunction}), which
 * read the {@link dev.logrouter.core.event.EventContext} of the event they render.
 *
 * <p>Threads: stateless; called while configuration is compiled.
 */
public final class TemplateFunctions {

    /** Names of the functions, in documentation order. */
    public static final List<String> NAMES = List.of(FormatJson.NAME, FormatSyslogRfc5424.NAME, IfFunction.NAME,
            GrepFunction.GREP, GrepFunction.CONTEXT_LOOKUP, ContextLength.NAME, GrepFunction.CONTEXT_VALUES);

    private TemplateFunctions() {
    }

    /**
     * Compiles the text between {@code $(} and its closing {@code )}. Throws {@link IllegalArgumentException}
     * for an unknown function or bad arguments (the caller adds the column).
     */
    static TemplateFunction compile(String call, ZoneId zone) {
        List<String> args = splitArguments(call);
        if (args.isEmpty()) {
            throw new IllegalArgumentException("empty template function call '$()': name a function, one of "
                    + NAMES);
        }
        String name = args.get(0);
        List<String> rest = args.subList(1, args.size());
        switch (name) {
            case FormatJson.NAME:
                return FormatJson.compile(rest, zone);
            case FormatSyslogRfc5424.NAME:
                return FormatSyslogRfc5424.compile(rest, zone);
            case IfFunction.NAME:
                return IfFunction.compile(rest, zone);
            case GrepFunction.GREP:
                return GrepFunction.compile(rest, zone, false);
            case GrepFunction.CONTEXT_LOOKUP:
                return GrepFunction.compile(rest, zone, true);
            case ContextLength.NAME:
                return new ContextLength();
            case GrepFunction.CONTEXT_VALUES:
                return GrepFunction.compileContextValues(rest, zone);
            default:
                throw new IllegalArgumentException("unknown template function '" + name + "': known functions are "
                        + NAMES);
        }
    }

    /**
     * Index of the {@code )} that closes a call whose arguments start at {@code from}, skipping quoted text and
     * nested parentheses; -1 when there is none.
     */
    static int closingParen(String text, int from) {
        int depth = 0;
        char quote = 0;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == '\\' && quote == '"') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
                continue;
            }
            if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                if (depth == 0) {
                    return i;
                }
                depth--;
            }
        }
        return -1;
    }

    /**
     * Splits a call into its words (the function name first). At the top level quotes are removed and blanks
     * split; inside {@code ${...}}, {@code $(...)} or a bare {@code (...)} everything, quotes included, is kept
     * as written until the group closes.
     */
    static List<String> splitArguments(String call) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        int depth = 0;
        int i = 0;
        while (i < call.length()) {
            char c = call.charAt(i);
            if (c == '\'' || c == '"') {
                int end = closingQuote(call, i);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated " + c + " quote in '$(" + call + ")'");
                }
                if (depth > 0) {
                    word.append(call, i, end + 1);
                } else {
                    for (int k = i + 1; k < end; k++) {
                        char q = call.charAt(k);
                        if (c == '"' && q == '\\' && k + 1 < end
                                && (call.charAt(k + 1) == '"' || call.charAt(k + 1) == '\\')) {
                            q = call.charAt(++k);
                        }
                        word.append(q);
                    }
                }
                inWord = true;
                i = end + 1;
                continue;
            }
            if (c == '$' && i + 1 < call.length() && (call.charAt(i + 1) == '{' || call.charAt(i + 1) == '(')) {
                depth++;
                word.append(c).append(call.charAt(i + 1));
                inWord = true;
                i += 2;
                continue;
            }
            if (c == '(') {
                depth++;
            } else if (depth > 0 && (c == '}' || c == ')')) {
                depth--;
            } else if (depth == 0 && Character.isWhitespace(c)) {
                if (inWord) {
                    out.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
                i++;
                continue;
            }
            word.append(c);
            inWord = true;
            i++;
        }
        if (inWord) {
            out.add(word.toString());
        }
        return out;
    }

    /** Index of the quote closing the one at {@code open} ({@code \"} and {@code \\} skipped in double quotes); -1 if none. */
    private static int closingQuote(String call, int open) {
        char c = call.charAt(open);
        int end = open + 1;
        while (end < call.length() && call.charAt(end) != c) {
            if (c == '"' && call.charAt(end) == '\\' && end + 1 < call.length()) {
                char next = call.charAt(end + 1);
                if (next == '"' || next == '\\') {
                    end++;
                }
            }
            end++;
        }
        return end < call.length() ? end : -1;
    }
}
