package dev.logrouter.sinks.kafka;

import dev.logrouter.core.journal.Buffer;
import dev.logrouter.core.journal.JournalConfig;
import dev.logrouter.core.journal.Overflow;
import dev.logrouter.core.journal.SinkBuffers;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.sink.FlushPolicy;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.sink.SinkConfig;
import dev.logrouter.core.sink.SinkContext;
import dev.logrouter.core.sink.SinkEncoder;
import dev.logrouter.core.template.Template;

import java.util.Locale;
import java.util.Map;

/**
 * {@code type: kafka}: each event becomes one Kafka record; like syslog-ng's {@code kafka-c()}, but a record counts
 * as written only when the broker acknowledged it.
 *
 * <p>Threads: immutable.
 */
public record KafkaSinkConfig(
        @Option(doc = "Unique sink name.", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "Brokers to bootstrap from, host:port[,host:port...] (the producer's bootstrap.servers).",
                defaultValue = Option.REQUIRED)
        String bootstrapServers,
        @Option(doc = "Topic template, e.g. logs-${FACILITY}. Bytes a topic name cannot hold (outside "
                + "a-z A-Z 0-9 . _ -) become _, and the name is cut at 249 bytes.", defaultValue = Option.REQUIRED)
        String topic,
        @Option(doc = "Record key template, e.g. ${HOST} (records with one key go to one partition, in order). "
                + "Absent or rendered empty: no key (the producer spreads records over partitions).",
                defaultValue = Option.NONE)
        String key,
        @Option(doc = "Record value template. The default is a JSON object that a kafka source with format: json "
                + "reads back into the same event.",
                defaultValue = "\"$(format-json --scope rfc5424 --scope all-nv-pairs --key ISODATE --key USEC --key TAGS "
                        + "--key SOURCEIP)\"")
        String template,
        @Option(doc = "Record headers: header name to value template (empty values are left out).",
                defaultValue = "{}")
        Map<String, String> headers,
        @Option(doc = "all (every in-sync replica has the record), 1 (the leader has it) or 0 (no "
                + "acknowledgement: a record then counts as written when sent).", defaultValue = "all")
        String acks,
        @Option(doc = "The producer's idempotence: broker-side deduplication of the producer's own retries "
                + "(needs acks: all).", defaultValue = "true")
        Boolean idempotence,
        @Option(doc = "none, gzip, snappy, lz4 or zstd (the producer's compression.type).", defaultValue = "none")
        String compression,
        @Option(doc = "Most records handed to the producer before the sink waits for all of their "
                + "acknowledgements (one sink batch).", defaultValue = "10000")
        Integer batchSize,
        @Option(doc = "The producer's batch.size: most bytes in one partition's record batch (the default "
                + "was chosen by a measured sweep: docs/performance.md; above the broker's message.max.bytes the "
                + "producer splits the batches the broker refuses).",
                defaultValue = "1MiB")
        ByteSize batchBytes,
        @Option(doc = "The producer's linger.ms: how long a partition's record batch waits for more records "
                + "before it is sent.", defaultValue = "5ms")
        TimeSpan flushTimeout,
        @Option(doc = "Longest a sink batch stays open: when its oldest record is this old (or it holds batch-size "
                + "records) the sink waits for every acknowledgement of the batch, counts it written and lets a "
                + "kafka source commit it.", defaultValue = "1s")
        TimeSpan ackInterval,
        @Option(doc = "The producer's delivery.timeout.ms: how long it retries a record by itself before the sink "
                + "sees the failure and sends the record again (with backoff; given up only after max-retries).",
                defaultValue = "120s")
        TimeSpan deliveryTimeout,
        @Option(doc = SinkConfig.MAX_RETRIES_DOC, defaultValue = "-1")
        Integer maxRetries,
        @Option(doc = "JSON-lines file for records the broker can never take (too large, not authorized, invalid "
                + "topic) and for those given up after max-retries, one per line with the reason; default "
                + "data/dead-letter/<name>.jsonl.", defaultValue = Option.NONE)
        String deadLetter,
        @Option(doc = "Any other producer property, passed as is (e.g. security.protocol, sasl.*, ssl.*, "
                + "max.request.size, buffer.memory — default 64 × batch-bytes, at least 32 MiB); wins over the "
                + "options above. A partitioner.class should use keyBytes/valueBytes, and interceptor.classes see "
                + "the sink's reused key/value views, not byte arrays (key.serializer and value.serializer are the "
                + "sink's own and cannot be set).", defaultValue = "{}")
        Map<String, String> properties,
        @Option(doc = SinkBuffers.BUFFER_DOC, defaultValue = "memory")
        Buffer buffer,
        @Option(doc = SinkBuffers.JOURNAL_DOC, defaultValue = "{}")
        JournalConfig journal,
        @Option(doc = SinkBuffers.DRAIN_TIMEOUT_DOC, defaultValue = "5s")
        TimeSpan drainTimeout,
        @Option(doc = SinkBuffers.OVERFLOW_DOC, defaultValue = "block")
        Overflow overflow,
        @Option(doc = SinkBuffers.MAX_BACKLOG_DOC, defaultValue = Option.NONE)
        ByteSize maxBacklog) implements SinkConfig {

    public KafkaSinkConfig {
        SinkConfig.checkMaxRetries(maxRetries);
        if (batchSize != null && batchSize < 1) {
            throw new IllegalArgumentException("batch-size must be >= 1, got " + batchSize);
        }
        if (topic != null && topic.isBlank()) {
            throw new IllegalArgumentException("topic must not be empty");
        }
        if (acks != null && !acks.equals("all") && !acks.equals("-1") && !acks.equals("1") && !acks.equals("0")) {
            throw new IllegalArgumentException("acks must be all, 1 or 0, got '" + acks + "'");
        }
        if (compression != null && !java.util.Set.of("none", "gzip", "snappy", "lz4", "zstd")
                .contains(compression.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("compression must be none, gzip, snappy, lz4 or zstd, got '"
                    + compression + "'");
        }
        if (Boolean.TRUE.equals(idempotence) && acks != null && !acks.equals("all") && !acks.equals("-1")) {
            throw new IllegalArgumentException("idempotence needs acks: all; set idempotence: false to use acks: "
                    + acks);
        }
        if (bootstrapServers != null && bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrap-servers must not be empty");
        }
        Template.checkOption("topic", topic);
        Template.checkOption("key", key);
        Template.checkOption("template", template);
        if (headers != null) {
            headers.forEach((h, t) -> Template.checkOption("headers." + h, t));
        }
    }

    /**
     * The sink's batch: {@code batch-size} records, or half the producer's {@code buffer.memory} (so that a batch
     * never waits for producer memory), or {@code ack-interval}; not whenever the ring runs dry (the producer
     * sends on its own after {@code linger.ms}; waiting for acknowledgements each time would cost a round trip).
     */
    @Override
    public FlushPolicy flushPolicy() {
        long memory = 32L << 20;
        String m = properties == null ? null : properties.get("buffer.memory");
        if (m != null) {
            try {
                memory = Long.parseLong(m.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("properties.buffer.memory must be a number of bytes, got '" + m
                        + "'");
            }
        }
        if (buffer == Buffer.journal) {
            // the batch is a journal commit: cheap, so also whenever the ring runs dry (the delivery sees it sooner)
            return new FlushPolicy(batchSize, Math.max(1, memory / 2), ackInterval.nanos(), true);
        }
        return new FlushPolicy(batchSize, Math.max(1, memory / 2), ackInterval.nanos(), false);
    }

    @Override
    public Sink create(SinkContext ctx) {
        return SinkBuffers.create(buffer, encoder(ctx),
                new KafkaDelivery(this, ctx.metrics(), ctx.deadLetters()), journal, maxBacklog, batchSize,
                Math.max(1, flushPolicy().batchBytes()), drainTimeout, overflow, ctx);
    }

    /** The {@link KafkaEncoder}: topic, key, header and value templates; no producer is made. */
    @Override
    public SinkEncoder encoder(SinkContext ctx) {
        return new KafkaEncoder(this, ctx.zone());
    }
}
