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
 * events; sink lake: 700 events}: what they grew by during the stop (a reload's earlier loss was logged then). Empty
 * when none grew.
 *
 * <p>Threads: the thread that stops the router, after the stop.
 */
final class StopSummary {

    private StopSummary() {
    }

    /** The counters this summary reads, by {@code type/name/counter}, before the stop. */
    static java.util.Map<String, Long> snapshot(MetricRegistry metrics) {
        java.util.Map<String, Long> m = new java.util.HashMap<>();
        for (MetricGroup g : metrics.groups()) {
            for (Metric x : g.metrics()) {
                m.put(g.type() + "/" + g.name() + "/" + x.name(), x.value().getAsLong());
            }
        }
        return m;
    }

    /** What grew since {@code before} (a {@link #snapshot}). */
    static String abandoned(MetricRegistry metrics, java.util.Map<String, Long> before) {
        List<String> parts = new ArrayList<>();
        for (MetricGroup g : metrics.groups()) {
            List<String> what = new ArrayList<>();
            switch (g.type()) {
                case "Source" -> {
                    add(what, g, "abandonedConnections", "connections", before);
                    add(what, g, "abandonedBytes", "bytes unread", before);
                    add(what, g, "abandoned", "frames", before);
                }
                case "Ring" -> add(what, g, "abandoned", "events", before);
                case "Sink" -> add(what, g, "lost", "events", before);
                default -> {
                }
            }
            if (!what.isEmpty()) {
                parts.add(g.type().toLowerCase(java.util.Locale.ROOT) + " " + g.name() + ": " + String.join(", ", what));
            }
        }
        return String.join("; ", parts);
    }

    private static void add(List<String> what, MetricGroup g, String counter, String unit,
                            java.util.Map<String, Long> before) {
        for (Metric m : g.metrics()) {
            if (m.name().equals(counter)) {
                long v = m.value().getAsLong() - before.getOrDefault(g.type() + "/" + g.name() + "/" + counter, 0L);
                if (v > 0) {
                    what.add(v + " " + unit);
                }
                return;
            }
        }
    }
}
