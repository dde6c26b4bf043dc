package dev.logrouter.core.rewrite;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Template;
import dev.logrouter.core.util.BoundedCharSequence;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces the first or every match of a pattern in one field ({@link SubstConfig}).
 *
 * <p>The field's UTF-8 bytes are decoded into a reused char buffer (an invalid byte becomes U+FFFD) with the
 * byte offset of every char kept beside it, so that unmatched text and groups are copied back byte for byte
 * and bytes the regex could not see as text survive unchanged. The {@link Matcher} is reused; no
 * {@code String} is made per message.
 *
 * <p>Catastrophic backtracking is bounded: the matcher reads the input through a {@link BoundedCharSequence} that gives up
 * after {@link BoundedCharSequence#defaultBudget} char reads (1000 × length + 100000); the field is then left as it
 * was and {@code aborted} counts the message.
 *
 * <p>Threads: one instance per parse worker, called by that worker only.
 */
final class SubstRewrite implements EventParser {


    private final EventField field;
    private final Matcher matcher;
    private final boolean global;
    /** Replacement parts: a group number, or -1 for the template at the same index. */
    private final int[] partGroup;
    private final Template[] partTemplate;
    private final DecodedChars input = new DecodedChars();
    private final BoundedCharSequence bounded = new BoundedCharSequence();
    private int[] byteAt = new int[256];
    private final ByteBuilder out = new ByteBuilder(512);
    private final Counter applied;
    private final Counter aborted;

    SubstRewrite(EventField field, Pattern pattern, String replacement, boolean global, ParseContext ctx) {
        this.field = field;
        this.matcher = pattern.matcher("");
        this.global = global;
        List<Integer> groups = new ArrayList<>();
        List<Template> templates = new ArrayList<>();
        splitReplacement(replacement, ctx, groups, templates);
        int max = matcher.groupCount();
        this.partGroup = new int[groups.size()];
        for (int i = 0; i < partGroup.length; i++) {
            partGroup[i] = groups.get(i);
            if (partGroup[i] > max) {
                throw new IllegalArgumentException("replacement refers to group $" + partGroup[i] + " but the pattern "
                        + "has " + max + " group" + (max == 1 ? "" : "s"));
            }
        }
        this.partTemplate = templates.toArray(new Template[0]);
        this.applied = ctx.metrics().counter("applied", "Messages a rewrite rule changed.");
        this.aborted = ctx.metrics().counter("aborted",
                "Messages subst left unchanged because matching took too many steps (catastrophic backtracking).");
    }

    /** Splits a replacement into group references ($N, ${N}) and template text between them. */
    private static void splitReplacement(String r, ParseContext ctx, List<Integer> groups, List<Template> templates) {
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < r.length()) {
            char c = r.charAt(i);
            if (c != '$' || i + 1 >= r.length()) {
                text.append(c);
                i++;
                continue;
            }
            char next = r.charAt(i + 1);
            boolean braced = next == '{';
            int from = braced ? i + 2 : i + 1;
            int digitsEnd = from;
            while (digitsEnd < r.length() && Character.isDigit(r.charAt(digitsEnd))) {
                digitsEnd++;
            }
            boolean group = digitsEnd > from && (!braced || (digitsEnd < r.length() && r.charAt(digitsEnd) == '}'));
            if (group) {
                flushText(text, ctx, groups, templates);
                groups.add(Integer.parseInt(r.substring(from, digitsEnd)));
                templates.add(null);
                i = braced ? digitsEnd + 1 : digitsEnd;
            } else if (next == '$') {
                text.append("$$");
                i += 2;
            } else if (braced || next == '(') {
                int end = closing(r, i + 2, braced ? '{' : '(', braced ? '}' : ')');
                text.append(r, i, end);
                i = end;
            } else {
                text.append(c);
                i++;
            }
        }
        flushText(text, ctx, groups, templates);
    }

    /** Index just past the bracket closing one opened before {@code from}; the end of {@code r} if none. */
    private static int closing(String r, int from, char open, char close) {
        int depth = 0;
        for (int i = from; i < r.length(); i++) {
            char c = r.charAt(i);
            if (c == open) {
                depth++;
            } else if (c == close) {
                if (depth == 0) {
                    return i + 1;
                }
                depth--;
            }
        }
        return r.length();
    }

    private static void flushText(StringBuilder text, ParseContext ctx, List<Integer> groups,
                                  List<Template> templates) {
        if (text.length() > 0) {
            groups.add(-1);
            templates.add(Template.compile(text.toString(), ctx.zone()));
            text.setLength(0);
        }
    }

    @Override
    public void parse(LogEvent event) {
        byte[] a = field.array(event);
        if (a == null) {
            return;
        }
        int off = field.offset(event);
        int len = field.length(event);
        int chars = decode(a, off, len);
        bounded.reset(input, BoundedCharSequence.defaultBudget(chars));
        Matcher m = matcher;
        m.reset(bounded);
        out.reset();
        int copied = 0;
        boolean matched = false;
        BoundedCharSequence.Outcome found;
        while ((found = bounded.find(m)) == BoundedCharSequence.Outcome.MATCH) {
            matched = true;
            int start = m.start();
            out.append(a, off + byteAt[copied], byteAt[start] - byteAt[copied]);
            appendReplacement(event, m, a, off);
            copied = m.end();
            if (!global) {
                break;
            }
        }
        if (found == BoundedCharSequence.Outcome.BUDGET_EXCEEDED) {
            aborted.inc();
            return;
        }
        if (!matched) {
            return;
        }
        out.append(a, off + byteAt[copied], len - byteAt[copied]);
        field.set(event, out.array(), 0, out.length());
        applied.inc();
    }

    private void appendReplacement(LogEvent event, Matcher m, byte[] a, int off) {
        for (int p = 0; p < partGroup.length; p++) {
            int g = partGroup[p];
            if (g < 0) {
                partTemplate[p].render(event, out);
            } else {
                int s = m.start(g);
                if (s >= 0) {
                    out.append(a, off + byteAt[s], byteAt[m.end(g)] - byteAt[s]);
                }
            }
        }
    }

    /**
     * Decodes UTF-8 into {@link #input}'s chars, filling {@link #byteAt} (char index → byte offset from
     * {@code off}, with one entry past the end). Returns the number of chars.
     */
    private int decode(byte[] a, int off, int len) {
        char[] cs = input.ensure(len);
        if (byteAt.length < len + 1) {
            byteAt = new int[Math.max(len + 1, byteAt.length * 2)];
        }
        int n = 0;
        int i = 0;
        while (i < len) {
            int b = a[off + i] & 0xff;
            if (b < 0x80) {
                byteAt[n] = i;
                cs[n++] = (char) b;
                i++;
                continue;
            }
            int seq = utf8Length(a, off + i, off + len);
            if (seq == 0) {
                byteAt[n] = i;
                cs[n++] = '\uFFFD';
                i++;
                continue;
            }
            int cp = b & (seq == 2 ? 0x1f : seq == 3 ? 0x0f : 0x07);
            for (int k = 1; k < seq; k++) {
                cp = (cp << 6) | (a[off + i + k] & 0x3f);
            }
            if (cp >= 0x10000) {
                byteAt[n] = i;
                cs[n++] = Character.highSurrogate(cp);
                byteAt[n] = i;
                cs[n++] = Character.lowSurrogate(cp);
            } else {
                byteAt[n] = i;
                cs[n++] = (char) cp;
            }
            i += seq;
        }
        byteAt[n] = len;
        input.length = n;
        return n;
    }

    /** Length of the well-formed UTF-8 sequence at {@code i} (a non-ASCII lead byte), 0 if malformed. */
    private static int utf8Length(byte[] a, int i, int end) {
        int b = a[i] & 0xff;
        int n;
        int min;
        if (b >= 0xc2 && b <= 0xdf) {
            n = 2;
            min = 0x80;
        } else if (b >= 0xe0 && b <= 0xef) {
            n = 3;
            min = 0x800;
        } else if (b >= 0xf0 && b <= 0xf4) {
            n = 4;
            min = 0x10000;
        } else {
            return 0;
        }
        if (i + n > end) {
            return 0;
        }
        int cp = b & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
        for (int k = 1; k < n; k++) {
            int c = a[i + k] & 0xff;
            if ((c & 0xc0) != 0x80) {
                return 0;
            }
            cp = (cp << 6) | (c & 0x3f);
        }
        return cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? 0 : n;
    }

    /** The decoded field as the matcher sees it (through {@link #bounded}): a reused char buffer. */
    private static final class DecodedChars implements CharSequence {
        private char[] chars = new char[256];
        int length;
        char[] ensure(int n) {
            if (chars.length < n) {
                chars = new char[Math.max(n, chars.length * 2)];
            }
            return chars;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public char charAt(int index) {
            if (index >= length) {
                throw new IndexOutOfBoundsException(index);
            }
            return chars[index];
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new String(chars, start, end - start); // not used on the hot path (no group() calls)
        }

        @Override
        public String toString() {
            return new String(chars, 0, length);
        }
    }
}
