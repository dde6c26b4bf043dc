package dev.logrouter.core.rewrite;

import dev.logrouter.core.event.EventField;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Template;
import dev.logrouter.core.util.BoundedCharSequence;
import dev.logrouter.core.util.Utf8CharSequence;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces the first or every match of a pattern in one field ({@link SubstConfig}).
 *
 * <p>The field's UTF-8 bytes are decoded into a reused {@link Utf8CharSequence} (an invalid byte becomes U+FFFD)
 * that keeps the byte offset of every char, so that unmatched text and groups are copied back byte for byte
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
    /** Offset and length of the field's value, from {@link EventField#read}. */
    private final int[] span = new int[2];
    private final Matcher matcher;
    private final boolean global;
    /** Replacement parts: a group number, or -1 for the template at the same index. */
    private final int[] partGroup;
    private final Template[] partTemplate;
    private final Utf8CharSequence input = Utf8CharSequence.withByteOffsets();
    private final BoundedCharSequence bounded = new BoundedCharSequence();
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
        byte[] a = field.read(event, span);
        if (a == null) {
            return;
        }
        int off = span[0];
        int len = span[1];
        Utf8CharSequence in = input.reset(a, off, len);
        bounded.reset(in);
        Matcher m = matcher;
        m.reset(bounded);
        out.reset();
        int copied = 0;
        boolean matched = false;
        BoundedCharSequence.Outcome found;
        while ((found = bounded.find(m)) == BoundedCharSequence.Outcome.MATCH) {
            matched = true;
            int start = m.start();
            out.append(a, off + in.byteOffset(copied), in.byteOffset(start) - in.byteOffset(copied));
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
        out.append(a, off + in.byteOffset(copied), len - in.byteOffset(copied));
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
                    int from = input.byteOffset(s);
                    out.append(a, off + from, input.byteOffset(m.end(g)) - from);
                }
            }
        }
    }
}
