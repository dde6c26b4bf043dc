package dev.logrouter.sinks.elasticsearch;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.SinkDelivery;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.JsonStringEscaper;
import dev.logrouter.core.template.RenderedName;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.ResponseListener;
import org.elasticsearch.client.RestClient;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * The delivery half of the Elasticsearch sink: writes each record of {@link ElasticsearchEncoder} (index name,
 * {@code _id}, document) as one document in bulk requests, and accounts for every document by its item in the bulk
 * response. {@link #add} decodes the record and adds the document to the bulk being built; a full bulk
 * ({@code batch-size} documents or {@code batch-bytes}) is sent at once, with up to {@code max-in-flight} requests
 * out; {@link #flush} sends what is left and returns only when every document added since the last flush is
 * indexed or dead-lettered, so the sink's ring sequence (with {@code buffer: journal}, the journal's cursor) never
 * passes a document that could still be lost. A record whose {@code _id} is longer than 512 bytes is dead-lettered
 * when it is added (Elasticsearch takes no longer {@code _id}).
 *
 * <p>Outcomes, per item of a bulk response:
 * <ul>
 *   <li>2xx: {@code indexed};</li>
 *   <li>429 (the server's write queue is full) and 5xx: kept and sent again, alone (the rest of the bulk is not),
 *       after a capped exponential backoff with jitter, until indexed ({@code retried}; {@code rejected} and
 *       {@code serverErrors} count the answers); with {@code max-item-retries} set, dead-lettered after that many
 *       such answers;</li>
 *   <li>409 with {@code op-type: create} for a document an earlier attempt of which got no clear answer (no
 *       response, a 5xx for the whole request): that attempt indexed it; counted {@code alreadyIndexed} and
 *       indexed;</li>
 *   <li>any other 4xx (mapping or parse error, invalid index name, a 409 otherwise): written to the dead-letter
 *       file with index, status and reason; the rest of the bulk goes on.</li>
 * </ul>
 * A request answered 429 or 5xx as a whole: its documents are retried as above (without counting towards
 * {@code max-item-retries}). Answered 400 or 413 as a whole (one bad document, a body too large): split in halves,
 * each sent again, down to a single document, which is dead-lettered. Any other failure of a whole request (no
 * node reachable, reset, timeout, 401/403, a proxy's 404/405/407) keeps its documents; {@code flush} then throws
 * and the sink handler retries it with backoff, holding the ring (backpressure; with {@code buffer: journal} the
 * delivery thread retries it and only the journal's backlog grows); the retry sends the kept documents again
 * ({@code resent}). With an id on every document ({@code generate-id}, or an {@code id} template)
 * a document indexed before such a failure is not indexed twice.
 *
 * <p>Requests go through the official low-level {@code RestClient} (auth, TLS, node failover): the body is written
 * by this class, per document its action line and its JSON, into one buffer per request in flight (reused), sent
 * as one entity with its length; the answer is read with Jackson's streaming parser on the client's I/O thread into
 * a status per item and an error text for the items that failed ({@link BulkAnswer}).
 *
 * <p>Allocation: none per document once warm — each document's id and JSON are copied (the one copy out of the
 * record, kept for retries and dead letters) into the buffer of a {@code Doc} reused from the free list of those
 * indexed or dead-lettered (at most {@code (max-in-flight + 1) × batch-bytes} of buffers kept free; a document
 * longer than {@value #MAX_POOLED_DOC} bytes gets its own, not kept); per request a status array; the index name is
 * made a String, and its action line's start, only when it changes; the answer is read into a pooled buffer
 * ({@link PooledResponseConsumer}).
 *
 * <p>Threads: every method but {@link #abort} on one thread, which also settles every answer: the sink's
 * ({@code sink-<name>}) with {@code buffer: memory}, {@code deliver-<name>} with {@code buffer: journal}; the client's
 * I/O threads send the requests, decode the responses and complete the futures; {@link #abort} from any thread.
 */
final class ElasticsearchDelivery implements SinkDelivery {

    private static final Logger LOG = System.getLogger(ElasticsearchDelivery.class.getName());
    private static final long MIN_RETRY_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final ElasticsearchSinkConfig cfg;
    private final DeadLetterFile deadLetters;
    private final boolean create;
    private final int batchSize;
    private final long batchBytes;
    private final int maxInFlight;
    private final long maxBackoffNanos;

    private final RenderedName indexName = new RenderedName();

    private volatile RestClient rest;
    private volatile boolean aborted;
    /** Request bodies not in use: a bulk's body goes back here once its answer came (one per request in flight). */
    private final ArrayDeque<ByteBuilder> bodies = new ArrayDeque<>();
    /** The action line's start for the last index name (the name changes rarely: by day, by host). */
    private String actionIndex;
    private byte[] actionPrefix;

    /**
     * Documents done with (indexed or dead-lettered), kept to hold the next ones: a document's bytes are copied into
     * a reused one's buffer, so the path allocates nothing per document once warm. Their buffers total at most
     * {@link #maxFreeBytes}.
     */
    private final ArrayDeque<Doc> freeDocs = new ArrayDeque<>();
    /** Bytes of the free documents' buffers, at most {@link #maxFreeBytes}. */
    private long freeBytes;
    private final long maxFreeBytes;
    /** Buffers of bulk answers read (one per request in flight, and one more), and the options that use them. */
    private final java.util.concurrent.BlockingQueue<java.nio.ByteBuffer> answerBuffers;
    private final org.elasticsearch.client.RequestOptions requestOptions;
    /** Document lists of bulks that are over, reused for the next bulks. */
    private final ArrayDeque<List<Doc>> freeLists = new ArrayDeque<>();

    /** The bulk being built. */
    private List<Doc> building = new ArrayList<>();
    private long buildingBytes;
    /** Bulk requests sent, oldest first. */
    private final ArrayDeque<Bulk> inFlight = new ArrayDeque<>();
    /** Documents of requests that failed as a whole: sent again by the next flush. */
    private final List<Doc> unsent = new ArrayList<>();
    private Exception requestFailure;
    /** Documents answered 429/5xx: sent again after a backoff. */
    private final List<Doc> retry = new ArrayList<>();
    /** Halves of requests refused as a whole with 400/413: sent again, each half on its own. */
    private final ArrayDeque<List<Doc>> splits = new ArrayDeque<>();
    private volatile int retrying;
    private long retryBackoffNanos = MIN_RETRY_BACKOFF_NANOS;
    private String lastRetryReason = "";

    private final Counter indexed;
    private final Counter retried;
    private final Counter rejected;
    private final Counter serverErrors;
    private final Counter alreadyIndexed;
    private final Counter requestFailures;
    private final Counter resent;
    private final Counter bulkRequests;
    private final Counter bulkMicros;
    private volatile int inFlightGauge;

    /** @param deadLetters the sink's dead-letter file (shared with its handler, for items given up) */
    ElasticsearchDelivery(ElasticsearchSinkConfig cfg, MetricGroup metrics, DeadLetterFile deadLetters) {
        this.cfg = cfg;
        this.create = "create".equals(cfg.opType());
        this.batchSize = cfg.batchSize();
        this.batchBytes = cfg.batchBytes().bytes();
        this.maxInFlight = cfg.maxInFlight();
        this.maxFreeBytes = (cfg.maxInFlight() + 1L) * cfg.batchBytes().bytes();
        this.answerBuffers = new java.util.concurrent.ArrayBlockingQueue<>(cfg.maxInFlight() + 1);
        this.requestOptions = org.elasticsearch.client.RequestOptions.DEFAULT.toBuilder()
                .setHttpAsyncResponseConsumerFactory(() -> new PooledResponseConsumer(answerBuffers, MAX_ANSWER))
                .build();
        this.maxBackoffNanos = Math.max(MIN_RETRY_BACKOFF_NANOS, cfg.maxRetryBackoff().nanos());
        this.deadLetters = deadLetters;
        this.indexed = metrics.counter("indexed", "Documents the server indexed (a 2xx item).");
        this.retried = metrics.counter("retried", "Documents sent again alone after a 429 or 5xx item.");
        this.rejected = metrics.counter("rejected", "Documents answered 429 (as an item or with their whole "
                + "request): the server's write queue was full. Each is retried.");
        this.serverErrors = metrics.counter("serverErrors", "Documents answered 5xx (as an item or with their "
                + "whole request). Each is retried.");
        this.alreadyIndexed = metrics.counter("alreadyIndexed", "Documents sent again whose create answered 409: "
                + "the first attempt was indexed (counted in indexed).");
        this.requestFailures = metrics.counter("requestFailures", "Bulk requests that failed as a whole (no "
                + "server reachable, timeout, an error status for the whole request; see the other counters for what "
                + "became of their documents).");
        this.resent = metrics.counter("resent", "Documents sent again after their whole request failed.");
        this.bulkRequests = metrics.counter("bulkRequests", "Bulk requests answered (retries included).");
        this.bulkMicros = metrics.counter("bulkMicros", "Total time from sending a bulk request to its answer, "
                + "in microseconds.");
        metrics.gauge("bulkLatencyAvgMicros", "Average bulk request latency in microseconds (bulkMicros / "
                + "bulkRequests).", () -> {
                    long n = bulkRequests.get();
                    return n == 0 ? 0 : bulkMicros.get() / n;
                });
        metrics.gauge("inFlight", "Bulk requests sent and not yet answered.", () -> inFlightGauge);
        metrics.gauge("retrying", "Documents answered 429/5xx waiting to be sent again (the sink holds the ring "
                + "meanwhile).", () -> retrying);
    }

    @Override
    public void start() {
        rest = ElasticsearchClients.restClient(cfg);
    }

    /** Decodes the record (framing: {@link ElasticsearchEncoder}) and adds its document to the bulk being built. */
    @Override
    public void add(byte[] r, int off, int len) {
        int p = off;
        int indexLength = r[p++] & 0xFF;
        String index = indexName.of(r, p, indexLength);
        p += indexLength;
        int idLength = ByteBuilder.getInt(r, p);
        p += 4;
        int idAt = p;
        p += idLength;
        int jsonLength = off + len - p;
        if (idLength > ElasticsearchEncoder.MAX_ID) { // Elasticsearch takes no longer _id
            deadLetters.write(index, 0, "_id longer than " + ElasticsearchEncoder.MAX_ID + " bytes",
                    Arrays.copyOfRange(r, idAt, idAt + idLength), r, p, jsonLength);
            return;
        }
        Doc d = freeDocs.poll();
        if (d == null) {
            d = new Doc();
        } else {
            freeBytes -= d.bytes.length;
        }
        d.set(index, actionPrefix(index), r, idAt, idLength == 0 ? -1 : idLength, p, jsonLength);
        building.add(d);
        buildingBytes += jsonLength;
        if (building.size() >= batchSize || buildingBytes >= batchBytes) {
            sendBuilding();
        }
    }

    /** {@code {"create":{"_index":"<index>"} (or index), JSON-escaped, made again only when the name changes. */
    private byte[] actionPrefix(String index) {
        if (!index.equals(actionIndex)) {
            ByteBuilder b = new ByteBuilder(64);
            b.append(create ? CREATE : INDEX);
            byte[] name = index.getBytes(StandardCharsets.UTF_8);
            JsonStringEscaper.escape(b, name, 0, name.length);
            b.append((byte) '"');
            actionPrefix = Arrays.copyOf(b.array(), b.length());
            actionIndex = index;
        }
        return actionPrefix;
    }

    /** Longest bulk answer read, as the client's default (100 MiB). */
    static final int MAX_ANSWER = 100 * 1024 * 1024;
    /** Longest document buffer kept for reuse. */
    static final int MAX_POOLED_DOC = 16 * 1024;

    private static final byte[] CREATE = "{\"create\":{\"_index\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INDEX = "{\"index\":{\"_index\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ID = ",\"_id\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ACTION_END = "}}\n".getBytes(StandardCharsets.US_ASCII);
    private static final org.apache.http.entity.ContentType NDJSON =
            org.apache.http.entity.ContentType.create("application/x-ndjson");

    /**
     * The bulk body of {@code docs}: per document its action line and its JSON, rendered into {@code out} (one
     * buffer per request, reused; no object per document).
     */
    private void body(List<Doc> docs, ByteBuilder out) {
        out.reset();
        for (int i = 0; i < docs.size(); i++) {
            Doc d = docs.get(i);
            out.append(d.action);
            if (d.idLength >= 0) {
                out.append(ID);
                JsonStringEscaper.escape(out, d.bytes, 0, d.idLength);
                out.append((byte) '"');
            }
            out.append(ACTION_END);
            out.append(d.bytes, d.jsonAt(), d.jsonLength);
            out.append((byte) '\n');
        }
    }

    private void sendBuilding() {
        List<Doc> docs = building;
        building = newList();
        buildingBytes = 0;
        send(docs);
    }

    /** Sends one bulk request, first waiting for the oldest answer while {@code max-in-flight} are out. */
    private void send(List<Doc> docs) {
        while (inFlight.size() >= maxInFlight) {
            complete(inFlight.poll());
        }
        ByteBuilder out = bodies.isEmpty() ? new ByteBuilder(1 << 16) : bodies.poll();
        body(docs, out);
        CompletableFuture<BulkAnswer> f = new CompletableFuture<>();
        try {
            Request request = new Request("POST", "/_bulk");
            // the answer cut to what is settled by: per item its status, and its error when it has one
            request.addParameter("filter_path", "items.*.status,items.*.error");
            request.setEntity(new org.apache.http.nio.entity.NByteArrayEntity(out.array(), 0, out.length(), NDJSON));
            request.setOptions(requestOptions); // the answer into a pooled buffer
            int expected = docs.size();
            rest.performRequestAsync(request, new ResponseListener() {
                @Override
                public void onSuccess(Response response) {
                    org.apache.http.HttpEntity body = response.getEntity();
                    try (java.io.InputStream in = body.getContent()) {
                        f.complete(BulkAnswer.read(in, expected));
                    } catch (IOException | RuntimeException e) {
                        f.completeExceptionally(e);
                    } finally {
                        if (body instanceof PooledResponseConsumer.Body b) {
                            b.release();
                        }
                    }
                }

                @Override
                public void onFailure(Exception e) {
                    f.completeExceptionally(e);
                }
            });
        } catch (RuntimeException e) {
            f.completeExceptionally(e);
        }
        inFlight.add(new Bulk(docs, f, System.nanoTime(), out));
        inFlightGauge = inFlight.size();
    }

    @Override
    public void flush() throws Exception {
        if (!unsent.isEmpty()) {
            List<Doc> again = new ArrayList<>(unsent);
            unsent.clear();
            requestFailure = null;
            resent.add(again.size());
            sendAll(again);
        }
        if (!building.isEmpty()) {
            sendBuilding();
        }
        drain();
        while (unsent.isEmpty() && (!splits.isEmpty() || !retry.isEmpty())) {
            if (!splits.isEmpty()) {
                while (!splits.isEmpty()) {
                    send(splits.poll());
                }
                drain();
                continue;
            }
            if (aborted) {
                throw new IOException("aborted with " + retry.size() + " documents to retry");
            }
            long backoff = retryBackoffNanos;
            // jitter over the upper half: spreads the retries of several sinks or routers
            long wait = backoff / 2 + ThreadLocalRandom.current().nextLong(backoff / 2 + 1);
            LOG.log(Level.WARNING, "sink " + cfg.name() + ": " + retry.size() + " documents answered 429/5xx ("
                    + lastRetryReason + "); sending them again in " + TimeUnit.NANOSECONDS.toMillis(wait) + " ms");
            retrying = retry.size();
            for (long end = System.nanoTime() + wait; !aborted && System.nanoTime() < end; ) {
                LockSupport.parkNanos(Math.min(TimeUnit.MILLISECONDS.toNanos(100), end - System.nanoTime()));
            }
            retryBackoffNanos = Math.min(backoff * 2, maxBackoffNanos);
            List<Doc> again = new ArrayList<>(retry);
            retry.clear();
            retried.add(again.size());
            sendAll(again);
            drain();
        }
        retrying = retry.size();
        if (retry.isEmpty()) {
            retryBackoffNanos = MIN_RETRY_BACKOFF_NANOS;
        }
        if (!unsent.isEmpty()) {
            Exception cause = requestFailure;
            int status = status(cause);
            throw new IOException(unsent.size() + " documents not indexed, to be sent again: "
                    + (status == 0 ? "" : "status " + status + ", ")
                    + (cause == null ? "request failed" : cause.toString()), cause);
        }
    }

    /** A document list for a bulk: one of a bulk that is over, or a new one. */
    private List<Doc> newList() {
        return freeLists.isEmpty() ? new ArrayList<>(Math.min(batchSize, 1024)) : freeLists.poll();
    }

    /** The documents of {@code b} are settled or moved elsewhere: its list is emptied and kept for a later bulk. */
    private void recycle(Bulk b) {
        b.docs.clear();
        if (freeLists.size() <= maxInFlight + 1) {
            freeLists.add(b.docs);
        }
    }

    /**
     * {@code d} is indexed or dead-lettered: its buffer holds a later document, unless the free list's buffers would
     * exceed {@link #maxFreeBytes} or it is longer than {@value #MAX_POOLED_DOC} bytes (a rare long document is not
     * kept).
     */
    private void done(Doc d) {
        int size = d.bytes.length;
        if (size <= MAX_POOLED_DOC && freeBytes + size <= maxFreeBytes) {
            d.itemRetries = 0;
            d.maybeIndexed = false;
            freeBytes += size;
            freeDocs.add(d);
        }
    }

    /** Sends documents again in requests of at most {@code batch-size} documents and {@code batch-bytes}. */
    private void sendAll(List<Doc> docs) {
        List<Doc> chunk = newList();
        long bytes = 0;
        for (Doc d : docs) {
            chunk.add(d);
            bytes += d.jsonLength;
            if (chunk.size() >= batchSize || bytes >= batchBytes) {
                send(chunk);
                chunk = newList();
                bytes = 0;
            }
        }
        if (!chunk.isEmpty()) {
            send(chunk);
        }
    }

    private void drain() {
        while (!inFlight.isEmpty()) {
            complete(inFlight.poll());
        }
    }

    /** Waits for one request's answer and settles each of its documents. */
    private void complete(Bulk b) {
        BulkAnswer answer;
        try {
            answer = await(b.future);
        } catch (ExecutionException e) {
            requestFailed(b, e.getCause() == null ? e : e.getCause());
            recycle(b); // its documents were moved to the retry, unsent or split lists, or dead-lettered
            return;
        } finally {
            inFlightGauge = inFlight.size();
            if (b.future.isDone()) {
                bodies.add(b.body); // the request is over: its body can be written again
            }
        }
        bulkRequests.inc();
        bulkMicros.add(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - b.sentNanos));
        for (int i = 0; i < answer.size(); i++) {
            settle(b.docs.get(i), answer.status(i), answer.reason(i));
        }
        recycle(b);
    }

    /**
     * The request's answer. An interrupt does not end the wait (the documents would be neither sent again nor
     * settled); it is kept for the caller. {@link #abort} ends it, and {@code request-timeout} bounds it.
     */
    private BulkAnswer await(CompletableFuture<BulkAnswer> f) throws ExecutionException {
        boolean interrupted = false;
        try {
            while (true) {
                if (aborted) {
                    f.cancel(true);
                    throw new ExecutionException(new IOException("sink aborted"));
                }
                try {
                    return f.get(100, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    // look at aborted again
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (java.util.concurrent.CancellationException e) {
                    throw new ExecutionException(e);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void settle(Doc d, int status, String error) {
        if (status >= 200 && status < 300) {
            indexed.inc();
            done(d);
        } else if (status == 409 && create && d.maybeIndexed) {
            alreadyIndexed.inc();
            indexed.inc();
            done(d);
        } else if (status == 429 || status >= 500) {
            (status == 429 ? rejected : serverErrors).inc();
            d.itemRetries++;
            String reason = reason(error);
            lastRetryReason = status + " " + reason;
            if (cfg.maxItemRetries() >= 0 && d.itemRetries > cfg.maxItemRetries()) {
                deadLetter(d, status, "gave up after " + d.itemRetries + " answers " + status + ": " + reason);
            } else {
                retry.add(d);
            }
        } else {
            deadLetter(d, status, reason(error));
        }
    }

    /**
     * A request that failed as a whole. 429/5xx: the server is there and refused it; its documents wait the retry
     * backoff (a 5xx may come after the request was carried out: its documents may be indexed). 400/413: the body
     * or one document in it cannot be taken; the request is split in halves and each sent again, a single document
     * still refused is dead-lettered. Anything else (no answer, 401/403, a proxy's 404/405/407): the documents are
     * kept and {@code flush} fails, so the sink handler retries with backpressure.
     */
    private void requestFailed(Bulk b, Throwable cause) {
        int status = status(cause);
        String reason = requestReason(cause);
        requestFailures.inc();
        if (status == 429 || status >= 500) {
            (status == 429 ? rejected : serverErrors).add(b.docs.size());
            lastRetryReason = status + " for the whole request: " + reason;
            for (Doc d : b.docs) {
                d.maybeIndexed |= status >= 500;
            }
            retry.addAll(b.docs);
            return;
        }
        if (status == 400 || status == 413) {
            if (b.docs.size() == 1) {
                deadLetter(b.docs.get(0), status, "request refused: " + reason);
            } else {
                int half = b.docs.size() / 2;
                splits.add(new ArrayList<>(b.docs.subList(0, half)));
                splits.add(new ArrayList<>(b.docs.subList(half, b.docs.size())));
            }
            return;
        }
        if (status == 0) {
            for (Doc d : b.docs) {
                d.maybeIndexed = true; // no answer: the server may have indexed it
            }
        }
        requestFailure = cause instanceof Exception e ? e : new IOException(cause);
        unsent.addAll(b.docs);
    }

    /** The HTTP status the server answered a failed request with (0: none, e.g. no connection). */
    private static int status(Throwable t) {
        for (int depth = 0; t != null && depth < 8; t = t.getCause(), depth++) {
            if (t instanceof ResponseException e) {
                return e.getResponse().getStatusLine().getStatusCode();
            }
        }
        return 0;
    }

    private static String reason(String error) {
        return error == null ? "no reason given" : error;
    }

    /** Why a whole request failed: the server's error ({@code type: reason}) when it answered one, else the cause. */
    private static String requestReason(Throwable cause) {
        if (cause instanceof ResponseException e && e.getResponse().getEntity() != null) {
            try (java.io.InputStream in = e.getResponse().getEntity().getContent()) {
                String error = BulkAnswer.requestError(in);
                if (error != null) {
                    return error;
                }
            } catch (IOException | RuntimeException ignored) {
                // the exception's own text below
            }
        }
        return cause.toString();
    }

    private void deadLetter(Doc d, int status, String reason) {
        deadLetter(deadLetters, d, status, reason);
    }

    private void deadLetter(DeadLetterFile to, Doc d, int status, String reason) {
        to.write(d.index, status, reason, d.idLength < 0 ? null : Arrays.copyOf(d.bytes, d.idLength), d.bytes,
                d.jsonAt(), d.jsonLength);
        done(d);
    }

    /**
     * The handler gave the batch up (max-retries): every document not yet answered indexed or dead-lettered (being
     * built, kept after a failed request, waiting for a retry or a split, or in a request still out, whose answer is
     * no longer awaited) is dead-lettered with the reason, and the batch is empty. A document of a request still out,
     * or of one that got no answer, may be in the index as well.
     */
    @Override
    public void deadLetterPending(DeadLetterFile letters, String reason) {
        for (Bulk b : inFlight) {
            b.future.cancel(true);
            deadLetterAll(letters, b.docs, reason);
        }
        inFlight.clear();
        inFlightGauge = 0;
        deadLetterAll(letters, unsent, reason);
        deadLetterAll(letters, retry, reason);
        for (List<Doc> half : splits) {
            deadLetterAll(letters, half, reason);
        }
        splits.clear();
        deadLetterAll(letters, building, reason);
        buildingBytes = 0;
        requestFailure = null;
        retrying = 0;
        retryBackoffNanos = MIN_RETRY_BACKOFF_NANOS;
    }

    private void deadLetterAll(DeadLetterFile letters, List<Doc> docs, String reason) {
        for (Doc d : docs) {
            deadLetter(letters, d, 0, reason);
        }
        docs.clear();
    }

    @Override
    public void abort() {
        aborted = true;
        RestClient r = rest;
        if (r != null) {
            try {
                r.close();
            } catch (IOException | RuntimeException e) {
                // closing is all that is left to do
            }
        }
    }

    /**
     * Closes the client and the dead-letter file. Pending documents are not sent: with {@code buffer: memory} the
     * sink flushed before (and a flush that failed leaves the delivery open for the handler's retry, unless the stop
     * was forced); with {@code buffer: journal} they stay in the journal.
     */
    @Override
    public void close() throws Exception {
        try {
            if (rest != null) {
                rest.close();
            }
        } finally {
            deadLetters.close();
        }
    }

    /**
     * One document: what it was rendered as, and how often it has been answered. Reused once done with
     * ({@link #done}): {@link #set} copies the next document into its buffer, which grows as needed.
     */
    private static final class Doc {
        String index;
        /** Its action line up to the index name's closing quote (shared by the documents of one index). */
        byte[] action;
        /** Its {@code _id} (UTF-8; {@link #idLength} bytes, none when -1: one the server generates), then its JSON. */
        byte[] bytes = new byte[512];
        int idLength;
        int jsonLength;
        /** 429/5xx answers to this document alone, for {@code max-item-retries}. */
        int itemRetries;
        /** An attempt ended without a clear answer: the document may be indexed (a 409 then means it is). */
        boolean maybeIndexed;

        /** Copies the id ({@code idLength} -1: none) and the JSON from {@code r}. */
        void set(String index, byte[] action, byte[] r, int idAt, int idLength, int jsonAt, int jsonLength) {
            this.index = index;
            this.action = action;
            this.idLength = idLength;
            this.jsonLength = jsonLength;
            int id = Math.max(idLength, 0);
            if (bytes.length < id + jsonLength) {
                bytes = new byte[Math.max(id + jsonLength, bytes.length * 2)];
            }
            System.arraycopy(r, idAt, bytes, 0, id);
            System.arraycopy(r, jsonAt, bytes, id, jsonLength);
        }

        int jsonAt() {
            return Math.max(idLength, 0);
        }
    }

    /** One bulk request sent, with the body it was written from (reused once the request is over). */
    private record Bulk(List<Doc> docs, CompletableFuture<BulkAnswer> future, long sentNanos, ByteBuilder body) {
    }
}
