package dev.logrouter.sinks.kafka;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.RenderedName;
import dev.logrouter.core.template.Template;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes each event as one Kafka record: topic, key, value and headers rendered from templates. A record counts as
 * written only when the broker acknowledged it: {@link #flush} hands the batch's last records to the network
 * ({@code producer.flush()}) and returns only when every record of the batch is acknowledged, so the sink's ring
 * sequence (and with it a {@code kafka} source's committed offsets) never passes a record that could still be lost.
 * The producer sends records on its own meanwhile ({@code linger.ms} = {@code flush-timeout}), so a batch ends by
 * size or age ({@code batch-size}, {@code ack-interval}), not each time the ring runs dry ({@link KafkaSinkConfig#flushPolicy()}): the wait at its end is for
 * the last records only, not one round trip per burst.
 *
 * <p>Outcomes per record, decided in the producer's delivery callback:
 * <ul>
 *   <li>acknowledged: counted {@code acked};</li>
 *   <li>a failure the broker will never accept (record too large, invalid record or topic, not authorized):
 *       written to the dead-letter file with the reason, counted, and the batch goes on;</li>
 *   <li>any other failure (timeouts, a broker down, leader changes after the producer's own retries ran out for
 *       {@code delivery-timeout}): the record is kept, {@code flush} throws, and the sink handler retries the
 *       flush with backoff, sending the kept records again: the ring stays held (backpressure), nothing is
 *       dropped. A record sent again may already be in the topic (its acknowledgement was what got lost): the
 *       resend is counted ({@code resent}), the topic may hold it twice. A producer left unusable (fenced,
 *       closed) is replaced before the resend.</li>
 * </ul>
 *
 * <p>Allocation: one {@link ProducerRecord} and its key/value arrays per event (the producer keeps them until the
 * acknowledgement); the callbacks are reused batch after batch.
 *
 * <p>Threads: every {@link Sink} method on the sink's thread; delivery callbacks on the producer's I/O thread
 * (they write only the record's own slot and striped counters, and {@code flush} reads the slots after
 * {@code producer.flush()}, which returns after every callback ran); {@link #abort} from any thread.
 */
public final class KafkaSink implements Sink {

    /** Longest topic name Kafka accepts. */
    static final int MAX_TOPIC = 249;

    private final KafkaSinkConfig cfg;
    private final Map<String, Object> producerConfig;
    private final Template topicTemplate;
    private final Template keyTemplate;
    private final Template valueTemplate;
    private final String[] headerNames;
    private final Template[] headerTemplates;
    private final DeadLetterFile deadLetters;
    private final ByteBuilder buf = new ByteBuilder(1024);
    private final RenderedName topicName = new RenderedName();

    private final List<Slot> slots = new ArrayList<>();
    private int count;
    private volatile Producer<byte[], byte[]> producer;
    private volatile boolean aborted;
    private boolean replaceProducer;
    private boolean sendFailed;

    private final Counter sent;
    private final Counter acked;
    private final Counter failed;
    private final Counter resent;
    private final Counter producersReplaced;

    public KafkaSink(KafkaSinkConfig cfg, ZoneId zone, MetricGroup metrics) {
        this(cfg, zone, metrics, new DeadLetterFile(cfg.name(), cfg.deadLetter(), metrics));
    }

    /** @param deadLetters the sink's dead-letter file (shared with its handler, for items given up) */
    public KafkaSink(KafkaSinkConfig cfg, ZoneId zone, MetricGroup metrics, DeadLetterFile deadLetters) {
        this.cfg = cfg;
        this.producerConfig = producerConfig(cfg);
        new ProducerConfig(producerConfig); // a bad property fails the router's start, not the sink thread forever
        this.topicTemplate = Template.compile(cfg.topic(), zone);
        this.keyTemplate = cfg.key() == null ? null : Template.compile(cfg.key(), zone);
        this.valueTemplate = Template.compile(cfg.template(), zone);
        this.headerNames = cfg.headers().keySet().toArray(new String[0]);
        this.headerTemplates = new Template[headerNames.length];
        for (int i = 0; i < headerNames.length; i++) {
            headerTemplates[i] = Template.compile(cfg.headers().get(headerNames[i]), zone);
        }
        this.deadLetters = deadLetters;
        this.sent = metrics.counter("sent", "Records handed to the producer (resends included).");
        this.acked = metrics.counter("acked", "Records the broker acknowledged.");
        this.failed = metrics.counter("failed", "Records whose delivery failed (each is then resent or "
                + "dead-lettered).");
        this.resent = metrics.counter("resent", "Records sent again after a failed delivery (the topic may hold "
                + "some of them twice).");
        this.producersReplaced = metrics.counter("producersReplaced", "Producers closed and created again after "
                + "a failure that left them unusable.");
        metrics.gauge("inFlight", "Records sent and not yet acknowledged or failed (sent - acked - failed).",
                () -> {
                    long done = acked.total() + failed.total(); // read first: a send is counted before its callback
                    return sent.total() - done;
                });
        metrics.gauge("producerRetries", "Retries the producer made by itself (record-retry-total).",
                () -> (long) producerMetric("record-retry-total"));
        metrics.gauge("recordQueueTimeAvgMicros", "Average time a record waited in the producer before it was "
                + "sent, in microseconds (record-queue-time-avg).",
                () -> (long) (producerMetric("record-queue-time-avg") * 1000));
        metrics.gauge("requestLatencyAvgMicros", "Average produce request latency in microseconds "
                + "(request-latency-avg).", () -> (long) (producerMetric("request-latency-avg") * 1000));
    }

    /** The producer properties: the options, then {@code properties:} on top. */
    static Map<String, Object> producerConfig(KafkaSinkConfig cfg) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cfg.bootstrapServers());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "logrouter-" + cfg.name());
        p.put(ProducerConfig.ACKS_CONFIG, cfg.acks().equals("-1") ? "all" : cfg.acks());
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, cfg.idempotence().toString());
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, cfg.compression().toLowerCase(java.util.Locale.ROOT));
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString((int) Math.min(Integer.MAX_VALUE,
                cfg.batchBytes().bytes())));
        p.put(ProducerConfig.LINGER_MS_CONFIG, Long.toString(cfg.flushTimeout().millis()));
        long delivery = cfg.deliveryTimeout().millis();
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(delivery));
        // how long send() waits for metadata (brokers away): at most the delivery timeout
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(Math.min(delivery, 60_000)));
        // delivery.timeout.ms must be >= linger.ms + request.timeout.ms
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                Long.toString(Math.max(1, Math.min(30_000, delivery - cfg.flushTimeout().millis()))));
        p.putAll(cfg.properties());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return p;
    }

    @Override
    public void start() {
        producer = new KafkaProducer<>(producerConfig);
    }

    @Override
    public long append(LogEvent event) {
        String topic = topic(event);
        byte[] key = null;
        if (keyTemplate != null) {
            buf.reset();
            keyTemplate.render(event, buf);
            key = buf.length() == 0 ? null : Arrays.copyOf(buf.array(), buf.length());
        }
        buf.reset();
        valueTemplate.render(event, buf);
        byte[] value = Arrays.copyOf(buf.array(), buf.length());
        Slot s = slot(count++);
        s.record = new ProducerRecord<>(topic, null, null, key, value);
        for (int i = 0; i < headerTemplates.length; i++) { // added to the record's own header list: no list of ours
            buf.reset();
            headerTemplates[i].render(event, buf);
            if (buf.length() > 0) {
                s.record.headers().add(headerNames[i], Arrays.copyOf(buf.array(), buf.length()));
            }
        }
        if (sendFailed) {
            s.sent = false; // the producer just failed a send at once (no metadata, closed): flush sends it
            s.error = null;
        } else {
            send(s);
        }
        return value.length + (key == null ? 0 : key.length);
    }

    private Slot slot(int i) {
        if (i == slots.size()) {
            slots.add(new Slot());
        }
        return slots.get(i);
    }

    /** The rendered topic, made a valid topic name; the previous record's String when the bytes are the same. */
    private String topic(LogEvent event) {
        buf.reset();
        topicTemplate.render(event, buf);
        byte[] b = buf.array();
        int n = Math.min(buf.length(), MAX_TOPIC);
        for (int i = 0; i < n; i++) {
            byte c = b[i];
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
                    || c == '-')) {
                b[i] = '_';
            }
        }
        if (n == 0) {
            b[n++] = '_';
        } else if (n <= 2 && b[0] == '.' && (n == 1 || b[1] == '.')) {
            b[0] = '_'; // "." and ".." are not topic names
        }
        return topicName.of(b, 0, n);
    }

    private void send(Slot s) {
        s.error = null;
        s.sent = true;
        sent.inc();
        try {
            producer.send(s.record, s);
        } catch (RuntimeException e) {
            // thrown rather than called back: the producer is closed or broken (interrupts, fatal state)
            s.onCompletion(null, e);
            replaceProducer = !aborted;
        }
        if (s.error != null && !neverWritable(s.error)) {
            // failed before it was queued (typically no metadata after max.block.ms with the brokers away):
            // the batch's next records are not offered to this producer until the next flush, so a broker outage
            // costs one max.block.ms wait per flush attempt, not one per record
            sendFailed = true;
        }
    }

    @Override
    public void flush() throws Exception {
        sendFailed = false;
        for (int i = 0; i < count && !sendFailed; i++) {
            Slot s = slots.get(i);
            if (!s.sent) {
                resent.inc();
                send(s);
            }
        }
        producer.flush(); // every callback of the batch has run when it returns
        int kept = 0;
        Exception first = null;
        for (int i = 0; i < count; i++) {
            Slot s = slots.get(i);
            Exception e = s.error;
            if (s.sent && e == null) {
                s.record = null;
                continue;
            }
            if (e != null && neverWritable(e)) {
                deadLetters.write(s.record.topic(), e.getClass().getSimpleName() + ": " + e.getMessage(),
                        s.record.key(), s.record.value(), 0, s.record.value().length);
                s.record = null;
                continue;
            }
            if (e != null && first == null) {
                first = e;
            }
            if (e != null && !(e instanceof RetriableException)) {
                replaceProducer = !aborted;
            }
            s.sent = false;
            // keep it: move it to the front, where the next flush sends it again
            slots.set(i, slots.get(kept));
            slots.set(kept++, s);
        }
        count = kept;
        sendFailed = false;
        if (kept > 0) {
            replaceBrokenProducer();
            throw new KafkaDeliveryException(kept + " record(s) not acknowledged, kept to send again: " + first,
                    first);
        }
    }

    /** A producer left unusable by a failure (fenced, closed) is replaced before the next send. */
    private void replaceBrokenProducer() {
        if (replaceProducer && !aborted) {
            replaceProducer = false;
            producersReplaced.inc();
            Producer<byte[], byte[]> old = producer;
            producer = new KafkaProducer<>(producerConfig);
            old.close(Duration.ZERO);
        }
    }

    /**
     * The handler gave the batch up (max-retries): every record not acknowledged is dead-lettered with the reason
     * (a record whose send is still out may reach the topic as well), and the batch is empty. The slots are dropped,
     * not reused, so that a late callback of an abandoned send touches nothing of the next batch.
     */
    @Override
    public void deadLetterBatch(DeadLetterFile letters, String reason) {
        for (int i = 0; i < count; i++) {
            ProducerRecord<byte[], byte[]> r = slots.get(i).record;
            if (r != null) {
                letters.write(r.topic(), reason, r.key(), r.value(), 0, r.value().length);
            }
        }
        slots.clear();
        count = 0;
        sendFailed = false;
        replaceBrokenProducer();
    }

    /** Failures the broker will give again however often the record is sent. */
    static boolean neverWritable(Exception e) {
        return e instanceof RecordTooLargeException || e instanceof RecordBatchTooLargeException
                || e instanceof InvalidRecordException || e instanceof InvalidTopicException
                || e instanceof TopicAuthorizationException || e instanceof SerializationException;
    }

    @Override
    public void abort() {
        aborted = true;
        Producer<byte[], byte[]> p = producer;
        if (p != null) {
            p.close(Duration.ZERO); // fails what is in flight: a blocked flush returns
        }
    }

    @Override
    public void close() throws Exception {
        if (count > 0 && !aborted) {
            flush(); // throws while records are unacknowledged: the handler retries close, producer still open
        }
        Producer<byte[], byte[]> p = producer;
        if (p != null) {
            p.close(aborted ? Duration.ZERO : Duration.ofSeconds(30));
        }
        deadLetters.close();
    }

    private double producerMetric(String metric) {
        Producer<byte[], byte[]> p = producer;
        if (p == null) {
            return 0;
        }
        for (Map.Entry<MetricName, ? extends Metric> e : p.metrics().entrySet()) {
            if (e.getKey().name().equals(metric) && e.getKey().group().equals("producer-metrics")) {
                Object v = e.getValue().metricValue();
                return v instanceof Number n && !Double.isNaN(n.doubleValue()) ? n.doubleValue() : 0;
            }
        }
        return 0;
    }

    /** One record of the current batch and its delivery callback, reused batch after batch. */
    private final class Slot implements Callback {
        ProducerRecord<byte[], byte[]> record;
        volatile Exception error;
        boolean sent;

        @Override
        public void onCompletion(RecordMetadata metadata, Exception exception) {
            if (exception == null) {
                acked.inc();
            } else {
                error = exception;
                failed.inc();
            }
        }
    }
}
