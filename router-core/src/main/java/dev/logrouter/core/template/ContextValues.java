package dev.logrouter.core.template;

import dev.logrouter.core.event.EventContext;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.SingleEventContext;

import java.time.ZoneId;
import java.util.List;

/**
 * syslog-ng's {@code $(context-values TEMPLATE...)}: every TEMPLATE rendered on every message of the context
 * (see {@link EventContext}), oldest message first, each result written as a list element ({@link ListEncoding})
 * and joined with commas. Without a context the event is the only message.
 *
 * <p>Threads: an instance owns its templates and scratch and belongs to one thread ({@link #copy()}).
 */
final class ContextValues implements TemplateFunction {

    static final String NAME = "context-values";

    private final Template[] templates;
    private final SingleEventContext single = new SingleEventContext();
    private final ByteBuilder scratch = new ByteBuilder(64);

    private ContextValues(Template[] templates) {
        this.templates = templates;
    }

    static ContextValues compile(List<String> args, ZoneId zone) {
        Template[] ts = new Template[args.size()];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = Template.compile(args.get(i), zone);
        }
        return new ContextValues(ts);
    }

    @Override
    public void render(LogEvent e, ByteBuilder out) {
        EventContext ctx = e.context();
        int n = ctx == null ? 1 : ctx.size();
        boolean first = true;
        for (int back = n - 1; back >= 0; back--) {
            LogEvent m = ctx == null ? e : ctx.back(back);
            EventContext saved = m.context();
            m.setContext(single.reset(m, ctx));
            try {
                for (Template t : templates) {
                    if (!first) {
                        out.append((byte) ',');
                    }
                    first = false;
                    scratch.reset();
                    t.render(m, scratch);
                    ListEncoding.appendElement(out, scratch.array(), 0, scratch.length());
                }
            } finally {
                m.setContext(saved);
            }
        }
    }

    @Override
    public TemplateFunction copy() {
        Template[] ts = new Template[templates.length];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = templates[i].copy();
        }
        return new ContextValues(ts);
    }
}
