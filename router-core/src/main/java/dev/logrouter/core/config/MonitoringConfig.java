package dev.logrouter.core.config;

/**
 * Monitoring options.
 *
 * <p>Threads: immutable, any thread.
 */
public record MonitoringConfig(
        @Option(doc = "JMX options.", defaultValue = "{}")
        JmxConfig jmx) {
}
