package dev.logrouter.patterndb;

import dev.logrouter.core.config.ComponentProvider;
import dev.logrouter.core.config.ComponentRegistry;
import dev.logrouter.patterndb.stage.PatternDbConfig;
import dev.logrouter.patterndb.stage.PatternDbParserConfig;

/**
 * PatternDB: the {@code patterndb} parser step and the top-level {@code patterndb:} section. Listed in {@code META-INF/services/dev.logrouter.core.config.ComponentProvider}.
 *
 * <p>Threads: stateless.
 */
public final class PatternDbComponents implements ComponentProvider {

    @Override
    public int order() {
        return 20;
    }

    @Override
    public void register(ComponentRegistry registry) {
        registry.step("patterndb", PatternDbParserConfig.class)
                .section(PatternDbConfig.KEY, PatternDbConfig.class, "The PatternDB rulesets that patterndb parser "
                        + "steps classify against, and correlation options.");
    }
}
