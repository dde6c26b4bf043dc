package dev.logrouter.core.source;

import com.lmax.disruptor.RingBuffer;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.util.SharedResources;

import java.time.ZoneId;
import java.util.function.LongSupplier;

/**
 * What a source gets when its config record builds it ({@link SourceConfig#create}).
 *
 * <p>Threads: immutable; built on the thread that assembles the router.
 *
 * @param name              the source's name, stamped on its events and naming its counters
 * @param index             the source's position in {@code sources:}, stamped on its events for {@code from:} routes
 * @param zone              the receiver's time zone
 * @param metrics           its metric group ({@code type=Source,name=<name>})
 * @param ring              the ring it publishes into, with {@link RingClaim}
 * @param completedSequence the highest ring sequence up to which every sink that took an event has flushed it (a
 *                          source that acknowledges upstream, like Kafka's offsets, acknowledges up to there)
 * @param ioThreads         {@code pipeline.io-threads}: the event-loop threads network sources share
 * @param shared            resources sources share (the network event loops), created by the first source that
 *                          asks, closed by the router after every source closed
 */
public record SourceContext(String name, int index, ZoneId zone, MetricGroup metrics, RingBuffer<LogEvent> ring,
                            LongSupplier completedSequence, int ioThreads, SharedResources shared) {
}
