package dev.logrouter.core.rewrite;

import dev.logrouter.core.event.EventField;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Template;

/**
 * Sets one field to a rendered template ({@link SetConfig}). The template is rendered into a scratch buffer
 * before the field is written, so a value that reads the field itself ({@code MSG: "[${HOST}] ${MSG}"})
 * sees the old value.
 *
 * <p>Threads: one instance per parse worker, called by that worker only.
 */
final class SetRewrite implements EventParser {

    private final EventField field;
    private final Template value;
    private final ByteBuilder scratch = new ByteBuilder(256);
    private final Counter applied;

    SetRewrite(EventField field, Template value, ParseContext ctx) {
        this.field = field;
        this.value = value;
        this.applied = ctx.metrics().counter("applied", "Messages a rewrite rule changed.");
    }

    @Override
    public void parse(LogEvent event) {
        scratch.reset();
        value.render(event, scratch);
        field.set(event, scratch.array(), 0, scratch.length());
        applied.inc();
    }
}
