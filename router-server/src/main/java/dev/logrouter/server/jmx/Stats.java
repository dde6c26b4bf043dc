package dev.logrouter.server.jmx;

import dev.logrouter.core.metrics.Metric;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.metrics.MetricRegistry;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import javax.management.Attribute;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;

/**
 * One reading of every logrouter metric group: for each its type, name, and attributes in declaration order with
 * their kind (counter, gauge, text) and description. Read either over a JMX connection ({@link #read}: the
 * {@code stats} command; it reads MBeanInfo and values only, so it needs none of the router's classes on the other
 * side) or in process from the router's {@link MetricRegistry} ({@link #of}: the HTTP {@code /metrics}); both give
 * the same beans, names and values, so that {@link StatsFormat} renders them alike.
 *
 * <p>Threads: built and read by one thread (the stats command, or an HTTP thread).
 *
 * @param beans sorted in data-flow order: Router, Source, Ring, Stage, Routes, Route, Parser, PatternDb, Sink
 */
public record Stats(List<Bean> beans) {

    /** The data-flow order of MBean types; unknown types sort after these, by name. */
    private static final List<String> TYPE_ORDER = List.of("Router", "Source", "Ring", "Stage", "Routes", "Route",
            "Parser", "PatternDb", "Sink");

    /** One MBean. */
    public record Bean(String type, String name, List<Attr> attributes) {
    }

    /**
     * One attribute.
     *
     * @param kind  {@code counter}, {@code gauge} or {@code text}
     * @param value a Long for counters and gauges, a String for texts
     */
    public record Attr(String name, String kind, String description, Object value) {
    }

    /**
     * Reads every group of {@code registry} in process, as {@link #read} would read their MBeans: names as their
     * object names carry them, a gauge that throws left out (as the MBean's {@code getAttributes} leaves it out),
     * a null text as empty. Any thread.
     */
    public static Stats of(MetricRegistry registry) {
        List<Bean> beans = new ArrayList<>();
        for (MetricGroup g : registry.groups()) {
            List<Attr> attrs = new ArrayList<>();
            for (Metric m : g.metrics()) {
                try {
                    attrs.add(new Attr(m.name(), m.counter() ? "counter" : "gauge", m.description(),
                            m.value().getAsLong()));
                } catch (RuntimeException e) {
                    // one failing gauge must not hide all the others
                }
            }
            for (MetricGroup.Text t : g.texts()) {
                String v;
                try {
                    v = t.value().get();
                } catch (RuntimeException e) {
                    continue;
                }
                attrs.add(new Attr(t.name(), "text", t.description(), v == null ? "" : v));
            }
            beans.add(new Bean(g.type(), objectNameOf(g), List.copyOf(attrs)));
        }
        return sorted(beans);
    }

    /** The {@code name} key of the group's object name (what a JMX reader sees), which may differ from its name. */
    private static String objectNameOf(MetricGroup g) {
        try {
            return MetricRegistry.objectName(g.type(), g.name()).getKeyProperty("name");
        } catch (JMException e) {
            return g.name();
        }
    }

    /** Reads every logrouter MBean; throws IOException when the connection fails. */
    public static Stats read(MBeanServerConnection c) throws IOException, JMException {
        List<Bean> beans = new ArrayList<>();
        for (ObjectName on : c.queryNames(new ObjectName(MetricRegistry.DOMAIN + ":*"), null)) {
            MBeanInfo info = c.getMBeanInfo(on);
            MBeanAttributeInfo[] declared = info.getAttributes();
            String[] names = new String[declared.length];
            for (int i = 0; i < declared.length; i++) {
                names[i] = declared[i].getName();
            }
            Map<String, Object> values = new java.util.HashMap<>();
            for (Attribute a : c.getAttributes(on, names).asList()) {
                values.put(a.getName(), a.getValue());
            }
            List<Attr> attrs = new ArrayList<>();
            for (MBeanAttributeInfo a : declared) {
                if (!values.containsKey(a.getName())) {
                    continue; // gone between the two calls
                }
                Object kind = a.getDescriptor().getFieldValue("metricType");
                String k = kind != null ? kind.toString() : a.getType().equals("java.lang.String") ? "text" : "gauge";
                attrs.add(new Attr(a.getName(), k, a.getDescription(), values.get(a.getName())));
            }
            beans.add(new Bean(String.valueOf(on.getKeyProperty("type")), String.valueOf(on.getKeyProperty("name")),
                    List.copyOf(attrs)));
        }
        return sorted(beans);
    }

    private static Stats sorted(List<Bean> beans) {
        beans.sort(Comparator.comparingInt((Bean b) -> {
            int i = TYPE_ORDER.indexOf(b.type());
            return i < 0 ? TYPE_ORDER.size() : i;
        }).thenComparing(Bean::type).thenComparing(Bean::name));
        return new Stats(List.copyOf(beans));
    }
}
