package dev.logrouter.server;

import dev.logrouter.core.metrics.Metric;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.metrics.MetricRegistry;

import java.util.ArrayList;
import java.util.List;

/**
 * The last log line of a stop that could not keep everything: what each source, the ring and each sink abandoned,
 * from their counters ({@code Source abandonedConnections}, {@code abandonedBytes}, {@code abandoned}, {@code Ring
 * abandoned}, {@code Sink lost}), e.g. {@code source net: 8 connections, 412377 bytes unread, 96 frames; ring: 4096
 * events; sink lake: 700 events}. Empty when every one of them is 0.
 *
 * <p>Threads: the thread that stops the router, after the stop.
 */
final class StopSummary {

    private StopSummary() {
    }

    static String abandoned(MetricRegistry metrics) {
        List<String> parts = new ArrayList<>();
        for (MetricGroup g : metrics.groups()) {
            List<String> what = new ArrayList<>();
            switch (g.type()) {
                case "Source" -> {
                    add(what, g, "abandonedConnections", "connections");
                    add(what, g, "abandonedBytes", "bytes unread");
                    add(what, g, "abandoned", "frames");
                }
                case "Ring" -> add(what, g, "abandoned", "events");
                case "Sink" -> add(what, g, "lost", "events");
                default -> {
                }
            }
            if (!what.isEmpty()) {
                parts.add(g.type().toLowerCase(java.util.Locale.ROOT) + " " + g.name() + ": " + String.join(", ", what));
            }
        }
        return String.join("; ", parts);
    }

    private static void add(List<String> what, MetricGroup g, String counter, String unit) {
        for (Metric m : g.metrics()) {
            if (m.name().equals(counter)) {
                long v = m.value().getAsLong();
                if (v > 0) {
                    what.add(v + " " + unit);
                }
                return;
            }
        }
    }
}
