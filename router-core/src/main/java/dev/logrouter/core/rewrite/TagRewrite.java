package dev.logrouter.core.rewrite;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;

/**
 * Adds ({@link SetTagConfig}) or removes ({@link ClearTagConfig}) one tag; counts the messages it changed.
 *
 * <p>Threads: one instance per parse worker, called by that worker only.
 */
final class TagRewrite implements EventParser {

    private final int tag;
    private final boolean add;
    private final Counter applied;

    TagRewrite(int tag, boolean add, ParseContext ctx) {
        this.tag = tag;
        this.add = add;
        this.applied = ctx.metrics().counter("applied", "Messages a rewrite rule changed.");
    }

    @Override
    public void parse(LogEvent event) {
        if (add ? event.addTag(tag) : event.removeTag(tag)) {
            applied.inc();
        }
    }
}
