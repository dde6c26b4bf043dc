package dev.logrouter.core.metrics;

import java.util.function.LongSupplier;

/**
 * One named, documented number of a component, read through {@code value}.
 *
 * <p>Threads: immutable; {@code value} is read by JMX threads.
 *
 * @param name        attribute name as JMX shows it (camelCase, e.g. {@code received})
 * @param description one sentence saying what it counts
 * @param counter     true for a monotonically increasing count, false for a gauge
 * @param value       reads the current value; must be cheap and thread-safe
 */
public record Metric(String name, String description, boolean counter, LongSupplier value) {
}
