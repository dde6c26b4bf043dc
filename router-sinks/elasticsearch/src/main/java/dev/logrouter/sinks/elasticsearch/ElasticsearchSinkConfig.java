package dev.logrouter.sinks.elasticsearch;

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

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code type: elasticsearch}: each event becomes one document, sent in bulk requests; like syslog-ng's
 * {@code elasticsearch-http()} or rsyslog's {@code omelasticsearch}, but every document is accounted for by the
 * bulk response's item for it (indexed, retried, or dead-lettered). The sink is {@link ElasticsearchEncoder} (event →
 * index name, {@code _id}, document) and {@link ElasticsearchDelivery} (records → bulk requests), with the sink's
 * batch ({@code buffer: memory}) or its journal ({@code buffer: journal}) between them.
 *
 * <p>Threads: immutable.
 */
public record ElasticsearchSinkConfig(
        @Option(doc = "Unique sink name.", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "Elasticsearch nodes, e.g. [http://127.0.0.1:9200]; bulk requests go round-robin, a node "
                + "that fails is skipped for a while and the request goes to the next (https needs ca-file or a "
                + "JVM-trusted certificate).", defaultValue = Option.REQUIRED)
        List<String> hosts,
        @Option(doc = "Index (or data stream) template, e.g. logs-${YEAR}.${MONTH}.${DAY} (the event's own time). "
                + "Rendered names are lowercased, bytes an index name cannot hold (\\ / * ? \" < > | , # : space, "
                + "control bytes) become _, leading - _ + are dropped, and the name is cut at 255 bytes.",
                defaultValue = "\"logrouter-${YEAR}.${MONTH}.${DAY}\"")
        String index,
        @Option(doc = "create (a data stream needs it; a retried document that is already there counts as "
                + "indexed) or index (a document with the same _id is replaced).", defaultValue = "create")
        String opType,
        @Option(doc = "_id template. Absent: generate-id decides.", defaultValue = Option.NONE)
        String id,
        @Option(doc = "Without id: give each event a unique _id when it is appended, so that a bulk request sent "
                + "again after a lost response cannot index a document twice. false: Elasticsearch makes the ids "
                + "(a resent request may then duplicate documents).", defaultValue = "true")
        Boolean generateId,
        @Option(doc = "Field names of the built-in document: syslog (@timestamp host program pid msgid severity "
                + "facility message tags) or ecs (@timestamp host.name process.name process.pid log.syslog.* "
                + "message tags). Every name-value pair of the event follows (a leading dot becomes _).",
                defaultValue = "syslog")
        String schema,
        @Option(doc = "Document template (must render a JSON object, e.g. $(format-json ...)); replaces the "
                + "built-in document.", defaultValue = Option.NONE)
        String template,
        @Option(doc = "Most documents in one bulk request.", defaultValue = "5000")
        Integer batchSize,
        @Option(doc = "Most bytes of documents in one bulk request (keep it below the server's "
                + "http.max_content_length).", defaultValue = "5MiB")
        ByteSize batchBytes,
        @Option(doc = "Longest a document waits before its bulk request is sent while fewer than batch-size arrive.",
                defaultValue = "1s")
        TimeSpan flushTimeout,
        @Option(doc = "Bulk requests sent at once; the sink waits for all of their responses every "
                + "max-in-flight x batch-size documents.", defaultValue = "2")
        Integer maxInFlight,
        @Option(doc = "gzip request bodies.", defaultValue = "false")
        Boolean compression,
        @Option(doc = "Longest wait for a bulk response (socket timeout); the request then counts as failed and "
                + "is sent again.", defaultValue = "60s")
        TimeSpan requestTimeout,
        @Option(doc = "Cap of the exponential backoff (from 50 ms, with jitter) between retries of documents the "
                + "server answered 429 or 5xx.", defaultValue = "10s")
        TimeSpan maxRetryBackoff,
        @Option(doc = "Retries of one document answered 429 or 5xx before it is dead-lettered; -1: retry until "
                + "indexed (the sink holds the ring meanwhile: backpressure).", defaultValue = "-1")
        Integer maxItemRetries,
        @Option(doc = "Basic authentication user (with password).", defaultValue = Option.NONE)
        String user,
        @Option(doc = "Basic authentication password.", defaultValue = Option.NONE)
        String password,
        @Option(doc = "API key (the encoded id:key), sent as Authorization: ApiKey.", defaultValue = Option.NONE)
        String apiKey,
        @Option(doc = "PEM file of CA certificates trusted for https hosts (absent: the JVM's trust store).",
                defaultValue = Option.NONE)
        String caFile,
        @Option(doc = "Check that an https host's certificate names it.", defaultValue = "true")
        Boolean verifyHostname,
        @Option(doc = SinkConfig.MAX_RETRIES_DOC, defaultValue = "-1")
        Integer maxRetries,
        @Option(doc = "JSON-lines file for documents the server can never take (mapping or parse errors: 4xx "
                + "other than 429) and for those given up after max-item-retries or max-retries, with index, status "
                + "and reason; default data/dead-letter/<name>.jsonl.", defaultValue = Option.NONE)
        String deadLetter,
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

    public ElasticsearchSinkConfig {
        SinkConfig.checkMaxRetries(maxRetries);
        if (hosts != null) {
            if (hosts.isEmpty()) {
                throw new IllegalArgumentException("hosts must name at least one node");
            }
            for (String h : hosts) {
                checkHost(h);
            }
        }
        positive("batch-size", batchSize);
        positive("max-in-flight", maxInFlight);
        if (maxInFlight != null && maxInFlight > 64) {
            throw new IllegalArgumentException("max-in-flight must be <= 64, got " + maxInFlight);
        }
        if (maxItemRetries != null && maxItemRetries < -1) {
            throw new IllegalArgumentException("max-item-retries must be -1 (forever) or >= 0, got " + maxItemRetries);
        }
        if (opType != null && !opType.equals("create") && !opType.equals("index")) {
            throw new IllegalArgumentException("op-type must be create or index, got '" + opType + "'");
        }
        if (schema != null && !schema.equals("syslog") && !schema.equals("ecs")) {
            throw new IllegalArgumentException("schema must be syslog or ecs, got '" + schema + "'");
        }
        if (index != null && index.isBlank()) {
            throw new IllegalArgumentException("index must not be empty");
        }
        if ((user == null) != (password == null)) {
            throw new IllegalArgumentException("user and password go together");
        }
        if (user != null && apiKey != null) {
            throw new IllegalArgumentException("give user/password or api-key, not both");
        }
        if (caFile != null && !Files.isReadable(Path.of(caFile))) {
            throw new IllegalArgumentException("ca-file " + caFile + " cannot be read");
        }
        Template.checkOption("index", index);
        Template.checkOption("id", id);
        Template.checkOption("template", template);
    }

    private static void positive(String option, Integer value) {
        if (value != null && value < 1) {
            throw new IllegalArgumentException(option + " must be >= 1, got " + value);
        }
    }

    private static void checkHost(String h) {
        URI u;
        try {
            u = URI.create(h);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("hosts: '" + h + "' is not a URL: " + e.getMessage(), e);
        }
        if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme())) {
            throw new IllegalArgumentException("hosts: '" + h + "' must start with http:// or https://");
        }
        if (u.getHost() == null) {
            throw new IllegalArgumentException("hosts: '" + h + "' names no host");
        }
        if (u.getRawPath() != null && !u.getRawPath().isEmpty() && !u.getRawPath().equals("/")) {
            throw new IllegalArgumentException("hosts: '" + h + "': a path prefix is not supported");
        }
    }

    /**
     * The sink's batch (what one {@code flush} waits for): {@code max-in-flight} bulk requests, ended by size or by
     * {@code flush-timeout}; with {@code buffer: memory} not whenever the ring runs dry, which would send a small
     * bulk and wait for its response each time. With {@code buffer: journal} the batch is a journal commit: cheap,
     * so also whenever the ring runs dry (the delivery thread sees the records sooner).
     */
    @Override
    public FlushPolicy flushPolicy() {
        long window = (long) batchSize * maxInFlight;
        return new FlushPolicy((int) Math.min(Integer.MAX_VALUE, window),
                batchBytes.bytes() * maxInFlight, flushTimeout.nanos(), buffer == Buffer.journal);
    }

    /**
     * {@code buffer: memory}: encoder and delivery on the sink's thread. {@code buffer: journal}: the delivery thread
     * takes the journal's backlog {@code max-in-flight} bulks at a time ({@code batch-size} × {@code max-in-flight}
     * records), so that as many bulk requests are out as with memory.
     */
    @Override
    public Sink create(SinkContext ctx) {
        return SinkBuffers.create(buffer, encoder(ctx),
                new ElasticsearchDelivery(this, ctx.metrics(), ctx.deadLetters()), journal, maxBacklog,
                (int) Math.min(Integer.MAX_VALUE, (long) batchSize * maxInFlight),
                Math.multiplyHigh(batchBytes.bytes(), maxInFlight) != 0 ? Long.MAX_VALUE
                        : batchBytes.bytes() * maxInFlight, drainTimeout, overflow, ctx);
    }

    /** The {@link ElasticsearchEncoder}: index, id and document; no client is made. */
    @Override
    public SinkEncoder encoder(SinkContext ctx) {
        return new ElasticsearchEncoder(this, ctx.zone());
    }
}
