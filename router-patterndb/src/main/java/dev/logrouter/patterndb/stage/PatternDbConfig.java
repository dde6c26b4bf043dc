package dev.logrouter.patterndb.stage;

import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;

import java.util.List;

/**
 * The router-wide PatternDB ({@code patterndb:}): the ruleset files every {@code patterndb} parser step
 * classifies against, and the options of the correlation stage.
 *
 * <p>Threads: immutable, any thread.
 */
public record PatternDbConfig(
        @Option(doc = "Ruleset files (syslog-ng patterndb XML, v2-v5), directories (every *.xml and *.pdb "
                + "below, sorted, like pdbtool merge -r -s) or globs, loaded in this order and merged as "
                + "syslog-ng merges them. Relative paths are resolved against the working directory.",
                defaultValue = "[]")
        List<String> files,
        @Option(doc = "Most correlation contexts alive at once; a message that would open one more is "
                + "classified and delivered but not correlated (counted as contextsRefused).",
                defaultValue = "100000")
        Integer maxContexts,
        @Option(doc = "How often the idle correlation clock advances by wall-clock time (syslog-ng ticks "
                + "every second); contexts expire on message time otherwise.", defaultValue = "1s")
        TimeSpan tick,
        @Option(doc = "On a clean stop, expire every open context (running its timeout actions) and deliver "
                + "what they generate, as pdbtool does at the end of its input. syslog-ng's daemon keeps them "
                + "in its persist file instead; logrouter keeps no correlation state across restarts.",
                defaultValue = "true")
        Boolean expireOnStop) {

    /** The top-level key of this section. */
    public static final String KEY = "patterndb";

    /** This section of {@code cfg} (its defaults when the file has none). */
    public static PatternDbConfig of(RouterConfig cfg) {
        return cfg.section(KEY, PatternDbConfig.class);
    }

    public PatternDbConfig {
        if (maxContexts != null && maxContexts < 1) {
            throw new IllegalArgumentException("max-contexts must be >= 1, got " + maxContexts);
        }
        if (tick != null && tick.millis() < 1000) {
            // the correlation clock has whole seconds; faster carriers would also starve the sinks' idle ticks
            throw new IllegalArgumentException("tick must be at least 1s, got " + tick);
        }
    }
}
