package dev.logrouter.core.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.logrouter.core.option.Option;

import java.util.List;

/**
 * One route: {@code from} sources, through a {@code filter}, then {@code parsers} and {@code rewrite}
 * chains, {@code to} sinks. Routes are evaluated in order once per message; a {@code final} route that
 * takes a message stops the evaluation; {@code fallback} routes take only what no other route took.
 *
 * <p>Threads: immutable, any thread.
 */
public record RouteConfig(
        @Option(doc = "Unique route name (names its counters, type=Route).", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "Source names this route takes; empty = every source.", defaultValue = "[]")
        List<String> from,
        @Option(doc = "Filter expression in syslog-ng's vocabulary, e.g. 'program(\"app\") and level(warning..emerg)'; "
                + "absent = every message.", defaultValue = Option.NONE)
        String filter,
        @Option(doc = "Parser chains (names under parsers:) run, in order, on the messages this route takes.",
                defaultValue = "[]")
        List<String> parsers,
        @Option(doc = "Rewrite chains (names under rewrites:) run after the parsers.", defaultValue = "[]")
        List<String> rewrite,
        @Option(doc = "Sink names this route delivers to; may be empty for a route that only parses or tags.",
                defaultValue = "[]")
        List<String> to,
        @Option(doc = "Stop evaluating later routes for messages this route took (syslog-ng flags(final)).",
                defaultValue = "false")
        @JsonProperty("final")
        Boolean isFinal,
        @Option(doc = "Take only messages that no non-fallback route took (syslog-ng flags(fallback)).",
                defaultValue = "false")
        Boolean fallback) {
}
