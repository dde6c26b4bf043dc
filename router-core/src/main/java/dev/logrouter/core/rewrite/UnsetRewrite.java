package dev.logrouter.core.rewrite;

import dev.logrouter.core.event.EventField;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;

/**
 * Removes one field ({@link UnsetConfig}); counts the messages that had it.
 *
 * <p>Threads: one instance per parse worker, called by that worker only.
 */
final class UnsetRewrite implements EventParser {

    private final EventField field;
    private final Counter applied;

    UnsetRewrite(EventField field, ParseContext ctx) {
        this.field = field;
        this.applied = ctx.metrics().counter("applied", "Messages a rewrite rule changed.");
    }

    @Override
    public void parse(LogEvent event) {
        if (field.unset(event)) {
            applied.inc();
        }
    }
}
