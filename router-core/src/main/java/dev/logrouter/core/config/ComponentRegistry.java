package dev.logrouter.core.config;

import dev.logrouter.core.parse.ParserConfig;
import dev.logrouter.core.rewrite.RewriteConfig;
import dev.logrouter.core.sink.SinkConfig;
import dev.logrouter.core.source.SourceConfig;

import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The component types this build knows, by YAML {@code type:} name, in registration order: sources, sinks, chain steps
 * (parsers and rewrites), top-level sections ({@code patterndb:}, {@code monitoring:}) and the option records nested
 * in a type (a TCP source's {@code tls:}), which only the reference lists. Filled by the {@link ComponentProvider}s
 * on the class path ({@link #load()}), or by hand in tests.
 *
 * <p>Threads: filled on one thread, then read-only and safe to share; the registry {@link #load()} returns refuses
 * further registrations.
 */
public final class ComponentRegistry {

    private final Map<String, Class<? extends SourceConfig>> sources = new LinkedHashMap<>();
    private final Map<String, Class<? extends SinkConfig>> sinks = new LinkedHashMap<>();
    private final Map<String, Class<? extends ParserConfig>> steps = new LinkedHashMap<>();
    private final Map<String, Class<? extends Record>> sections = new LinkedHashMap<>();
    private final Map<String, Class<? extends Record>> nested = new LinkedHashMap<>();
    private final Map<String, String> sectionDocs = new LinkedHashMap<>();
    private final Map<String, String> renamed = new LinkedHashMap<>();
    private boolean frozen;

    /** The registry of every provider on the class path, in provider order. */
    public static ComponentRegistry load() {
        ComponentRegistry r = new ComponentRegistry();
        ServiceLoader.load(ComponentProvider.class, ComponentRegistry.class.getClassLoader()).stream()
                .map(ServiceLoader.Provider::get)
                .sorted(Comparator.comparingInt(ComponentProvider::order)
                        .thenComparing(p -> p.getClass().getName()))
                .forEach(p -> p.register(r));
        r.frozen = true;
        return r;
    }

    /** Registers source type {@code type}; a name taken twice is a programming error. */
    public ComponentRegistry source(String type, Class<? extends SourceConfig> config) {
        put(sources, "source", type, config);
        return this;
    }

    public ComponentRegistry sink(String type, Class<? extends SinkConfig> config) {
        put(sinks, "sink", type, config);
        return this;
    }

    /** A parser or rewrite step ({@link RewriteConfig} records are rewrites). */
    public ComponentRegistry step(String type, Class<? extends ParserConfig> config) {
        put(steps, "step", type, config);
        return this;
    }

    /**
     * A top-level section: {@code key:} of the configuration file binds to {@code record}; absent = its defaults.
     * {@code doc} is its row in the reference's top-level table.
     */
    public ComponentRegistry section(String key, Class<? extends Record> record, String doc) {
        if (RouterConfig.coreKeys().contains(key)) {
            throw new IllegalStateException("section '" + key + "' is a key of the core's configuration");
        }
        put(sections, "section", key, record);
        sectionDocs.put(key, doc);
        return this;
    }

    /** An option record nested in a type, listed in the reference under {@code heading} (e.g. {@code sources[] type: tcp .tls}). */
    public ComponentRegistry nested(String heading, Class<? extends Record> record) {
        put(nested, "nested section", heading, record);
        return this;
    }

    /**
     * A type name this build does not have but an operator may write (from the design, or from syslog-ng): its
     * error message adds {@code hint}, which names the replacement. {@code kind} is SourceConfig, SinkConfig or
     * ParserConfig.
     */
    public ComponentRegistry renamed(Class<?> kind, String type, String hint) {
        put(renamed, "renamed type", kind.getName() + ":" + type, hint);
        return this;
    }

    /** The hint for a type name {@link #renamed} under the kind of {@code base}, or null. */
    String renamedType(Class<?> base, String type) {
        for (Class<?> kind : List.of(SourceConfig.class, SinkConfig.class, ParserConfig.class)) {
            if (kind.isAssignableFrom(base)) {
                return renamed.get(kind.getName() + ":" + type);
            }
        }
        return null;
    }

    private <T> void put(Map<String, T> map, String kind, String name, T value) {
        if (frozen) {
            throw new IllegalStateException("the registry of the class path is complete: register " + kind + " '"
                    + name + "' in a ComponentProvider");
        }
        if (map.putIfAbsent(name, value) != null) {
            throw new IllegalStateException(kind + " type '" + name + "' registered twice");
        }
    }

    public Map<String, Class<? extends SourceConfig>> sources() {
        return Collections.unmodifiableMap(sources);
    }

    public Map<String, Class<? extends SinkConfig>> sinks() {
        return Collections.unmodifiableMap(sinks);
    }

    public Map<String, Class<? extends ParserConfig>> steps() {
        return Collections.unmodifiableMap(steps);
    }

    public Map<String, Class<? extends Record>> sections() {
        return Collections.unmodifiableMap(sections);
    }

    /** The YAML type name of a chain-step record. */
    public String stepTypeName(Class<? extends ParserConfig> type) {
        for (Map.Entry<String, Class<? extends ParserConfig>> e : steps.entrySet()) {
            if (e.getValue() == type) {
                return e.getKey();
            }
        }
        throw new IllegalArgumentException("unregistered step type " + type.getName());
    }

    /** A loader for configuration files that use these types. */
    public ConfigLoader loader() {
        return new ConfigLoader(this);
    }

    /**
     * The configuration reference, one Markdown table per record: the top level, sources, their nested records,
     * pipeline, routes, parser and rewrite steps, sinks, then the top-level sections.
     */
    public String reference() {
        Map<String, Class<?>> out = new LinkedHashMap<>();
        out.put("top level", RouterConfig.class);
        sources.forEach((name, type) -> out.put("sources[] type: " + name, type));
        nested.forEach((heading, type) -> {
            if (heading.startsWith("sources")) {
                out.put(heading, type);
            }
        });
        out.put("pipeline", PipelineConfig.class);
        out.put("routes[]", RouteConfig.class);
        steps.forEach((name, type) -> out.put((RewriteConfig.class.isAssignableFrom(type)
                ? "rewrites.<chain>[] type: " : "parsers.<chain>[] type: ") + name, type));
        sinks.forEach((name, type) -> out.put("sinks[] type: " + name, type));
        sections.forEach(out::put);
        nested.forEach((heading, type) -> {
            if (!heading.startsWith("sources")) {
                out.put(heading, type);
            }
        });
        return ConfigReference.markdown(out, sectionDocs);
    }

    /** Every registered type name of each kind, for error messages. */
    String typesFor(Class<?> base) {
        Map<String, ?> map = SourceConfig.class.isAssignableFrom(base) ? sources
                : SinkConfig.class.isAssignableFrom(base) ? sinks
                : ParserConfig.class.isAssignableFrom(base) ? steps : Map.of();
        return String.join(", ", List.copyOf(map.keySet()));
    }
}
