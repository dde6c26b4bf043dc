package dev.logrouter.core.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.PropertyBindingException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.ConfigException;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.parse.ParserConfig;
import dev.logrouter.core.sink.SinkConfig;
import dev.logrouter.core.source.SourceConfig;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads a YAML configuration into immutable records: unknown keys, bad values and unknown types fail
 * with the file, line, YAML path and a hint; options left out take the default declared by their
 * {@link Option}; cross references (route → source/sink names) are checked.
 *
 * <p>Threads: used by the thread that starts the router or runs {@code check-config}.
 */
public final class ConfigLoader {

    /** Most sinks a router can have: each is one bit of an event's 64-bit sink mask. */
    public static final int MAX_SINKS = 64;

    private final ObjectMapper mapper;
    private final ComponentRegistry registry;

    /** A loader for the types of {@code registry}. */
    public ConfigLoader(ComponentRegistry registry) {
        this.registry = registry;
        mapper = YAMLMapper.builder()
                .propertyNamingStrategy(PropertyNamingStrategies.KEBAB_CASE)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_IGNORED_PROPERTIES)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .build();
        registry.sources().forEach((name, type) -> mapper.registerSubtypes(new NamedType(type, name)));
        registry.sinks().forEach((name, type) -> mapper.registerSubtypes(new NamedType(type, name)));
        registry.steps().forEach((name, type) -> mapper.registerSubtypes(new NamedType(type, name)));
    }

    /**
     * A loader for the given source and sink types and the core's chain steps (tests).
     *
     * @param sourceTypes YAML {@code type} name → source config record
     * @param sinkTypes   YAML {@code type} name → sink config record
     */
    public ConfigLoader(Map<String, Class<? extends SourceConfig>> sourceTypes,
                        Map<String, Class<? extends SinkConfig>> sinkTypes) {
        this(sourceTypes, sinkTypes, CoreComponents.steps());
    }

    /** A loader for the given types (tests). */
    public ConfigLoader(Map<String, Class<? extends SourceConfig>> sourceTypes,
                        Map<String, Class<? extends SinkConfig>> sinkTypes,
                        Map<String, Class<? extends ParserConfig>> parserTypes) {
        this(registry(sourceTypes, sinkTypes, parserTypes));
    }

    private static ComponentRegistry registry(Map<String, Class<? extends SourceConfig>> sourceTypes,
                                              Map<String, Class<? extends SinkConfig>> sinkTypes,
                                              Map<String, Class<? extends ParserConfig>> parserTypes) {
        ComponentRegistry r = new ComponentRegistry();
        sourceTypes.forEach(r::source);
        sinkTypes.forEach(r::sink);
        parserTypes.forEach(r::step);
        return r;
    }

    public RouterConfig load(Path file) throws ConfigException {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read configuration: " + e.getMessage(), e);
        }
        return load(text, file.toString());
    }

    /** Parses {@code yaml}; {@code origin} names it in error messages. */
    public RouterConfig load(String yaml, String origin) throws ConfigException {
        RouterConfig raw;
        try {
            raw = isEmpty(yaml) ? null : mapper.readerFor(RouterConfig.class)
                    .withAttribute(SectionDeserializer.SECTIONS, registry.sections()).readValue(yaml);
        } catch (JsonProcessingException e) {
            throw new ConfigException(describe(e, origin, locate(yaml, e), registry), e);
        }
        if (raw == null) {
            throw new ConfigException(origin + ": empty configuration; it needs at least 'sources:' and 'sinks:'");
        }
        raw = withAbsentSections(raw);
        RouterConfig cfg = (RouterConfig) withDefaults(raw, RouterConfig.class, "", origin);
        checkReferences(cfg, origin);
        return cfg;
    }

    /** {@code raw} with every registered section it lacks, as {@code {}} (so that it takes its defaults). */
    private RouterConfig withAbsentSections(RouterConfig raw) throws ConfigException {
        Map<String, Object> sections = new LinkedHashMap<>(raw.sections());
        for (Map.Entry<String, Class<? extends Record>> s : registry.sections().entrySet()) {
            if (sections.get(s.getKey()) == null) {
                try {
                    sections.put(s.getKey(), parseDefault("{}", s.getValue()));
                } catch (IOException e) {
                    throw new IllegalStateException("section " + s.getKey() + " has no valid default", e);
                }
            }
        }
        return new RouterConfig(raw.sources(), raw.pipeline(), raw.parsers(), raw.rewrites(), raw.filters(),
                raw.routes(), raw.sinks(), sections);
    }

    /** Parses a default value given in YAML syntax into the option's type (also used by tests). */
    Object parseDefault(String yaml, Type type) throws IOException {
        JavaType jt = mapper.getTypeFactory().constructType(type);
        return mapper.readValue(yaml, jt);
    }

    private Object withDefaults(Object value, Type type, String path, String origin) throws ConfigException {
        if (value == null) {
            return null;
        }
        if (value instanceof Collection<?> list) {
            List<Object> out = new ArrayList<>();
            int i = 0;
            for (Object o : list) {
                if (o == null) {
                    throw new ConfigException(origin + ": " + path + "[" + i + "]: empty list item; remove it or "
                            + "give it a value");
                }
                out.add(withDefaults(o, o.getClass(), path + "[" + i++ + "]", origin));
            }
            return List.copyOf(out);
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> en : map.entrySet()) {
                Object o = en.getValue();
                out.put(en.getKey(), withDefaults(o, o == null ? Object.class : o.getClass(),
                        path.isEmpty() ? String.valueOf(en.getKey()) : path + "." + en.getKey(), origin));
            }
            return Collections.unmodifiableMap(out);
        }
        Class<?> cls = value.getClass();
        if (!cls.isRecord() || cls == ByteSize.class || cls == TimeSpan.class) {
            return value;
        }
        RecordComponent[] comps = cls.getRecordComponents();
        Object[] args = new Object[comps.length];
        Class<?>[] types = new Class<?>[comps.length];
        for (int i = 0; i < comps.length; i++) {
            RecordComponent rc = comps[i];
            types[i] = rc.getType();
            String key = PropertyNamingStrategies.KebabCaseStrategy.INSTANCE.translate(rc.getName());
            if (rc.getName().equals("isFinal")) {
                key = "final";
            }
            // the modules' sections sit at the top level of the file, beside the core's keys
            String childPath = cls == RouterConfig.class && rc.getName().equals("sections") ? path
                    : path.isEmpty() ? key : path + "." + key;
            Object v;
            try {
                v = rc.getAccessor().invoke(value);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
            if (v == null) {
                Option opt = rc.getAnnotation(Option.class);
                if (opt == null || opt.defaultValue().equals(Option.NONE)) {
                    args[i] = null;
                    continue;
                }
                if (opt.defaultValue().equals(Option.REQUIRED)) {
                    throw new ConfigException(origin + ": " + childPath + ": missing required option ("
                            + opt.doc() + ")");
                }
                try {
                    v = parseDefault(opt.defaultValue(), rc.getGenericType());
                } catch (IOException e) {
                    throw new IllegalStateException("bad default for " + cls.getSimpleName() + "." + rc.getName(), e);
                }
            }
            args[i] = withDefaults(v, rc.getGenericType(), childPath, origin);
        }
        try {
            Constructor<?> ctor = cls.getDeclaredConstructor(types);
            ctor.setAccessible(true);
            return ctor.newInstance(args);
        } catch (InvocationTargetException e) {
            throw new ConfigException(origin + ": " + path + ": " + e.getCause().getMessage(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void checkReferences(RouterConfig cfg, String origin) throws ConfigException {
        Set<String> sources = new HashSet<>();
        for (int i = 0; i < cfg.sources().size(); i++) {
            String n = cfg.sources().get(i).name();
            if (!sources.add(n)) {
                throw new ConfigException(origin + ": sources[" + i + "].name: duplicate source name '" + n + "'");
            }
        }
        Set<String> sinks = new HashSet<>();
        for (int i = 0; i < cfg.sinks().size(); i++) {
            String n = cfg.sinks().get(i).name();
            if (!sinks.add(n)) {
                throw new ConfigException(origin + ": sinks[" + i + "].name: duplicate sink name '" + n + "'");
            }
        }
        if (cfg.sinks().size() > MAX_SINKS) {
            throw new ConfigException(origin + ": sinks: at most " + MAX_SINKS + " sinks are supported");
        }
        if (cfg.sources().isEmpty()) {
            throw new ConfigException(origin + ": sources: at least one source is needed");
        }
        if (cfg.sinks().isEmpty()) {
            throw new ConfigException(origin + ": sinks: at least one sink is needed");
        }
        checkChains(cfg.parsers(), "parsers", origin);
        checkChains(cfg.rewrites(), "rewrites", origin);
        for (Map.Entry<String, String> f : cfg.filters().entrySet()) {
            if (f.getValue() == null || f.getValue().isBlank()) {
                throw new ConfigException(origin + ": filters." + f.getKey() + ": empty filter expression; write one, "
                        + "e.g. 'level(err..emerg)', or remove the entry");
            }
        }
        for (String c : cfg.parsers().keySet()) {
            if (cfg.rewrites().containsKey(c)) {
                throw new ConfigException(origin + ": rewrites." + c + ": a parser chain has the same name; "
                        + "rename one (their counters would share names)");
            }
        }
        Set<String> routes = new HashSet<>();
        for (int i = 0; i < cfg.routes().size(); i++) {
            RouteConfig r = cfg.routes().get(i);
            if (!routes.add(r.name())) {
                throw new ConfigException(origin + ": routes[" + i + "].name: duplicate route name '" + r.name() + "'");
            }
            for (String s : r.from()) {
                if (!sources.contains(s)) {
                    throw new ConfigException(origin + ": routes[" + i + "].from: no source named '" + s
                            + "' (sources: " + new TreeSet<>(sources) + ")");
                }
            }
            if (r.to().isEmpty() && r.parsers().isEmpty() && r.rewrite().isEmpty() && !Boolean.TRUE.equals(r.isFinal())) {
                throw new ConfigException(origin + ": routes[" + i + "].to: name at least one sink (a route "
                        + "without sinks must run parsers or rewrites, or be final to drop what it takes)");
            }
            for (String c : r.parsers()) {
                if (!cfg.parsers().containsKey(c)) {
                    throw new ConfigException(origin + ": routes[" + i + "].parsers: no parser chain named '" + c
                            + "' (parsers: " + new TreeSet<>(cfg.parsers().keySet()) + ")");
                }
            }
            for (String c : r.rewrite()) {
                if (!cfg.rewrites().containsKey(c)) {
                    throw new ConfigException(origin + ": routes[" + i + "].rewrite: no rewrite chain named '" + c
                            + "' (rewrites: " + new TreeSet<>(cfg.rewrites().keySet()) + ")");
                }
            }
            for (String s : r.to()) {
                if (!sinks.contains(s)) {
                    throw new ConfigException(origin + ": routes[" + i + "].to: no sink named '" + s
                            + "' (sinks: " + new TreeSet<>(sinks) + ")");
                }
            }
        }
    }

    /** Every named chain must list at least one step (a null step is refused while binding). */
    private static void checkChains(Map<String, List<ParserConfig>> chains, String key, String origin)
            throws ConfigException {
        for (Map.Entry<String, List<ParserConfig>> c : chains.entrySet()) {
            if (c.getValue() == null || c.getValue().isEmpty()) {
                throw new ConfigException(origin + ": " + key + "." + c.getKey() + ": empty chain; list at least one "
                        + "step (e.g. - {type: json}) or remove it");
            }
        }
    }

    /** True when the text holds no YAML value at all (nothing, or only comments). */
    private boolean isEmpty(String yaml) {
        try (JsonParser p = mapper.createParser(yaml)) {
            return p.nextToken() == null;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Where the YAML key (or list item) at the error's path starts, or the error's own location. Jackson
     * reports some errors only at the end of the enclosing mapping (unknown keys of records are buffered
     * until the record is built), which can be many lines after the key at fault.
     */
    private JsonLocation locate(String yaml, JsonProcessingException e) {
        if (e instanceof JsonMappingException jme && !jme.getPath().isEmpty()) {
            try (JsonParser p = mapper.createParser(yaml)) {
                JsonLocation at = locate(p, p.nextToken(), jme.getPath(), 0);
                if (at != null) {
                    return at;
                }
            } catch (IOException ignored) {
                // fall back to Jackson's location
            }
        }
        return e.getLocation();
    }

    /** {@code p} is at {@code t}, the value at {@code refs[0, depth)}; finds the start of {@code refs}. */
    private static JsonLocation locate(JsonParser p, JsonToken t, List<JsonMappingException.Reference> refs,
                                       int depth) throws IOException {
        JsonMappingException.Reference r = refs.get(depth);
        boolean last = depth + 1 == refs.size();
        if (t == JsonToken.START_OBJECT && r.getFieldName() != null) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                if (p.currentName().equals(r.getFieldName())) {
                    return last ? p.currentTokenLocation() : locate(p, p.nextToken(), refs, depth + 1);
                }
                p.nextToken();
                p.skipChildren();
            }
        } else if (t == JsonToken.START_ARRAY && r.getIndex() >= 0) {
            int i = 0;
            for (JsonToken v = p.nextToken(); v != null && v != JsonToken.END_ARRAY; v = p.nextToken(), i++) {
                if (i == r.getIndex()) {
                    return last ? p.currentTokenLocation() : locate(p, v, refs, depth + 1);
                }
                p.skipChildren();
            }
        }
        return null;
    }

    /** Turns a Jackson error into {@code file:line:column: yaml.path: what is wrong (hint)}. */
    private static String describe(JsonProcessingException e, String origin, JsonLocation loc,
                                   ComponentRegistry registry) {
        StringBuilder sb = new StringBuilder(origin);
        if (loc != null && loc.getLineNr() > 0) {
            sb.append(':').append(loc.getLineNr()).append(':').append(loc.getColumnNr());
        }
        sb.append(": ");
        if (e instanceof JsonMappingException jme) {
            String path = path(jme.getPath());
            if (!path.isEmpty()) {
                sb.append(path).append(": ");
            }
        }
        if (e instanceof PropertyBindingException upe) { // unknown, or a name that is no key (RouterConfig.sections)
            sb.append("unknown option '").append(upe.getPropertyName()).append("'");
            Collection<Object> known = upe.getKnownPropertyIds();
            if (known != null && !known.isEmpty()) {
                sb.append(" (known here: ").append(new TreeSet<>(known.stream().map(String::valueOf).toList()))
                        .append(')');
            }
        } else if (e instanceof InvalidTypeIdException ite) {
            sb.append("unknown or missing type '").append(ite.getTypeId()).append("'");
            String known = registry == null || ite.getBaseType() == null ? ""
                    : registry.typesFor(ite.getBaseType().getRawClass());
            sb.append(known.isEmpty() ? " (set 'type:' to one of the supported types)"
                    : " (set 'type:' to one of: " + known + ")");
            String hint = registry == null || ite.getBaseType() == null ? null
                    : registry.renamedType(ite.getBaseType().getRawClass(), ite.getTypeId());
            if (hint != null) {
                sb.append("; ").append(hint);
            }
        } else if (e instanceof ValueInstantiationException vie && vie.getCause() != null) {
            sb.append(vie.getCause().getMessage());
        } else {
            String msg = e.getOriginalMessage();
            if (e.getCause() instanceof IllegalArgumentException iae) {
                msg = iae.getMessage();
            }
            sb.append(msg == null ? e.getClass().getSimpleName() : msg.split("\n")[0]);
        }
        return sb.toString();
    }

    private static String path(List<JsonMappingException.Reference> refs) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : refs) {
            if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            } else if (r.getFieldName() != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(r.getFieldName());
            }
        }
        return sb.toString();
    }
}
