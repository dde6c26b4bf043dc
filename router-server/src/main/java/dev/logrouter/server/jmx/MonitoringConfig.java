package dev.logrouter.server.jmx;

import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.option.Option;
import dev.logrouter.server.http.HttpConfig;

/**
 * The {@code monitoring:} section: how the router exposes its counters and operations ({@link JmxConfig}), and its
 * HTTP {@code /metrics} and {@code /health} ({@link HttpConfig}, null when off).
 *
 * <p>Threads: immutable, any thread.
 */
public record MonitoringConfig(
        @Option(doc = "JMX options.", defaultValue = "{}")
        JmxConfig jmx,
        @Option(doc = "HTTP /metrics (Prometheus) and /health; off unless given.", defaultValue = Option.NONE)
        HttpConfig http) {

    /** The top-level key of this section. */
    public static final String KEY = "monitoring";

    /** This section of {@code cfg} (its defaults when the file has none). */
    public static MonitoringConfig of(RouterConfig cfg) {
        return cfg.section(KEY, MonitoringConfig.class);
    }
}
