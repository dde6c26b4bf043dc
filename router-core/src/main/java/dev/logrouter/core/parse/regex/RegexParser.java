package dev.logrouter.core.parse.regex;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.parse.FieldParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.util.BoundedCharSequence;
import dev.logrouter.core.util.Latin1CharSequence;
import dev.logrouter.core.util.Utf8CharSequence;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code regex} parser: tries the patterns in order with {@link Matcher#find()} and writes the named groups
 * of the first that matches as {@code <prefix><group>}; groups that did not take part in the match write
 * nothing. No match is a parse failure.
 *
 * <p>The matchers are created once and {@link Matcher#reset(CharSequence) reset} per message over a reused
 * view of the input bytes: ASCII input is read in place ({@link Latin1CharSequence}, one byte, one char); input
 * with other bytes is decoded from UTF-8 once ({@link Utf8CharSequence}: malformed bytes become U+FFFD).
 *
 * <p>Backtracking is bounded: the matcher reads the view through a {@link BoundedCharSequence}, where every
 * character the regex engine reads costs one step, and a match attempt may take at most
 * {@code max(100000, length in bytes × max-steps-per-char)} steps. Past the budget the attempt is abandoned and
 * the whole parse fails (later patterns are not tried), counted in {@code stepLimitExceeded} besides
 * {@code failed}. A regex that overflows the stack fails the same way but is not counted in
 * {@code stepLimitExceeded}.
 *
 * <p>Allocation: none per message.
 *
 * <p>Threads: one instance per parse worker, called by that worker only.
 */
public final class RegexParser extends FieldParser {

    private final Matcher[] matchers;
    private final String[][] groups;
    private final byte[][][] groupNames;
    private final Latin1CharSequence ascii = new Latin1CharSequence();
    private final Utf8CharSequence decoded = new Utf8CharSequence();
    private final BoundedCharSequence bounded = new BoundedCharSequence();
    private final long stepsPerChar;
    private final boolean dropInvalid;
    private final Counter stepLimitExceeded;

    RegexParser(RegexParserConfig cfg, ParseContext ctx) {
        super(cfg.prefix(), cfg.template(), ctx);
        List<Pattern> patterns = RegexParserConfig.compileAll(cfg.patterns(), cfg.flags());
        matchers = new Matcher[patterns.size()];
        groups = new String[patterns.size()][];
        groupNames = new byte[patterns.size()][][];
        for (int i = 0; i < matchers.length; i++) {
            matchers[i] = patterns.get(i).matcher("");
            groups[i] = NamedGroups.of(patterns.get(i)).toArray(new String[0]);
            groupNames[i] = new byte[groups[i].length][];
            for (int g = 0; g < groups[i].length; g++) {
                groupNames[i][g] = groups[i][g].getBytes(StandardCharsets.UTF_8);
            }
        }
        stepsPerChar = cfg.maxStepsPerChar();
        dropInvalid = cfg.flags().contains("drop-invalid");
        stepLimitExceeded = ctx.metrics().counter("stepLimitExceeded",
                "Messages a regex parser gave up on because matching exceeded its step budget "
                        + "(catastrophic backtracking); also counted in failed.");
    }

    @Override
    protected boolean parse(byte[] in, int off, int len, LogEvent event) {
        boolean ok = match(in, off, len);
        if (!ok && dropInvalid) {
            event.addFlag(LogEvent.FLAG_DISCARD);
        }
        return ok;
    }

    private boolean match(byte[] in, int off, int len) {
        boolean onlyAscii = isAscii(in, off, len);
        CharSequence view = onlyAscii ? ascii.reset(in, off, len) : decoded.reset(in, off, len);
        long budget = Math.max(BoundedCharSequence.BASE_STEPS, len * stepsPerChar);
        for (int p = 0; p < matchers.length; p++) {
            Matcher m = matchers[p];
            m.reset(bounded.reset(view, budget));
            BoundedCharSequence.Outcome found = bounded.find(m);
            if (found == BoundedCharSequence.Outcome.MATCH) {
                write(p, m, in, off, onlyAscii);
                return true;
            }
            if (found == BoundedCharSequence.Outcome.BUDGET_EXCEEDED) {
                if (bounded.budgetSpent()) {
                    stepLimitExceeded.inc();
                }
                return false;
            }
        }
        return false;
    }

    private static boolean isAscii(byte[] in, int off, int len) {
        for (int i = off, end = off + len; i < end; i++) {
            if (in[i] < 0) {
                return false;
            }
        }
        return true;
    }

    private void write(int p, Matcher m, byte[] in, int off, boolean onlyAscii) {
        String[] names = groups[p];
        ByteBuilder name = out.name();
        int base = name.length();
        for (int g = 0; g < names.length; g++) {
            int s = m.start(names[g]);
            if (s < 0) {
                continue;
            }
            int e = m.end(names[g]);
            byte[] seg = groupNames[p][g];
            if (onlyAscii) {
                out.set(seg, 0, seg.length, in, off + s, e - s);
            } else {
                name.append(seg);
                out.setUtf8(decoded, s, e - s);
                name.setLength(base);
            }
        }
    }
}
