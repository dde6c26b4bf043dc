package dev.logrouter.core.config;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * One route: which sources' messages go to which sinks. Routes are evaluated in order; a route marked
 * {@code final} stops the evaluation of later routes for the sources it takes. Filters and parser
 * chains join routes in a later version.
 *
 * <p>Threads: immutable, any thread.
 */
public record RouteConfig(
        @Option(doc = "Unique route name.", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "Source names this route takes; empty = every source.", defaultValue = "[]")
        List<String> from,
        @Option(doc = "Sink names this route delivers to.", defaultValue = Option.REQUIRED)
        List<String> to,
        @Option(doc = "Stop evaluating later routes for messages this route took (syslog-ng flags(final)).",
                defaultValue = "false")
        @JsonProperty("final")
        Boolean isFinal) {
}
