package dev.logrouter.sinks.kafka;

import com.lmax.disruptor.RingBuffer;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.source.RingClaim;
import dev.logrouter.core.source.SequencePositions;
import dev.logrouter.core.source.Source;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.nio.charset.StandardCharsets;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Reads topics in a consumer group and publishes each record's value into the ring as one message (its format
 * per {@code format:}). At least once: a partition's offset is committed only up to records whose ring sequence
 * is completed, i.e. every sink the routes selected has flushed them (a Kafka sink: the broker acknowledged them). So a router that dies, or loses its partitions, leaves the rest to be read again.
 *
 * <p>Flow control: records are published without blocking; when the ring has no room the source pauses its
 * partitions (so {@code poll} keeps the group membership alive but fetches nothing) and resumes once everything
 * fetched is published. Rebalance: before partitions are taken away, records fetched from them and not yet
 * published are dropped (their next owner reads them), and the source waits up to {@code revoke-timeout} for the
 * sinks to flush what was published, then commits it synchronously. Stop: {@link #stopAccepting} stops fetching;
 * {@link #close}, called after the ring drained, commits what the sinks flushed and leaves the group.
 *
 * <p>Threads: the consumer is used only by this source's thread {@code kafka-<name>} (poll, publish, commit,
 * rebalance callbacks); lifecycle calls come from the router's thread and only set flags and wait.
 */
public final class KafkaSource implements Source {

    private static final Logger LOG = System.getLogger(KafkaSource.class.getName());
    private static final int MAX_BATCH = 256;
    private static final byte[] EMPTY = new byte[0];

    private final KafkaSourceConfig cfg;
    private final RingBuffer<LogEvent> ring;
    private final LongSupplier completed;
    private final int sourceId;
    private final byte[] sourceName;
    private final long sinkMask;
    private final int maxMessage;
    private final Function<Map<String, Object>, Consumer<byte[], byte[]>> consumerFactory;

    private final ArrayDeque<ConsumerRecord<byte[], byte[]>> fetched = new ArrayDeque<>();
    private final Map<TopicPartition, Published> published = new java.util.concurrent.ConcurrentHashMap<>();
    private final Set<TopicPartition> paused = new HashSet<>();
    private final CountDownLatch fetchingStopped = new CountDownLatch(1);
    private final CountDownLatch closed = new CountDownLatch(1);
    private Consumer<byte[], byte[]> consumer;
    private Thread thread;
    private volatile boolean stopFetching;
    private volatile boolean closing;
    private long lastCommitNanos;
    private volatile int assigned;
    /** Records in the assigned partitions not fetched yet, as the consumer last knew it; the consumer thread writes. */
    private volatile long lag;
    /** The tracker of the partition whose record was published last (see {@link #trackerFor}). */
    private Published lastTracker;

    private final Counter received;
    private final Counter bytes;
    private final Counter truncated;
    private final Counter commits;
    private final Counter commitFailures;
    private final Counter committedRecords;
    private final Counter rebalances;
    private final Counter revokedUnflushed;
    private final Counter droppedUnpublished;
    private final Counter errors;

    /**
     * @param completed the highest ring sequence up to which every sink that took an event has flushed it
     *                  ({@code Pipeline::completedSequence}): offsets are committed up to there
     */
    public KafkaSource(KafkaSourceConfig cfg, RingBuffer<LogEvent> ring, LongSupplier completed, int sourceId,
                       long sinkMask, MetricGroup metrics) {
        this(cfg, ring, completed, sourceId, sinkMask, metrics, KafkaConsumer::new);
    }

    KafkaSource(KafkaSourceConfig cfg, RingBuffer<LogEvent> ring, LongSupplier completed, int sourceId, long sinkMask,
                MetricGroup metrics, Function<Map<String, Object>, Consumer<byte[], byte[]>> consumerFactory) {
        this.cfg = cfg;
        this.ring = ring;
        this.completed = completed;
        this.sourceId = sourceId;
        this.sourceName = cfg.name().getBytes(StandardCharsets.UTF_8);
        this.sinkMask = sinkMask;
        this.maxMessage = (int) cfg.maxMessageSize().bytes();
        this.consumerFactory = consumerFactory;
        this.received = metrics.counter("received", "Records published into the ring.");
        this.bytes = metrics.counter("bytes", "Bytes of the record values published.");
        this.truncated = metrics.counter("truncated", "Record values longer than max-message-size, cut to it.");
        this.commits = metrics.counter("commits", "Offset commits sent.");
        this.commitFailures = metrics.counter("commitFailures", "Offset commits that failed (the records are read "
                + "again after a restart or rebalance).");
        this.committedRecords = metrics.counter("committedRecords", "Records whose offsets were committed after "
                + "every selected sink flushed them.");
        this.rebalances = metrics.counter("rebalances", "Partitions revoked or lost in a rebalance.");
        this.revokedUnflushed = metrics.counter("revokedUnflushed", "Records published but not flushed by the "
                + "sinks within revoke-timeout when their partition was taken away (their next owner reads them "
                + "again: duplicates).");
        this.droppedUnpublished = metrics.counter("droppedUnpublished", "Records fetched but not yet published "
                + "when their partition was taken away or the router stopped (not committed: read again).");
        this.errors = metrics.counter("errors", "Consumer errors (each logged; the source retries after 1 s, except after one that stops "
                + "its consumer thread).");
        metrics.gauge("assignedPartitions", "Partitions this router reads now.", () -> assigned);
        metrics.gauge("lag", "Records in this router's partitions not fetched yet (the consumer's last known end "
                + "offsets less its positions; partitions it knows no lag for yet count 0).", () -> lag);
        metrics.gauge("uncommitted", "Records published whose offsets are not committed yet.", this::uncommitted);
    }

    static Map<String, Object> consumerConfig(KafkaSourceConfig cfg) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cfg.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, cfg.groupId());
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "logrouter-" + cfg.name());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, cfg.startFrom());
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        p.putAll(cfg.properties());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return p;
    }

    @Override
    public String name() {
        return cfg.name();
    }

    @Override
    public void start() {
        consumer = consumerFactory.apply(consumerConfig(cfg)); // bad properties fail here, at startup
        Thread t = new Thread(this::run, "kafka-" + cfg.name());
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    @Override
    public String boundAddress() {
        return cfg.bootstrapServers();
    }

    /** The consumer's known lag summed over {@code parts}, without a request to the broker. Consumer thread. */
    private long lagOf(Set<TopicPartition> parts) {
        long sum = 0;
        for (TopicPartition tp : parts) {
            java.util.OptionalLong l = consumer.currentLag(tp);
            if (l.isPresent()) {
                sum += l.getAsLong();
            }
        }
        return sum;
    }

    private void run() {
        try {
            consumer.subscribe(cfg.topics(), new Rebalance());
            lastCommitNanos = System.nanoTime();
            while (!stopFetching) {
                try {
                    var records = consumer.poll(Duration.ofMillis(fetched.isEmpty() ? 100 : 5));
                    var assignment = consumer.assignment();
                    assigned = assignment.size();
                    lag = lagOf(assignment);
                    records.forEach(fetched::add);
                    publish();
                    if (fetched.isEmpty() && !paused.isEmpty()) {
                        consumer.resume(paused);
                        paused.clear();
                    } else if (!fetched.isEmpty() && paused.size() < assignment.size()) {
                        paused.addAll(assignment);
                        consumer.pause(paused);
                    }
                    commitFlushed(false);
                } catch (WakeupException e) {
                    throw e;
                } catch (org.apache.kafka.common.KafkaException e) {
                    // authorization, a deleted topic, ...: say so and try again (what was fetched is kept)
                    errors.inc();
                    LOG.log(Level.WARNING, "source " + cfg.name() + ": " + e + "; retrying in 1 s");
                    LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
                }
            }
            droppedUnpublished.add(fetched.size()); // not committed: read again after the restart
            fetched.clear();
            fetchingStopped.countDown();
            while (!closing) { // the ring drains: commit as the sinks flush
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                commitFlushed(false);
            }
            commitFlushed(true);
        } catch (WakeupException e) {
            // close() gave up waiting
        } catch (Throwable e) {
            errors.inc();
            LOG.log(Level.ERROR, "source " + cfg.name() + ": consumer stopped: " + e, e);
        } finally {
            fetchingStopped.countDown();
            try {
                consumer.close(Duration.ofSeconds(10));
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "source " + cfg.name() + ": closing the consumer: " + e);
            }
            closed.countDown();
        }
    }

    /** Publishes fetched records while the ring has room, in batches of one claim and one publish. */
    private void publish() {
        while (!fetched.isEmpty()) {
            int n = RingClaim.size(ring, fetched.size(), MAX_BATCH);
            long hi = RingClaim.tryClaim(ring, n);
            if (hi < 0) {
                return;
            }
            long lo = hi - n + 1;
            long now = System.currentTimeMillis();
            long seq = lo;
            long sum = 0;
            try {
                for (; seq <= hi; seq++) {
                    ConsumerRecord<byte[], byte[]> r = fetched.poll();
                    byte[] v = r.value() == null ? EMPTY : r.value();
                    int len = Math.min(v.length, maxMessage);
                    if (len < v.length) {
                        truncated.inc();
                    }
                    LogEvent e = ring.get(seq);
                    e.clear();
                    e.setRaw(v, 0, len);
                    e.setSource(sourceId, sourceName, cfg.format().hint(), sinkMask);
                    e.setReceivedMillis(now);
                    sum += len;
                    trackerFor(r).positions.add(seq, r.offset());
                }
            } finally {
                RingClaim.publish(ring, lo, hi, seq);
            }
            received.add(n);
            bytes.add(sum);
        }
    }

    /**
     * The tracker of a record's partition. A poll returns each partition's records together, so the last one is
     * kept: no TopicPartition and no map lookup per record.
     */
    private Published trackerFor(ConsumerRecord<byte[], byte[]> r) {
        Published p = lastTracker;
        if (p == null || p.partition != r.partition() || !p.topic.equals(r.topic())) {
            p = published.computeIfAbsent(new TopicPartition(r.topic(), r.partition()), Published::new);
            lastTracker = p;
        }
        return p;
    }

    /** Commits, per partition, the offsets after the last record every last stage has passed. */
    private void commitFlushed(boolean now) {
        long t = System.nanoTime();
        if (!now && t - lastCommitNanos < cfg.commitInterval().nanos()) {
            return;
        }
        lastCommitNanos = t;
        Map<TopicPartition, OffsetAndMetadata> offsets = flushedOffsets(published.keySet());
        if (offsets.isEmpty()) {
            return;
        }
        commits.inc();
        if (now) {
            commitSync(offsets);
        } else {
            consumer.commitAsync(offsets, (o, e) -> {
                if (e != null) {
                    commitFailures.inc();
                }
            });
        }
    }

    private void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
        try {
            consumer.commitSync(offsets, Duration.ofSeconds(30));
        } catch (RuntimeException e) {
            commitFailures.inc();
            LOG.log(Level.WARNING, "source " + cfg.name() + ": offset commit failed: " + e);
        }
    }

    private Map<TopicPartition, OffsetAndMetadata> flushedOffsets(Collection<TopicPartition> parts) {
        long done = completed.getAsLong();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : parts) {
            Published p = published.get(tp);
            if (p == null) {
                continue;
            }
            int n = p.positions.popDone(done);
            if (n > 0) {
                committedRecords.add(n);
                offsets.put(tp, new OffsetAndMetadata(p.positions.lastDonePosition() + 1));
            }
        }
        return offsets;
    }

    private long uncommitted() {
        long n = 0;
        for (Published p : published.values().toArray(new Published[0])) {
            n += p.positions.size();
        }
        return n;
    }

    @Override
    public void stopAccepting() {
        stopFetching = true;
    }

    @Override
    public boolean awaitPublished(long timeout, TimeUnit unit) throws InterruptedException {
        stopFetching = true;
        return thread == null || fetchingStopped.await(timeout, unit); // never started: nothing to wait for
    }

    /**
     * Commits what the sinks flushed and leaves the group. Called after the ring drained (then every record
     * published is committed) or on a forced stop.
     */
    @Override
    public void close() {
        stopFetching = true;
        closing = true;
        Thread t = thread;
        if (t == null) {
            return;
        }
        try {
            if (!closed.await(60, TimeUnit.SECONDS)) {
                consumer.wakeup();
                closed.await(15, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Rebalance callbacks: on the source's thread, inside {@code poll}. */
    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> parts) {
            if (parts.isEmpty()) {
                return;
            }
            rebalances.inc();
            dropFetched(parts);
            long last = -1;
            for (TopicPartition tp : parts) {
                Published p = published.get(tp);
                if (p != null && !p.positions.isEmpty()) {
                    last = Math.max(last, p.positions.lastSeq());
                }
            }
            long deadline = System.nanoTime() + cfg.revokeTimeout().nanos();
            while (last >= 0 && completed.getAsLong() < last && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            Map<TopicPartition, OffsetAndMetadata> offsets = flushedOffsets(parts);
            if (!offsets.isEmpty()) {
                commits.inc();
                commitSync(offsets);
            }
            forget(parts);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> parts) {
            rebalances.inc();
            dropFetched(parts);
            forget(parts);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> parts) {
            // positions come from the group's committed offsets
        }

        private void dropFetched(Collection<TopicPartition> parts) {
            for (Iterator<ConsumerRecord<byte[], byte[]>> it = fetched.iterator(); it.hasNext(); ) {
                ConsumerRecord<byte[], byte[]> r = it.next();
                if (parts.contains(new TopicPartition(r.topic(), r.partition()))) {
                    it.remove();
                    droppedUnpublished.inc();
                }
            }
            paused.removeAll(parts);
        }

        private void forget(Collection<TopicPartition> parts) {
            lastTracker = null;
            for (TopicPartition tp : parts) {
                Published p = published.remove(tp);
                if (p != null) {
                    revokedUnflushed.add(p.positions.size());
                }
            }
        }
    }

    /**
     * The (ring sequence, offset) pairs published from one partition and not yet committed, oldest first. Both
     * grow along the queue: this thread publishes a partition's records in offset order.
     */
    private static final class Published {
        final String topic;
        final int partition;
        /** Ring sequence → record offset of each record published from the partition. */
        final SequencePositions positions = new SequencePositions();

        Published(TopicPartition tp) {
            this.topic = tp.topic();
            this.partition = tp.partition();
        }
    }
}
