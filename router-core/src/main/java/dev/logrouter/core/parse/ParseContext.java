package dev.logrouter.core.parse;

import dev.logrouter.core.metrics.MetricGroup;

import java.time.ZoneId;
import java.util.Map;

/**
 * What a parser step gets when it is built: its name, the receiver's time zone (for templates), its
 * metric group ({@code type=Parser,name=<name>}), shared by the instances of the step in every worker so
 * that their counters add up, and the router-wide services other modules provide (e.g. the PatternDB
 * that every {@code patterndb} step classifies against), looked up by type.
 *
 * <p>Threads: immutable.
 */
public record ParseContext(String name, String type, ZoneId zone, MetricGroup metrics, Map<Class<?>, Object> services) {

    public ParseContext {
        services = Map.copyOf(services);
    }

    /** A context without services. */
    public ParseContext(String name, String type, ZoneId zone, MetricGroup metrics) {
        this(name, type, zone, metrics, Map.of());
    }

    /**
     * The service of {@code type}; throws {@link IllegalArgumentException} naming {@code what} must be
     * configured when there is none.
     */
    public <T> T service(Class<T> type, String what) {
        Object s = services.get(type);
        if (s == null) {
            throw new IllegalArgumentException("a " + this.type + " step needs " + what);
        }
        return type.cast(s);
    }
}
