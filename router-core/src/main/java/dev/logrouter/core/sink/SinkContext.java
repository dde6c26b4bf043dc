package dev.logrouter.core.sink;

import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.util.Clock;

import java.time.ZoneId;

/**
 * What a sink gets when its config record builds it ({@link SinkConfig#create}): its name, the receiver's time zone
 * (for templates), the clock it reads (tests move a manual one), its metric group ({@code type=Sink,name=<name>})
 * its dead-letter file, shared with the handler that gives items up after {@code max-retries}, and the router-wide
 * journal settings ({@link JournalSpace}).
 *
 * <p>Threads: immutable; built on the thread that assembles the router.
 */
public record SinkContext(String name, ZoneId zone, Clock clock, MetricGroup metrics, DeadLetterFile deadLetters,
                          JournalSpace journals) {

    /** A context with the default journal settings ({@link JournalSpace#defaults}). */
    public SinkContext(String name, ZoneId zone, Clock clock, MetricGroup metrics, DeadLetterFile deadLetters) {
        this(name, zone, clock, metrics, deadLetters, JournalSpace.defaults());
    }
}
