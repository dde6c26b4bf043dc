package dev.logrouter.core.template;

import dev.logrouter.core.event.EventContext;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.SingleEventContext;

import java.time.ZoneId;
import java.util.List;
import java.util.function.Predicate;

/**
 * syslog-ng's {@code $(grep [-m N] (FILTER) TEMPLATE...)} and {@code $(context-lookup [-m N] (FILTER)
 * TEMPLATE...)}: walks the messages of the context (see {@link EventContext}) oldest first, tests FILTER on each
 * message alone and, for each that matches, renders every TEMPLATE on that message alone; the results are joined
 * with commas. {@code -m N} / {@code --max-count N} / {@code --max-count=N} stops after N matching messages
 * (0 = all). {@code grep} writes the values as they are; {@code context-lookup} writes each as a list element
 * ({@link ListEncoding}). {@code $(context-values TEMPLATE...)} is {@code context-lookup} without a filter: every
 * message. Without a context the event is the only message.
 *
 * <p>Each message is presented to the filter and templates as a one-message context whose id is the enclosing
 * context's (syslog-ng passes the context id down); its own context is restored afterwards.
 *
 * <p>Threads: an instance owns its filter, templates and scratch and belongs to one thread ({@link #copy()}).
 */
final class GrepFunction implements TemplateFunction {

    static final String GREP = "grep";
    static final String CONTEXT_LOOKUP = "context-lookup";
    static final String CONTEXT_VALUES = "context-values";

    private final TemplateCondition condition;
    private final Predicate<LogEvent> filter;
    private final Template[] templates;
    private final int maxCount;
    private final boolean encode;
    private final SingleEventContext single = new SingleEventContext();
    private final ByteBuilder scratch;

    private GrepFunction(TemplateCondition condition, Template[] templates, int maxCount, boolean encode) {
        this.condition = condition;
        this.filter = condition == null ? null : condition.newTest();
        this.templates = templates;
        this.maxCount = maxCount;
        this.encode = encode;
        this.scratch = encode ? new ByteBuilder(64) : null;
    }

    static GrepFunction compile(List<String> args, ZoneId zone, boolean encode) {
        String name = encode ? CONTEXT_LOOKUP : GREP;
        int max = 0;
        int i = 0;
        while (i < args.size() && args.get(i).startsWith("-")) {
            String a = args.get(i);
            String value;
            if (a.equals("-m") || a.equals("--max-count")) {
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException("$(" + name + ") option " + a + " needs a number");
                }
                value = args.get(i + 1);
                i += 2;
            } else if (a.startsWith("--max-count=")) {
                value = a.substring("--max-count=".length());
                i++;
            } else if (a.startsWith("-m") && a.length() > 2) {
                value = a.substring(2);
                i++;
            } else {
                throw new IllegalArgumentException("$(" + name + ") unknown option " + a
                        + ": the only option is -m/--max-count N");
            }
            try {
                max = Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("$(" + name + ") --max-count needs a number, got '" + value + "'");
            }
            if (max < 0) {
                throw new IllegalArgumentException("$(" + name + ") --max-count cannot be negative, got " + max);
            }
        }
        List<String> rest = args.subList(i, args.size());
        if (rest.size() < 2) {
            throw new IllegalArgumentException("$(" + name + ") requires at least two arguments, (FILTER) and a "
                    + "template, got " + rest);
        }
        Template[] ts = new Template[rest.size() - 1];
        for (int k = 1; k < rest.size(); k++) {
            ts[k - 1] = Template.compile(rest.get(k), zone);
        }
        return new GrepFunction(IfFunction.compileCondition(name, rest.get(0), zone), ts, max, encode);
    }

    /** {@code $(context-values TEMPLATE...)}: every template on every message, as list elements. */
    static GrepFunction compileContextValues(List<String> args, ZoneId zone) {
        Template[] ts = new Template[args.size()];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = Template.compile(args.get(i), zone);
        }
        return new GrepFunction(null, ts, 0, true);
    }

    @Override
    public void render(LogEvent e, ByteBuilder out) {
        EventContext ctx = e.context();
        int n = ctx == null ? 1 : ctx.size();
        boolean first = true;
        int count = 0;
        for (int back = n - 1; back >= 0; back--) {
            LogEvent m = ctx == null ? e : ctx.back(back);
            single.enter(m, ctx);
            try {
                if (filter != null && !filter.test(m)) {
                    continue;
                }
                count++;
                for (Template t : templates) {
                    if (!first) {
                        out.append((byte) ',');
                    }
                    first = false;
                    if (encode) {
                        scratch.reset();
                        t.render(m, scratch);
                        ListEncoding.appendElement(out, scratch.array(), 0, scratch.length());
                    } else {
                        t.render(m, out);
                    }
                }
            } finally {
                single.exit();
            }
            if (maxCount > 0 && count >= maxCount) {
                break;
            }
        }
    }

    @Override
    public TemplateFunction copy() {
        Template[] ts = new Template[templates.length];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = templates[i].copy();
        }
        return new GrepFunction(condition, ts, maxCount, encode);
    }
}
