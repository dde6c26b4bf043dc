package dev.logrouter.server.jmx;

import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.option.Option;

/**
 * The {@code monitoring:} section: how the router exposes its counters and operations ({@link JmxConfig}).
 *
 * <p>Threads: immutable, any thread.
 */
public record MonitoringConfig(
        @Option(doc = "JMX options.", defaultValue = "{}")
        JmxConfig jmx) {

    /** The top-level key of this section. */
    public static final String KEY = "monitoring";

    /** This section of {@code cfg} (its defaults when the file has none). */
    public static MonitoringConfig of(RouterConfig cfg) {
        return cfg.section(KEY, MonitoringConfig.class);
    }
}
