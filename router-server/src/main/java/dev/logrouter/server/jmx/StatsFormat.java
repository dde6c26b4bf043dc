package dev.logrouter.server.jmx;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The three outputs of the {@code stats} command: an aligned table, JSON ({@code type → name → attribute →
 * value}), and the Prometheus text exposition format (version 0.0.4).
 *
 * <p>Threads: stateless, any thread.
 */
public enum StatsFormat {

    /** {@code TYPE NAME ATTRIBUTE VALUE}, one attribute per line, columns aligned. */
    TABLE {
        @Override
        public String render(Stats stats) {
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"TYPE", "NAME", "ATTRIBUTE", "VALUE"});
            for (Stats.Bean b : stats.beans()) {
                for (Stats.Attr a : b.attributes()) {
                    rows.add(new String[] {b.type(), b.name(), a.name(), oneLine(String.valueOf(a.value()))});
                }
            }
            int[] width = new int[3];
            for (String[] r : rows) {
                for (int i = 0; i < 3; i++) {
                    width[i] = Math.max(width[i], r[i].length());
                }
            }
            StringBuilder out = new StringBuilder();
            for (String[] r : rows) {
                for (int i = 0; i < 3; i++) {
                    out.append(r[i]).append(" ".repeat(width[i] - r[i].length() + 2));
                }
                out.append(r[3]).append('\n');
            }
            return out.toString();
        }
    },

    /** {@code {"Source": {"net": {"received": 10, ...}}, ...}}: numbers as numbers, texts as strings. */
    JSON {
        @Override
        public String render(Stats stats) {
            ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            ObjectNode root = mapper.createObjectNode();
            for (Stats.Bean b : stats.beans()) {
                ObjectNode type = root.has(b.type()) ? (ObjectNode) root.get(b.type()) : root.putObject(b.type());
                ObjectNode bean = type.putObject(b.name());
                for (Stats.Attr a : b.attributes()) {
                    if (a.value() instanceof Number n) {
                        bean.put(a.name(), n.longValue());
                    } else {
                        bean.put(a.name(), String.valueOf(a.value()));
                    }
                }
            }
            try {
                return mapper.writeValueAsString(root) + "\n";
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    },

    /**
     * The Prometheus text exposition format 0.0.4 ({@link #PROMETHEUS_CONTENT_TYPE}), with Prometheus names: one
     * family per type and attribute, {@code logrouter_<type>_<attribute>} in snake case, labelled with the component
     * under the type's name ({@code logrouter_sink_written_total{sink="files"} 4}). Counters get {@code _total} and
     * {@code # TYPE counter}, gauges {@code # TYPE gauge}; {@code # HELP} is the metric's description (of the first
     * component that declares it). A text attribute {@code state} becomes a state gauge,
     * {@code logrouter_router_state{router="main",state="RUNNING"} 1}; other texts (last errors, host names) are
     * not samples and are left out.
     */
    PROMETHEUS {
        @Override
        public String render(Stats stats) {
            Map<String, StringBuilder> families = new LinkedHashMap<>();
            for (Stats.Bean b : stats.beans()) {
                String type = snake(b.type());
                String labels = type + "=\"" + label(b.name()) + "\"";
                for (Stats.Attr a : b.attributes()) {
                    String family = "logrouter_" + type + "_" + snake(a.name());
                    String kind;
                    String sample;
                    switch (a.kind()) {
                        case "counter" -> {
                            family += "_total";
                            kind = "counter";
                            sample = family + "{" + labels + "} " + a.value();
                        }
                        case "text" -> {
                            if (!a.name().equals("state")) {
                                continue;
                            }
                            kind = "gauge";
                            sample = family + "{" + labels + ",state=\"" + label(String.valueOf(a.value())) + "\"} 1";
                        }
                        default -> {
                            kind = "gauge";
                            sample = family + "{" + labels + "} " + a.value();
                        }
                    }
                    String f = family;
                    families.computeIfAbsent(family, x -> new StringBuilder("# HELP " + f + " "
                            + help(a.description()) + "\n# TYPE " + f + " " + kind + "\n"))
                            .append(sample).append('\n');
                }
            }
            StringBuilder out = new StringBuilder();
            families.values().forEach(out::append);
            return out.toString();
        }
    };

    /** The HTTP content type of {@link #PROMETHEUS}'s text. */
    public static final String PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** The whole reading as this format's text, ending with a newline. */
    public abstract String render(Stats stats);

    /** {@code table}, {@code json} or {@code prometheus}. */
    public static StatsFormat parse(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "table" -> TABLE;
            case "json" -> JSON;
            case "prometheus" -> PROMETHEUS;
            default -> throw new IllegalArgumentException("unknown format '" + s + "' (table, json, prometheus)");
        };
    }

    /**
     * camelCase to snake_case for metric and label names: {@code averageBatchSize} → {@code average_batch_size},
     * {@code PatternDb} → {@code pattern_db}, {@code tlsHandshakes} → {@code tls_handshakes}, an acronym stays
     * one word ({@code HTTPServer} → {@code http_server}); anything but ASCII letters and digits becomes {@code _}.
     */
    static String snake(String camel) {
        StringBuilder b = new StringBuilder(camel.length() + 8);
        for (int i = 0; i < camel.length(); i++) {
            char c = camel.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                char prev = i > 0 ? camel.charAt(i - 1) : '_';
                char next = i + 1 < camel.length() ? camel.charAt(i + 1) : '_';
                boolean wordStart = (prev >= 'a' && prev <= 'z') || (prev >= '0' && prev <= '9')
                        || (prev >= 'A' && prev <= 'Z' && next >= 'a' && next <= 'z');
                if (wordStart && b.length() > 0 && b.charAt(b.length() - 1) != '_') {
                    b.append('_');
                }
                b.append((char) (c + ('a' - 'A')));
            } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
                b.append(c);
            } else {
                b.append('_');
            }
        }
        return b.toString();
    }

    /** A label value as the text format wants it: backslash, double quote and line feed escaped. */
    static String label(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    /** A HELP text as the text format wants it: backslash and line feed escaped. */
    static String help(String v) {
        return v.replace("\\", "\\\\").replace("\n", "\\n");
    }

    private static String oneLine(String v) {
        return v.replace('\n', ' ').replace('\r', ' ');
    }
}
