package dev.logrouter.core.route;

import dev.logrouter.core.config.RouteConfig;
import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.filter.FilterExpression;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.parse.ParserConfig;
import dev.logrouter.core.source.SourceConfig;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The routes of a configuration, compiled once: each route's sources as a bit set, its filter
 * expression, the parser and rewrite chains it runs and its sinks as a 64-bit mask (bit k = sink k in
 * config order). Every chain step's options are checked here, so a bad regex or filter fails at startup
 * (and in {@code check-config}) with the route or chain that holds it.
 *
 * <p>Each parse worker gets its own {@link RouteEvaluator} ({@link #newEvaluator()}), with its own
 * instances of the filters and parser steps; counters are shared.
 *
 * <p>Threads: built on the configuring thread; immutable afterwards.
 */
public final class Routes {

    /** One compiled route. */
    record Route(String name, long sourceMask, FilterExpression filter, int[] chains, long sinks, boolean isFinal,
                 Counter matched) {
    }

    /** One chain step: its config and the context its instances are built with. */
    record Step(ParserConfig cfg, ParseContext ctx) {
    }

    private final Route[] routes;
    private final Route[] fallbacks;
    private final List<List<Step>> chains = new ArrayList<>();
    private final Counter unrouted;
    private final Counter stepErrors;
    private final boolean routeAll;
    private final long allSinks;
    private final java.util.Set<String> rewriteChains;
    private final Map<Class<?>, Object> services;

    /**
     * @param typeName YAML type name of a step record (for default step names)
     */
    public Routes(RouterConfig cfg, ZoneId zone, MetricRegistry metrics,
                  Function<Class<? extends ParserConfig>, String> typeName) {
        this(cfg, zone, metrics, typeName, Map.of());
    }

    /**
     * @param typeName YAML type name of a step record (for default step names)
     * @param services router-wide services handed to every step ({@link ParseContext#service})
     */
    public Routes(RouterConfig cfg, ZoneId zone, MetricRegistry metrics,
                  Function<Class<? extends ParserConfig>, String> typeName, Map<Class<?>, Object> services) {
        this(cfg, zone, metrics, typeName, services, configOrder(cfg.sources().stream().map(SourceConfig::name).toList()),
                configOrder(cfg.sinks().stream().map(s -> s.name()).toList()));
    }

    /**
     * @param sourceIds each source's number (its bit in a route's source set; {@link
     *                  dev.logrouter.core.event.LogEvent#sourceId()}), by name
     * @param sinkIds   each sink's number (its bit in the sink mask), by name: config order at start, kept across
     *                  reloads for the sinks that stay
     */
    public Routes(RouterConfig cfg, ZoneId zone, MetricRegistry metrics,
                  Function<Class<? extends ParserConfig>, String> typeName, Map<Class<?>, Object> services,
                  Map<String, Integer> sourceIds, Map<String, Integer> sinkIds) {
        this.services = services;
        if (cfg.sources().size() > 64) {
            throw new IllegalArgumentException("sources: at most 64 sources are supported");
        }
        long all = 0;
        for (int id : sinkIds.values()) {
            if (id < 0 || id > 63) {
                throw new IllegalArgumentException("sinks: at most 64 sinks are supported");
            }
            all |= 1L << id;
        }
        allSinks = all;
        routeAll = cfg.routes().isEmpty();
        unrouted = metrics.group("Routes", "main").counter("unrouted",
                "Messages delivered to no sink: no route with sinks took them, or a final route without sinks dropped them.");
        stepErrors = metrics.group("Routes", "main").counter("stepErrors",
                "Exceptions thrown by a parser or rewrite step (a bug): the step is skipped for that message, "
                        + "which is routed on.");

        // every named filter compiles, even one no route uses yet (a typo must not wait for its first use)
        for (Map.Entry<String, String> f : cfg.filters().entrySet()) {
            try {
                FilterExpression.compile(f.getValue(), cfg.filters(), new MetricGroup("Filter", f.getKey()), zone);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("filters." + f.getKey() + ": " + e.getMessage(), e);
            }
        }
        // every named chain is compiled (and so checked), used or not
        Map<String, Integer> chainIds = new HashMap<>();
        Map<String, List<ParserConfig>> named = new LinkedHashMap<>(cfg.parsers());
        named.putAll(cfg.rewrites());
        rewriteChains = cfg.rewrites().keySet();
        named.forEach((chain, steps) -> chainIds.put(chain, compileChain(chain, steps, zone, metrics, typeName)));
        List<Route> normal = new ArrayList<>();
        List<Route> fallback = new ArrayList<>();
        for (RouteConfig r : cfg.routes()) {
            long sources = 0;
            if (r.from().isEmpty()) {
                sources = -1L;
            }
            for (String s : r.from()) {
                sources |= 1L << sourceIds.get(s);
            }
            FilterExpression filter = null;
            if (r.filter() != null) {
                try {
                    filter = FilterExpression.compile(r.filter(), cfg.filters(), metrics.group("Route", r.name()),
                            zone);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("routes." + r.name() + ".filter: " + e.getMessage(), e);
                }
            }
            List<String> used = new ArrayList<>(r.parsers());
            used.addAll(r.rewrite());
            int[] ids = new int[used.size()];
            for (int i = 0; i < ids.length; i++) {
                String chain = used.get(i);
                ids[i] = chainIds.get(chain);
            }
            long sinks = 0;
            for (String s : r.to()) {
                sinks |= 1L << sinkIds.get(s);
            }
            MetricGroup g = metrics.group("Route", r.name());
            Counter matched = g.counter("matched", "Messages this route took (source and filter matched).");
            Route compiled = new Route(r.name(), sources, filter, ids, sinks, Boolean.TRUE.equals(r.isFinal()), matched);
            (Boolean.TRUE.equals(r.fallback()) ? fallback : normal).add(compiled);
        }
        routes = normal.toArray(new Route[0]);
        fallbacks = fallback.toArray(new Route[0]);
    }

    private static Map<String, Integer> configOrder(List<String> names) {
        Map<String, Integer> ids = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            ids.put(names.get(i), i);
        }
        return ids;
    }

    private int compileChain(String chain, List<ParserConfig> steps, ZoneId zone, MetricRegistry metrics,
                             Function<Class<? extends ParserConfig>, String> typeName) {
        List<Step> compiled = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < steps.size(); i++) {
            ParserConfig pc = steps.get(i);
            String type = typeName.apply(pc.getClass());
            String name = pc.name();
            if (name == null) {
                name = chain + "." + type;
                int n = seen.merge(name, 1, Integer::sum);
                if (n > 1) {
                    name = name + "." + n;
                }
            }
            ParseContext ctx = new ParseContext(name, type, zone, metrics.group("Parser", name), services);
            try {
                pc.create(ctx); // validates the options once, before any worker starts
            } catch (IllegalArgumentException e) {
                String where = (rewriteChains.contains(chain) ? "rewrites." : "parsers.") + chain;
                throw new IllegalArgumentException(where + "[" + i + "] (type " + type + "): " + e.getMessage(), e);
            }
            compiled.add(new Step(pc, ctx));
        }
        chains.add(compiled);
        return chains.size() - 1;
    }

    /** A new evaluator with its own filter and step instances, for one parse worker. */
    public RouteEvaluator newEvaluator() {
        EventParser[][] steps = new EventParser[chains.size()][];
        for (int c = 0; c < steps.length; c++) {
            List<Step> chain = chains.get(c);
            steps[c] = new EventParser[chain.size()];
            for (int i = 0; i < chain.size(); i++) {
                steps[c][i] = chain.get(i).cfg().create(chain.get(i).ctx());
            }
        }
        return new RouteEvaluator(routes, fallbacks, steps, routeAll, allSinks, unrouted, stepErrors);
    }
}
