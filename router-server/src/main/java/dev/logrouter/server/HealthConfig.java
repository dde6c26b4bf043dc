package dev.logrouter.server;

import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;

/**
 * The top-level {@code health:} section: when {@code /health} (and the router's {@code state}) call a component
 * that is not doing its job unhealthy. Applied by a reload.
 *
 * <p>Threads: immutable, any thread.
 */
public record HealthConfig(
        @Option(doc = "A sink that has delivered nothing for this long while it has a backlog (a journaled sink whose "
                + "destination is down), or a source that has failed continuously for this long (a journald source "
                + "whose journalctl cannot start), makes the router DEGRADED and /health answer 503. A memory sink "
                + "that retries, and a configured source that is not running, do at once.", defaultValue = "60s")
        TimeSpan staleAfter) {

    /** The top-level key of this section. */
    public static final String KEY = "health";

    /** This section of {@code cfg} (its defaults when the file has none). */
    public static HealthConfig of(RouterConfig cfg) {
        return cfg.section(KEY, HealthConfig.class);
    }

    /** Checks the option; null means "not given yet" (the loader fills the default). */
    public HealthConfig {
        if (staleAfter != null && staleAfter.millis() < 1) {
            throw new IllegalArgumentException("stale-after must be at least 1ms");
        }
    }
}
