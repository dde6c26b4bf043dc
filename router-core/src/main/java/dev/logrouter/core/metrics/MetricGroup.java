package dev.logrouter.core.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The metrics of one component, published as one MBean {@code dev.logrouter:type=<type>,name=<name>}.
 * Each metric is declared once, here, with its description; components keep the returned
 * {@link Counter}s and add to them on the hot path.
 *
 * <p>Threads: declared on the configuring thread before start; read by any thread.
 */
public final class MetricGroup {

    private final String type;
    private final String name;
    private final List<Metric> metrics = new ArrayList<>();
    private final Map<String, Counter> counters = new HashMap<>();
    private final List<Operation> operations = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<Text> texts = new ArrayList<>();

    /** A JMX operation without parameters that returns a text for the operator. */
    public record Operation(String name, String description, java.util.function.Supplier<String> action) {
    }

    /** A text attribute: a state name, the last error; read on JMX threads, so {@code value} must be thread-safe. */
    public record Text(String name, String description, java.util.function.Supplier<String> value) {
    }

    public MetricGroup(String type, String name) {
        this.type = type;
        this.name = name;
    }

    public String type() {
        return type;
    }

    public String name() {
        return name;
    }

    /**
     * Declares a counter, or returns the one already declared under that name (so that the per-thread
     * instances of one component share their counters).
     */
    public synchronized Counter counter(String metricName, String description) {
        Counter c = counters.get(metricName);
        if (c == null) {
            c = new Counter();
            counters.put(metricName, c);
            metrics.add(new Metric(metricName, description, true, c::get));
        }
        return c;
    }

    /**
     * Declares a gauge read from {@code value}; a gauge declared again under the same name replaces the first (the
     * component was rebuilt by a reload: the new instance's value is the one to read).
     */
    public synchronized void gauge(String metricName, String description, LongSupplier value) {
        metrics.removeIf(m -> !m.counter() && m.name().equals(metricName));
        metrics.add(new Metric(metricName, description, false, value));
    }

    /**
     * Declares a text attribute (a state, the last error); {@code value} must be cheap and thread-safe. Declared
     * again under the same name, it replaces the first (as {@link #gauge}).
     */
    public synchronized void text(String attributeName, String description, java.util.function.Supplier<String> value) {
        texts.removeIf(t -> t.name().equals(attributeName));
        texts.add(new Text(attributeName, description, value));
    }

    public synchronized List<Text> texts() {
        return List.copyOf(texts);
    }

    /**
     * Makes every counter of this group count from zero again (gauges and text attributes show current
     * values and are not touched); returns how many counters were reset. Any thread.
     */
    public synchronized int resetCounters() {
        counters.values().forEach(Counter::reset);
        return counters.size();
    }

    /**
     * Declares an operation ({@code reload}, {@code topRules}); the action runs on the JMX caller's thread
     * and returns what happened, or throws with a message for the operator.
     */
    public void operation(String operationName, String description, java.util.function.Supplier<String> action) {
        operations.removeIf(o -> o.name().equals(operationName));
        operations.add(new Operation(operationName, description, action));
    }

    public List<Operation> operations() {
        return Collections.unmodifiableList(operations);
    }

    public synchronized List<Metric> metrics() {
        return List.copyOf(metrics);
    }

    /** Cold path: the current value of a metric by name (tests, the stats command). */
    public long value(String metricName) {
        for (Metric m : metrics()) {
            if (m.name().equals(metricName)) {
                return m.value().getAsLong();
            }
        }
        throw new IllegalArgumentException("no metric " + metricName + " in " + type + "/" + name);
    }

    /** Cold path: the current value of a text attribute by name (tests, health checks). */
    public String textValue(String attributeName) {
        for (Text t : texts()) {
            if (t.name().equals(attributeName)) {
                return t.value().get();
            }
        }
        throw new IllegalArgumentException("no text " + attributeName + " in " + type + "/" + name);
    }
}
