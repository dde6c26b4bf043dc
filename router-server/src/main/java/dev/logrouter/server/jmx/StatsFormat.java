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
     * One family per type and attribute, {@code logrouter_<type>_<attribute>} in snake case, labelled
     * {@code name="<component>"}: counters get {@code _total} and {@code # TYPE counter}, gauges {@code gauge};
     * a text attribute becomes {@code logrouter_<type>_<attribute>_info{name=…,value="<text>"} 1}.
     */
    PROMETHEUS {
        @Override
        public String render(Stats stats) {
            Map<String, List<String>> samples = new LinkedHashMap<>();
            Map<String, String> headers = new LinkedHashMap<>();
            for (Stats.Bean b : stats.beans()) {
                for (Stats.Attr a : b.attributes()) {
                    String family = "logrouter_" + snake(b.type()) + "_" + snake(a.name());
                    String labels = "name=\"" + label(b.name()) + "\"";
                    String sample;
                    String type;
                    switch (a.kind()) {
                        case "counter" -> {
                            family += "_total";
                            type = "counter";
                            sample = family + "{" + labels + "} " + a.value();
                        }
                        case "text" -> {
                            family += "_info";
                            type = "gauge";
                            sample = family + "{" + labels + ",value=\"" + label(String.valueOf(a.value())) + "\"} 1";
                        }
                        default -> {
                            type = "gauge";
                            sample = family + "{" + labels + "} " + a.value();
                        }
                    }
                    headers.putIfAbsent(family, "# HELP " + family + " " + help(a.description()) + "\n# TYPE "
                            + family + " " + type + "\n");
                    samples.computeIfAbsent(family, f -> new ArrayList<>()).add(sample);
                }
            }
            StringBuilder out = new StringBuilder();
            for (Map.Entry<String, List<String>> e : samples.entrySet()) {
                out.append(headers.get(e.getKey()));
                e.getValue().forEach(s -> out.append(s).append('\n'));
            }
            return out.toString();
        }
    };

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

    /** {@code averageBatchSize} → {@code average_batch_size}, {@code PatternDb} → {@code pattern_db}. */
    static String snake(String camel) {
        StringBuilder b = new StringBuilder(camel.length() + 8);
        for (int i = 0; i < camel.length(); i++) {
            char c = camel.charAt(i);
            if (Character.isUpperCase(c)) {
                if (i > 0) {
                    b.append('_');
                }
                b.append(Character.toLowerCase(c));
            } else if (Character.isLetterOrDigit(c) && c < 128) {
                b.append(c);
            } else {
                b.append('_');
            }
        }
        return b.toString();
    }

    private static String label(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String help(String v) {
        return v.replace("\\", "\\\\").replace("\n", "\\n");
    }

    private static String oneLine(String v) {
        return v.replace('\n', ' ').replace('\r', ' ');
    }
}
