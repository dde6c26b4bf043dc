package dev.logrouter.core.template;

import dev.logrouter.core.event.EventContext;
import dev.logrouter.core.event.LogEvent;

/**
 * {@code $(context-length)}: the number of messages in the context the template is evaluated over (see
 * {@link EventContext}); 1 for an event without context, which is its own one-message context. Arguments are
 * ignored, as in syslog-ng.
 *
 * <p>Threads: stateless; {@link #copy()} returns this instance.
 */
final class ContextLength implements TemplateFunction {

    static final String NAME = "context-length";

    @Override
    public void render(LogEvent e, ByteBuilder out) {
        EventContext c = e.context();
        out.appendDecimal(c == null ? 1 : c.size());
    }

    @Override
    public TemplateFunction copy() {
        return this;
    }
}
