package dev.logrouter.core.parse;

import dev.logrouter.core.metrics.MetricGroup;

import java.time.ZoneId;

/**
 * What a parser step gets when it is built: its name, the receiver's time zone (for templates) and its
 * metric group ({@code type=Parser,name=<name>}), shared by the instances of the step in every worker so
 * that their counters add up.
 *
 * <p>Threads: immutable.
 */
public record ParseContext(String name, String type, ZoneId zone, MetricGroup metrics) {
}
