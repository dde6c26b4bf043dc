package dev.logrouter.core.route;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.filter.Filter;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.parse.EventParser;

/**
 * Evaluates the routes for one message and stamps the result on it as a sink mask: routes in order,
 * each taking the message when its sources include the message's source and its filter matches; a
 * route that takes it runs its parser and rewrite chains (each chain at most once per message, however
 * many routes name it), adds its sinks, and stops the evaluation if it is {@code final}. When no route
 * with sinks took the message, and no final route did, the {@code fallback} routes are evaluated the same
 * way (a route that only parses or rewrites leaves the message to them). A parser's output and tags
 * are visible to the filters of later routes, which is how a route selects messages a parser failed on; so are the
 * tags of the field limits ({@code .limit.max-fields}, {@code .limit.max-field-length}) the header or a chain hit.
 *
 * <p>Threads: one instance per parse worker, called by that worker only.
 */
public final class RouteEvaluator implements EventParser {

    private final Routes.Route[] routes;
    private final Routes.Route[] fallbacks;
    private final Filter[] filters;
    private final Filter[] fallbackFilters;
    private final EventParser[][] chains;
    private final boolean[] chainRun;
    private final boolean routeAll;
    private final long allSinks;
    private final Counter unrouted;
    private final Counter stepErrors;
    /** Scratch of one {@link #parse}: whether a route took the message. */
    private boolean taken;

    RouteEvaluator(Routes.Route[] routes, Routes.Route[] fallbacks, EventParser[][] chains, boolean routeAll,
                   long allSinks, Counter unrouted, Counter stepErrors) {
        this.routes = routes;
        this.fallbacks = fallbacks;
        this.filters = filters(routes);
        this.fallbackFilters = filters(fallbacks);
        this.chains = chains;
        this.chainRun = new boolean[chains.length];
        this.routeAll = routeAll;
        this.allSinks = allSinks;
        this.unrouted = unrouted;
        this.stepErrors = stepErrors;
    }

    private static Filter[] filters(Routes.Route[] rs) {
        Filter[] f = new Filter[rs.length];
        for (int i = 0; i < rs.length; i++) {
            f[i] = rs[i].filter() == null ? null : rs[i].filter().newFilter();
        }
        return f;
    }

    @Override
    public void parse(LogEvent event) {
        if (event.hasFlag(LogEvent.FLAG_DISCARD)) {
            return;
        }
        event.tagLimitHits(); // the header's structured data: filters can select on the .limit.* tags
        if (routeAll) {
            event.setSinkMask(allSinks);
            return;
        }
        java.util.Arrays.fill(chainRun, false);
        long sourceBit = 1L << event.sourceId();
        taken = false;
        long mask = evaluate(routes, filters, sourceBit, event);
        if (!taken) {
            mask |= evaluate(fallbacks, fallbackFilters, sourceBit, event);
        }
        if (mask == 0) {
            unrouted.inc();
        }
        event.setSinkMask(mask);
    }

    /**
     * Evaluates {@code rs} in order (with their per-worker filters {@code fs}) and returns the sinks of the routes
     * that took the message; sets {@link #taken} when one with sinks, or a final one, did (a route that only
     * parses or rewrites leaves the message to the fallback routes; a final route without sinks drops it, as
     * syslog-ng's idiom does).
     */
    private long evaluate(Routes.Route[] rs, Filter[] fs, long sourceBit, LogEvent event) {
        long mask = 0;
        for (int i = 0; i < rs.length; i++) {
            Routes.Route r = rs[i];
            if ((r.sourceMask() & sourceBit) == 0 || (fs[i] != null && !fs[i].test(event))) {
                continue;
            }
            mask |= take(r, event);
            taken |= r.sinks() != 0 || r.isFinal();
            if (r.isFinal()) {
                break;
            }
        }
        return mask;
    }

    private long take(Routes.Route r, LogEvent event) {
        r.matched().inc();
        for (int c : r.chains()) {
            if (!chainRun[c]) {
                chainRun[c] = true;
                for (EventParser step : chains[c]) {
                    try {
                        step.parse(event);
                    } catch (RuntimeException | StackOverflowError e) {
                        // a step's bug must not cost the message its routes: skip the step, count it, go on
                        stepErrors.inc();
                    }
                }
                event.tagLimitHits();
            }
        }
        return r.sinks();
    }
}
