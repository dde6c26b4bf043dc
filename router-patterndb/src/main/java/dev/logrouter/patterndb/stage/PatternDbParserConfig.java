package dev.logrouter.patterndb.stage;

import dev.logrouter.core.option.Option;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.parse.ParserConfig;

/**
 * {@code type: patterndb} — classifies the message against the router's PatternDB ({@code patterndb:}
 * section), like syslog-ng's {@code db-parser()}: sets {@code .classifier.class}, {@code .classifier.rule_id},
 * the pattern's captures, tags and values; messages of correlating rules go on to the correlation stage.
 *
 * <p>Threads: immutable; {@link #create} runs on the configuring thread, once per parse worker.
 */
public record PatternDbParserConfig(
        @Option(doc = "Name for the step's counters; default <chain>.patterndb.", defaultValue = Option.NONE)
        String name) implements ParserConfig {

    @Override
    public EventParser create(ParseContext ctx) {
        PatternDbService service = ctx.service(PatternDbService.class,
                "rulesets: list them under patterndb.files (syslog-ng patterndb XML files or directories)");
        return new PatternDbParser(service, ctx);
    }
}
