package dev.logrouter.sinks.kafka;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.SinkDelivery;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.RenderedName;
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
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The delivery half of the Kafka sink: each record from {@link KafkaEncoder} becomes one {@link ProducerRecord},
 * handed to the producer as it is {@link #add added}. A record counts as taken only when the broker acknowledged it:
 * {@link #flush} hands the batch's last records to the network
 * ({@code producer.flush()}) and returns only when every record of the batch is acknowledged, so the sink's ring
 * sequence (and with it a {@code kafka} source's committed offsets) never passes a record that could still be lost;
 * with {@code buffer: journal} the journal's cursor moves only past acknowledged records.
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
 * <p>Allocation: none of ours per record. The batch's encoded records are kept in one reused buffer until they are
 * acknowledged (a resend reads them there). The producer copies a record's key and value into its own batch inside
 * {@code send()}, but takes them only as arrays of their exact length: the {@link PartSerializer}s hand it one reused
 * array per length (up to {@value #REUSED_MAX} bytes; longer ones get an array each). Records without headers go
 * through one reused {@link ProducerRecord} per topic whose key and value are mutable {@link Part}s; a record with
 * headers gets its own (the producer makes a record's headers read-only). The topic String is made only when it
 * changes; the callbacks are reused batch after batch. (The producer itself still allocates a few objects per
 * record: its future, callback wrapper and batch thunk.)
 *
 * <p>Threads: every method but {@link #abort} on one thread (the sink's, {@code sink-<name>}, with {@code buffer:
 * memory}; {@code deliver-<name>} with {@code buffer: journal}); delivery callbacks on the producer's I/O thread
 * (they write only the record's own slot and striped counters, and {@code flush} reads the slots after
 * {@code producer.flush()}, which returns after every callback ran); {@link #abort} from any thread.
 */
final class KafkaDelivery implements SinkDelivery {

    /** Longest key or value the serializers hand over in a reused array of its length (at most ~2 MB kept per part). */
    static final int REUSED_MAX = 2048;

    private final KafkaSinkConfig cfg;
    private final Map<String, Object> producerConfig;
    private final DeadLetterFile deadLetters;
    private final RenderedName topicName = new RenderedName();
    private final List<RenderedName> headerNames = new ArrayList<>();
    private final PartSerializer keySerializer = new PartSerializer();
    private final PartSerializer valueSerializer = new PartSerializer();

    /** The batch's records as {@link KafkaEncoder} framed them, each kept until acknowledged or dead-lettered. */
    private final ByteBuilder kept = new ByteBuilder(1 << 16);
    private final List<Slot> slots = new ArrayList<>();
    private int count;
    /** The key and value of the record being sent: views into {@link #kept}, read by the serializers in send(). */
    private final Part key = new Part();
    private final Part value = new Part();
    /** The reused records (without headers) of the last topic, with and without a key. */
    private ProducerRecord<Part, Part> keyed;
    private ProducerRecord<Part, Part> keyless;
    private volatile Producer<Part, Part> producer;
    private volatile boolean aborted;
    private boolean replaceProducer;
    private boolean sendFailed;

    private final Counter sent;
    private final Counter acked;
    private final Counter failed;
    private final Counter resent;
    private final Counter producersReplaced;

    /** @param deadLetters the sink's dead-letter file (shared with its handler, for items given up) */
    KafkaDelivery(KafkaSinkConfig cfg, MetricGroup metrics, DeadLetterFile deadLetters) {
        this.cfg = cfg;
        this.producerConfig = producerConfig(cfg);
        new ProducerConfig(withSerializers(producerConfig)); // a bad property fails the router's start, not the sink
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
        // each partition's open batch takes batch-bytes of the producer's buffer memory: room for 64 of them (at
        // least the producer's own 32 MiB), so that keyed records spread over many partitions do not make send()
        // wait for memory; it is taken only as batches need it
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(Math.max(32L << 20, 64 * cfg.batchBytes().bytes())));
        long delivery = cfg.deliveryTimeout().millis();
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(delivery));
        // how long send() waits for metadata (brokers away): at most the delivery timeout
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(Math.min(delivery, 60_000)));
        // delivery.timeout.ms must be >= linger.ms + request.timeout.ms
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                Long.toString(Math.max(1, Math.min(30_000, delivery - cfg.flushTimeout().millis()))));
        p.putAll(cfg.properties());
        p.remove(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG); // the sink's own serializers are passed as instances
        p.remove(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG);
        return p;
    }

    /** {@code p} with serializer classes named, as {@link ProducerConfig} wants them for validation only. */
    private static Map<String, Object> withSerializers(Map<String, Object> p) {
        Map<String, Object> v = new HashMap<>(p);
        v.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, PartSerializer.class.getName());
        v.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, PartSerializer.class.getName());
        return v;
    }

    private Producer<Part, Part> newProducer() {
        return new KafkaProducer<>(producerConfig, keySerializer, valueSerializer);
    }

    @Override
    public void start() {
        producer = newProducer();
    }

    /** Keeps the record (framing: {@link KafkaEncoder}) and hands it to the producer. */
    @Override
    public void add(byte[] r, int off, int len) {
        checkFraming(r, off, len);
        int topicLen = r[off] & 0xFF;
        String topic = topicName.of(r, off + 1, topicLen);
        Slot s = slot(count++);
        s.topic = topic;
        s.at = kept.length();
        s.length = len;
        kept.append(r, off, len);
        if (sendFailed) {
            s.sent = false; // the producer just failed a send at once (no metadata, closed): flush sends it
            s.error = null;
        } else {
            send(s);
        }
    }

    /**
     * Throws when {@code r[off, off + len)} is not a record as {@link KafkaEncoder} frames it (only a damaged journal
     * hands such bytes over): the add fails, so the handler retries or dead-letters that one record, instead of its
     * send failing inside the producer batch after batch.
     */
    static void checkFraming(byte[] r, int off, int len) {
        int end = off + len;
        int p = off + 1 + (len > 0 ? r[off] & 0xFF : 0);
        boolean ok = len > 0 && (r[off] & 0xFF) > 0 && p + 4 <= end;
        if (ok) {
            int keyLen = ByteBuilder.getInt(r, p);
            p += 4 + Math.max(0, keyLen);
            ok = keyLen >= -1 && p < end;
            int headers = ok ? r[p++] & 0xFF : 0;
            for (int i = 0; ok && i < headers; i++) {
                ok = p + 2 <= end;
                if (ok) {
                    p += 2 + ((r[p] & 0xFF) << 8 | (r[p + 1] & 0xFF));
                    ok = p + 4 <= end;
                }
                if (ok) {
                    int valueLen = ByteBuilder.getInt(r, p);
                    p += 4 + valueLen;
                    ok = valueLen >= 0 && p <= end;
                }
            }
        }
        if (!ok) {
            throw new IllegalArgumentException("not a Kafka sink record (its framing does not fit its " + len
                    + " bytes)");
        }
    }

    /** The producer record of slot {@code s}: {@link #key} and {@link #value} are pointed at its bytes. */
    private ProducerRecord<Part, Part> record(Slot s) {
        byte[] r = kept.array();
        int p = s.at + 1 + (r[s.at] & 0xFF);
        int keyLen = ByteBuilder.getInt(r, p);
        p += 4;
        s.keyed = keyLen >= 0;
        if (s.keyed) {
            key.set(r, p, keyLen);
            p += keyLen;
        }
        int headers = r[p++] & 0xFF;
        int headersAt = p;
        for (int i = 0; i < headers; i++) {
            p += 2 + ((r[p] & 0xFF) << 8 | (r[p + 1] & 0xFF));
            p += 4 + ByteBuilder.getInt(r, p);
        }
        value.set(r, p, s.at + s.length - p);
        Part k = keyLen >= 0 ? key : null;
        if (headers == 0) {
            ProducerRecord<Part, Part> reused = k == null ? keyless : keyed;
            if (reused == null || !reused.topic().equals(s.topic)) { // same String while the topic does not change
                reused = new ProducerRecord<>(s.topic, null, null, k, value);
                if (k == null) {
                    keyless = reused;
                } else {
                    keyed = reused;
                }
            }
            return reused;
        }
        RecordHeaders h = new RecordHeaders();
        for (int i = 0, q = headersAt; i < headers; i++) {
            int nameLen = (r[q] & 0xFF) << 8 | (r[q + 1] & 0xFF);
            String name = headerName(i).of(r, q + 2, nameLen);
            q += 2 + nameLen;
            int valueLen = ByteBuilder.getInt(r, q);
            h.add(name, java.util.Arrays.copyOfRange(r, q + 4, q + 4 + valueLen));
            q += 4 + valueLen;
        }
        return new ProducerRecord<>(s.topic, null, null, k, value, h);
    }

    /** The name cache of the i-th header of a record: names repeat record after record, Strings are made once. */
    private RenderedName headerName(int i) {
        while (headerNames.size() <= i) {
            headerNames.add(new RenderedName());
        }
        return headerNames.get(i);
    }

    private Slot slot(int i) {
        if (i == slots.size()) {
            slots.add(new Slot());
        }
        return slots.get(i);
    }

    private void send(Slot s) {
        s.error = null;
        s.sent = true;
        sent.inc();
        try {
            producer.send(record(s), s); // the key and value are copied into the producer's batch before it returns
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
        int pending = 0;
        Exception first = null;
        for (int i = 0; i < count; i++) {
            Slot s = slots.get(i);
            Exception e = s.error;
            if (s.sent && e == null) {
                continue;
            }
            if (e != null && neverWritable(e)) {
                deadLetter(deadLetters, s, e.getClass().getSimpleName() + ": " + e.getMessage());
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
            slots.set(i, slots.get(pending));
            slots.set(pending++, s);
        }
        count = pending;
        sendFailed = false;
        compact();
        if (pending > 0) {
            replaceBrokenProducer();
            throw new KafkaDeliveryException(pending + " record(s) not acknowledged, kept to send again: " + first,
                    first);
        }
    }

    /**
     * Moves the records still pending (slots {@code [0, count)}, in the order they were added: their bytes lie in
     * {@link #kept} in that order) to the front of the buffer, so that it does not grow while a destination is away.
     */
    private void compact() {
        int w = 0;
        byte[] b = kept.array();
        for (int i = 0; i < count; i++) {
            Slot s = slots.get(i);
            System.arraycopy(b, s.at, b, w, s.length); // w <= s.at: moves left, overlap-safe
            s.at = w;
            w += s.length;
        }
        kept.setLength(w);
    }

    /** Writes slot {@code s}'s record (topic, key, value) to {@code letters} with {@code reason}. */
    private void deadLetter(DeadLetterFile letters, Slot s, String reason) {
        record(s);
        byte[] k = s.keyed ? java.util.Arrays.copyOfRange(key.array, key.off, key.off + key.length) : null;
        letters.write(s.topic, reason, k, value.array, value.off, value.length);
    }

    /** A producer left unusable by a failure (fenced, closed) is replaced before the next send. */
    private void replaceBrokenProducer() {
        if (replaceProducer && !aborted) {
            replaceProducer = false;
            producersReplaced.inc();
            Producer<Part, Part> old = producer;
            producer = newProducer();
            old.close(Duration.ZERO);
        }
    }

    /**
     * The handler gave the batch up (max-retries): every record not acknowledged is dead-lettered with the reason
     * (a record whose send is still out may reach the topic as well), and the batch is empty. The slots are dropped,
     * not reused, so that a late callback of an abandoned send touches nothing of the next batch.
     */
    @Override
    public void deadLetterPending(DeadLetterFile letters, String reason) {
        for (int i = 0; i < count; i++) {
            deadLetter(letters, slots.get(i), reason);
        }
        slots.clear();
        count = 0;
        kept.reset();
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
        Producer<Part, Part> p = producer;
        if (p != null) {
            p.close(Duration.ZERO); // fails what is in flight: a blocked flush returns
        }
    }

    /** Closes the producer (waiting up to 30 s for what it still sends, unless aborted) and the dead letters. */
    @Override
    public void close() throws java.io.IOException {
        Producer<Part, Part> p = producer;
        if (p != null) {
            p.close(aborted ? Duration.ZERO : Duration.ofSeconds(30));
        }
        deadLetters.close();
    }

    private double producerMetric(String metric) {
        Producer<Part, Part> p = producer;
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
        /** Its topic, and where its encoded record lies in {@link #kept}. */
        String topic;
        int at;
        int length;
        /** Whether the record has a key (set by {@link #record}). */
        boolean keyed;
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

    /**
     * A key or value of the record being sent: a view into {@link #kept}.
     *
     * <p>Threads: the delivery's thread (set before {@code send}, read by the serializers inside it).
     */
    static final class Part {
        byte[] array;
        int off;
        int length;

        void set(byte[] array, int off, int length) {
            this.array = array;
            this.off = off;
            this.length = length;
        }
    }

    /**
     * Serializes a {@link Part} into an array of exactly its length, as the producer wants it: the same array for
     * every part of one length up to {@value #REUSED_MAX} bytes (the producer copies it into its batch inside
     * {@code send()} and keeps no reference), a new one for a longer part. One instance per part (key, value): a key
     * and a value of one length must not share an array.
     *
     * <p>Threads: called by the producer inside {@code send()}, on the delivery's thread only.
     */
    public static final class PartSerializer implements Serializer<Part> {
        private final byte[][] byLength = new byte[REUSED_MAX + 1][];

        @Override
        public byte[] serialize(String topic, Part p) {
            if (p == null) {
                return null;
            }
            int n = p.length;
            byte[] b;
            if (n <= REUSED_MAX) {
                b = byLength[n];
                if (b == null) {
                    b = byLength[n] = new byte[n];
                }
            } else {
                b = new byte[n];
            }
            System.arraycopy(p.array, p.off, b, 0, n);
            return b;
        }
    }
}
