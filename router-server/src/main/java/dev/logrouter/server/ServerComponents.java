package dev.logrouter.server;

import dev.logrouter.core.config.ComponentProvider;
import dev.logrouter.core.config.ComponentRegistry;
import dev.logrouter.server.jmx.JmxConfig;
import dev.logrouter.server.http.HttpConfig;
import dev.logrouter.server.jmx.JmxTlsConfig;
import dev.logrouter.server.jmx.MonitoringConfig;

/**
 * The server's own top-level sections: {@code monitoring:} (JMX, HTTP), {@code logging:} (the level of its diagnostics)
 * and {@code health:} (when /health calls a component unhealthy). Listed in
 * {@code META-INF/services/dev.logrouter.core.config.ComponentProvider}.
 *
 * <p>Threads: stateless.
 */
public final class ServerComponents implements ComponentProvider {

    @Override
    public int order() {
        return 100;
    }

    @Override
    public void register(ComponentRegistry registry) {
        registry.section(MonitoringConfig.KEY, MonitoringConfig.class, "JMX, HTTP /metrics and /health, statistics.")
                .section(LoggingConfig.KEY, LoggingConfig.class, "The router's diagnostics on stderr: their level.")
                .section(HealthConfig.KEY, HealthConfig.class, "When /health and the router's state call a sink or "
                        + "source unhealthy.")
                .nested("monitoring.jmx", JmxConfig.class)
                .nested("monitoring.jmx.tls", JmxTlsConfig.class)
                .nested("monitoring.http", HttpConfig.class)
                .nested("monitoring.http.tls", JmxTlsConfig.class);
    }
}
