package dev.logrouter.core.route;

import dev.logrouter.core.option.Option;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.parse.ParserConfig;

/** Test step type {@code fail}: a step with a bug, which throws on every message. */
public record FailingStepConfig(
        @Option(doc = "Step name.", defaultValue = Option.NONE)
        String name) implements ParserConfig {

    @Override
    public EventParser create(ParseContext ctx) {
        return event -> {
            throw new IllegalStateException("a step with a bug");
        };
    }
}
