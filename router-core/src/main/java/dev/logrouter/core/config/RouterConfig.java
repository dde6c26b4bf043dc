package dev.logrouter.core.config;

import java.util.List;

/**
 * The whole router configuration, as bound from one YAML file by {@link ConfigLoader}.
 *
 * <p>Threads: immutable, any thread.
 */
public record RouterConfig(
        @Option(doc = "Network (and later other) sources.", defaultValue = Option.REQUIRED)
        List<SourceConfig> sources,
        @Option(doc = "Ring and stage options.", defaultValue = "{}")
        PipelineConfig pipeline,
        @Option(doc = "Routes from sources to sinks, in evaluation order.", defaultValue = "[]")
        List<RouteConfig> routes,
        @Option(doc = "Destinations.", defaultValue = Option.REQUIRED)
        List<SinkConfig> sinks,
        @Option(doc = "JMX and statistics.", defaultValue = "{}")
        MonitoringConfig monitoring) {
}
