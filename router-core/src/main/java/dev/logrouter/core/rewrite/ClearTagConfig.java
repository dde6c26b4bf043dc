package dev.logrouter.core.rewrite;

import dev.logrouter.core.event.Tags;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;

/**
 * {@code type: clear-tag}: removes a tag from the message, like syslog-ng's
 * {@code rewrite { clear-tag("name"); }} (for instance a parser's {@code .parse.json.failed} once handled).
 *
 * <p>Threads: immutable.
 */
public record ClearTagConfig(
        @Option(doc = "Step name for its counters; default <chain>.clear-tag.", defaultValue = Option.NONE)
        String name,
        @Option(doc = "Tag to remove.", defaultValue = Option.REQUIRED)
        String tag) implements RewriteConfig {

    public ClearTagConfig {
        if (tag != null && tag.isEmpty()) {
            throw new IllegalArgumentException("tag must not be empty");
        }
    }

    @Override
    public EventParser create(ParseContext ctx) {
        return new TagRewrite(Tags.id(tag), false, ctx);
    }
}
