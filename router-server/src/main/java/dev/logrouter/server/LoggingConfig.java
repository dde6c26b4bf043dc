package dev.logrouter.server;

import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.option.Option;

/**
 * The router's diagnostics ({@code logging:}): their level, applied by {@link Logging#configure} unless the command
 * line gave {@code --log-level}.
 *
 * <p>Threads: immutable, any thread.
 */
public record LoggingConfig(
        @Option(doc = "Level of the router's own diagnostics on stderr: error, warn, info, debug or trace. The "
                + "libraries (Kafka, Hadoop, Elasticsearch client, Netty) log warnings and errors (errors only with "
                + "error). Not set: info, or what -Dorg.slf4j.simpleLogger.* system properties say. run "
                + "--log-level overrides it.", defaultValue = Option.NONE)
        String level) {

    /** The top-level key of this section. */
    public static final String KEY = "logging";

    /** This section of {@code cfg} (its defaults when the file has none). */
    public static LoggingConfig of(RouterConfig cfg) {
        return cfg.section(KEY, LoggingConfig.class);
    }

    /** Checks the level and keeps it in lower case; null means "not given yet" (the loader fills the default). */
    public LoggingConfig {
        if (level != null) {
            try {
                level = Logging.checkLevel(level);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("level " + e.getMessage(), e);
            }
        }
    }
}
