package dev.logrouter.core.rewrite;

import dev.logrouter.core.event.Tags;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;

/**
 * {@code type: set-tag}: adds a tag to the message, like syslog-ng's {@code rewrite { set-tag("name"); }};
 * filters select it with {@code tags("name")} and {@code ${TAGS}} prints it.
 *
 * <p>Threads: immutable.
 */
public record SetTagConfig(
        @Option(doc = "Step name for its counters; default <chain>.set-tag.", defaultValue = Option.NONE)
        String name,
        @Option(doc = "Tag to add.", defaultValue = Option.REQUIRED)
        String tag) implements RewriteConfig {

    public SetTagConfig {
        if (tag != null && tag.isEmpty()) {
            throw new IllegalArgumentException("tag must not be empty");
        }
    }

    @Override
    public EventParser create(ParseContext ctx) {
        return new TagRewrite(Tags.id(tag), true, ctx);
    }
}
