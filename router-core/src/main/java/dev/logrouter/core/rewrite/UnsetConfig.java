package dev.logrouter.core.rewrite;

import dev.logrouter.core.event.EventField;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;

/**
 * {@code type: unset}: removes a field, like syslog-ng's {@code rewrite { unset(value("field")); }}. A header
 * field then renders as nothing.
 *
 * <p>Threads: immutable.
 */
public record UnsetConfig(
        @Option(doc = "Step name for its counters; default <chain>.unset.", defaultValue = Option.NONE)
        String name,
        @Option(doc = "Field to remove: HOST, PROGRAM, PID, MSGID, MSG (or MESSAGE), or a name-value field.",
                defaultValue = Option.REQUIRED)
        String field) implements RewriteConfig {

    public UnsetConfig {
        if (field != null && field.isEmpty()) {
            throw new IllegalArgumentException("field must not be empty");
        }
    }

    @Override
    public EventParser create(ParseContext ctx) {
        return new UnsetRewrite(EventField.of(field), ctx);
    }
}
