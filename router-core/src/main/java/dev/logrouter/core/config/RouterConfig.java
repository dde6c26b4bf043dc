package dev.logrouter.core.config;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.parse.ParserConfig;
import dev.logrouter.core.sink.SinkConfig;
import dev.logrouter.core.source.SourceConfig;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The whole router configuration, as bound from one YAML file by {@link ConfigLoader}: the core's keys, and the
 * top-level sections the modules register ({@code patterndb:}, {@code monitoring:}), read with {@link #section}.
 *
 * <p>Threads: immutable, any thread.
 */
// "sections" is the any-setter's parameter, not a key: a file that names it is refused (FAIL_ON_IGNORED_PROPERTIES)
@JsonIgnoreProperties({"sections"})
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
        @Option(doc = "Routes from sources to sinks, in evaluation order.", defaultValue = "[]")
        List<RouteConfig> routes,
        @Option(doc = "Destinations.", defaultValue = Option.REQUIRED)
        List<SinkConfig> sinks,
        @JsonAnySetter @JsonDeserialize(contentUsing = SectionDeserializer.class)
        Map<String, Object> sections) {

    public RouterConfig {
        sections = sections == null ? Map.of() : sections;
    }

    /** The YAML keys of the core's own options ({@code sources}, {@code pipeline}, ...), in declaration order. */
    static List<String> coreKeys() {
        List<String> keys = new ArrayList<>();
        for (RecordComponent rc : RouterConfig.class.getRecordComponents()) {
            if (rc.getAnnotation(Option.class) != null) {
                keys.add(PropertyNamingStrategies.KebabCaseStrategy.INSTANCE.translate(rc.getName()));
            }
        }
        return keys;
    }

    /**
     * The top-level section {@code key} that a module registered ({@link ComponentRegistry#section}), as its record
     * (with its defaults when the file has none).
     */
    public <T> T section(String key, Class<T> type) {
        Object s = sections.get(key);
        if (s == null) {
            throw new IllegalArgumentException("no section '" + key + "' registered");
        }
        return type.cast(s);
    }

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
