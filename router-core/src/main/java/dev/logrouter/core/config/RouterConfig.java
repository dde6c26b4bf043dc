package dev.logrouter.core.config;

import dev.logrouter.core.parse.ParserConfig;

import java.util.List;
import java.util.Map;

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
        @Option(doc = "Named parser chains: name → list of parser steps (json, kv, xml, csv, regex, ...).",
                defaultValue = "{}")
        Map<String, List<ParserConfig>> parsers,
        @Option(doc = "Named rewrite chains: name → list of rewrite steps (set, unset, subst, set-tag, clear-tag).",
                defaultValue = "{}")
        Map<String, List<ParserConfig>> rewrites,
        @Option(doc = "Named filter expressions, usable in routes as filter(name).", defaultValue = "{}")
        Map<String, String> filters,
        @Option(doc = "The PatternDB rulesets that patterndb parser steps classify against, and correlation "
                + "options.", defaultValue = "{}")
        PatternDbConfig patterndb,
        @Option(doc = "Routes from sources to sinks, in evaluation order.", defaultValue = "[]")
        List<RouteConfig> routes,
        @Option(doc = "Destinations.", defaultValue = Option.REQUIRED)
        List<SinkConfig> sinks,
        @Option(doc = "JMX and statistics.", defaultValue = "{}")
        MonitoringConfig monitoring) {

    /**
     * The largest {@code max-message-size} of the sources in bytes (0 when none declares one): what
     * {@code pipeline.max-field-length: 0} stands for, at least 64 KiB.
     */
    public long largestMessageSize() {
        long max = 0;
        for (SourceConfig sc : sources) {
            if (sc.maxMessageSize() != null) {
                max = Math.max(max, sc.maxMessageSize().bytes());
            }
        }
        return max;
    }
}
