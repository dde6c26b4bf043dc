package dev.logrouter.core.rewrite;

import dev.logrouter.core.event.EventField;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.template.Template;

/**
 * {@code type: set}: sets a field to the output of a template, like syslog-ng's
 * {@code rewrite { set("template" value("field")); }}.
 *
 * <p>Threads: immutable.
 */
public record SetConfig(
        @Option(doc = "Step name for its counters; default <chain>.set.", defaultValue = Option.NONE)
        String name,
        @Option(doc = "Field to set: HOST, PROGRAM, PID, MSGID, MSG (or MESSAGE), or any name-value field such as "
                + ".SDATA.meta.region or my.field.", defaultValue = Option.REQUIRED)
        String field,
        @Option(doc = "Template of the new value, e.g. \"${HOST}.example.com\"; it may read the field it writes.",
                defaultValue = Option.REQUIRED)
        String value) implements RewriteConfig {

    public SetConfig {
        if (field != null && field.isEmpty()) {
            throw new IllegalArgumentException("field must not be empty");
        }
    }

    @Override
    public EventParser create(ParseContext ctx) {
        return new SetRewrite(EventField.of(field), Template.compile(value, ctx.zone()), ctx);
    }
}
