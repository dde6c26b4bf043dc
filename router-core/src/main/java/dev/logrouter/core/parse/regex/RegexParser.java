package dev.logrouter.core.parse.regex;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.parse.FieldParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.template.ByteBuilder;

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
 * {@link CharSequence} on the input bytes: ASCII input is read in place (one byte, one char); input with
 * other bytes is decoded from UTF-8 once into a reused char buffer (malformed bytes become U+FFFD).
 *
 * <p>Backtracking is bounded: every character the regex engine reads costs one step, and a match attempt may
 * take at most {@code max(100000, length × max-steps-per-char)} steps. Past the budget the attempt is
 * abandoned and the whole parse fails (later patterns are not tried), counted in {@code stepLimitExceeded}
 * besides {@code failed}. A regex that overflows the stack fails the same way.
 *
 * <p>Allocation: none per message.
 *
 * <p>Threads: one instance per parse worker, called by that worker only.
 */
public final class RegexParser extends FieldParser {

    /** The least step budget of one match attempt, whatever the input length. */
    static final long MIN_STEPS = 100_000;

    private final Matcher[] matchers;
    private final String[][] groups;
    private final byte[][][] groupNames;
    private final BoundedInput input = new BoundedInput();
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
            matchers[i] = patterns.get(i).matcher(input);
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
        boolean ok;
        try {
            ok = match(in, off, len);
        } catch (StepLimitExceeded e) {
            stepLimitExceeded.inc();
            ok = false;
        } catch (StackOverflowError e) {
            ok = false;
        }
        if (!ok && dropInvalid) {
            event.addFlag(LogEvent.FLAG_DISCARD);
        }
        return ok;
    }

    private boolean match(byte[] in, int off, int len) {
        BoundedInput text = input;
        text.set(in, off, len, Math.max(MIN_STEPS, len * stepsPerChar));
        for (int p = 0; p < matchers.length; p++) {
            Matcher m = matchers[p];
            text.resetSteps();
            m.reset(text);
            if (m.find()) {
                write(p, m, text);
                return true;
            }
        }
        return false;
    }

    private void write(int p, Matcher m, BoundedInput text) {
        String[] names = groups[p];
        ByteBuilder name = out.name();
        int base = name.length();
        for (int g = 0; g < names.length; g++) {
            int s = m.start(names[g]);
            if (s < 0) {
                continue;
            }
            int e = m.end(names[g]);
            name.append(groupNames[p][g]);
            if (text.ascii) {
                out.set(text.bytes, text.off + s, e - s);
            } else {
                out.setUtf8(text.chars, s, e - s);
            }
            name.setLength(base);
        }
    }

    /** Thrown by {@link BoundedInput#charAt} past the budget; preallocated, without a stack trace. */
    private static final class StepLimitExceeded extends RuntimeException {
        static final StepLimitExceeded INSTANCE = new StepLimitExceeded();

        private StepLimitExceeded() {
            super("regex step budget exceeded", null, false, false);
        }
    }

    /**
     * The input as a CharSequence that counts the characters the regex engine reads and throws
     * {@link StepLimitExceeded} past a budget. (Private for now; a shared {@code BoundedCharSequence} in
     * {@code core.util} is to replace it.)
     */
    private static final class BoundedInput implements CharSequence {
        byte[] bytes;
        int off;
        int len;
        boolean ascii;
        char[] chars = new char[256];
        private long budget;
        private long steps;

        void set(byte[] in, int from, int n, long budget) {
            this.bytes = in;
            this.off = from;
            this.budget = budget;
            boolean onlyAscii = true;
            for (int i = from, end = from + n; i < end; i++) {
                if (in[i] < 0) {
                    onlyAscii = false;
                    break;
                }
            }
            ascii = onlyAscii;
            len = onlyAscii ? n : decode(in, from, n);
        }

        void resetSteps() {
            steps = 0;
        }

        /** UTF-8 to UTF-16 into {@link #chars}; returns the number of chars. Malformed bytes become U+FFFD. */
        private int decode(byte[] in, int from, int n) {
            if (chars.length < n) {
                chars = new char[Math.max(n, chars.length * 2)];
            }
            char[] c = chars;
            int o = 0;
            int i = from;
            int end = from + n;
            while (i < end) {
                int b = in[i] & 0xFF;
                if (b < 0x80) {
                    c[o++] = (char) b;
                    i++;
                    continue;
                }
                int need;
                int cp;
                int min;
                if (b >= 0xC2 && b <= 0xDF) {
                    need = 1;
                    cp = b & 0x1F;
                    min = 0x80;
                } else if (b >= 0xE0 && b <= 0xEF) {
                    need = 2;
                    cp = b & 0x0F;
                    min = 0x800;
                } else if (b >= 0xF0 && b <= 0xF4) {
                    need = 3;
                    cp = b & 0x07;
                    min = 0x10000;
                } else {
                    c[o++] = '\uFFFD';
                    i++;
                    continue;
                }
                int j = i + 1;
                while (need > 0 && j < end && (in[j] & 0xC0) == 0x80) {
                    cp = (cp << 6) | (in[j] & 0x3F);
                    j++;
                    need--;
                }
                if (need > 0 || cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                    c[o++] = '\uFFFD';
                    i = Math.max(i + 1, need > 0 ? j : i + 1);
                    continue;
                }
                if (cp >= 0x10000) {
                    c[o++] = Character.highSurrogate(cp);
                    c[o++] = Character.lowSurrogate(cp);
                } else {
                    c[o++] = (char) cp;
                }
                i = j;
            }
            return o;
        }

        @Override
        public int length() {
            return len;
        }

        @Override
        public char charAt(int index) {
            if (++steps > budget) {
                throw StepLimitExceeded.INSTANCE;
            }
            return ascii ? (char) bytes[off + index] : chars[index];
        }

        /** Cold path (Matcher.group, toString), never used by the parser. */
        @Override
        public CharSequence subSequence(int start, int end) {
            return toString().substring(start, end);
        }

        @Override
        public String toString() {
            return ascii ? new String(bytes, off, len, StandardCharsets.US_ASCII) : new String(chars, 0, len);
        }
    }
}
