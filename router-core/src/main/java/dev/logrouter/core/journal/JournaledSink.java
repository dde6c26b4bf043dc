package dev.logrouter.core.journal;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.JournalSpace;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.sink.SinkDelivery;
import dev.logrouter.core.sink.SinkEncoder;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.util.Clock;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A sink with {@code buffer: journal}: the sink's thread encodes each event into the record its destination takes
 * ({@link SinkEncoder}) and appends it to the sink's {@link Journal}; a flush commits the batch as one frame (synced
 * per the journal's {@code sync}), and then the batch counts as {@code written} (journaled) and the ring moves on: a
 * destination that is down or slow no longer holds the ring, the sources or the other sinks. A delivery thread of its
 * own ({@code deliver-<sink>}) reads the journal after its cursor, hands each batch to the {@link SinkDelivery} and
 * flushes it; a flush that fails is retried with backoff (10 ms doubling to 5 s) with what the destination did not
 * take (the delivery keeps it pending; what it rejects for good it dead-letters), and once the whole batch is taken
 * the batch is acknowledged, which moves the cursor and deletes the segments passed.
 *
 * <p>A full journal ({@code max-size}, or the free-disk reserve) refuses the append. With {@link Overflow#block} the
 * handler retries it with backoff, holding the ring, as a memory sink's failing destination does; with
 * {@link Overflow#dropNewest} the message is dropped and counted ({@code overflowDropped}; the handler still counts
 * it {@code written}), and nothing else waits. After
 * {@code kill -9} the journal keeps every committed record ({@code sync: none} included; a power loss keeps what was
 * synced); records delivered but not acknowledged are sent again after the restart (duplicates, not loss).
 *
 * <p>While the journal has nothing to deliver, the delivery thread calls {@link SinkDelivery#tick} about every 100 ms
 * (closing idle files, probing hosts), as the sink handler ticks a memory sink.
 *
 * <p>Stop: the delivery thread goes on until the backlog is delivered or {@code drain} passed, then stops; what is
 * left stays in the journal for the next start.
 *
 * <p>Threads: {@link Sink} methods on the sink's thread; {@code deliver-<sink>} owns the reader and the delivery;
 * {@link #abort} from any thread; the metrics from any thread.
 */
public final class JournaledSink implements Sink {

    private static final Logger LOG = System.getLogger(JournaledSink.class.getName());
    private static final long MIN_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long REOPEN_DELAY_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How often an idle delivery thread calls {@link SinkDelivery#tick} (as the sink handler ticks a sink). */
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final String name;
    private final SinkEncoder encoder;
    private final SinkDelivery delivery;
    private final Path dir;
    private final JournalConfig config;
    private final int batchSize;
    private final long batchBytes;
    private final long drainNanos;
    private final Overflow overflow;
    private final Clock clock;
    private final ByteBuilder record = new ByteBuilder(1024);
    private final DeadLetterFile deadLetters;
    private final JournalSpace space;
    private final CommitTimes commitTimes = new CommitTimes();
    /** drop-oldest: the sink thread found the journal full; the delivery thread drops the oldest segment. */
    private volatile boolean dropRequested;
    /** The journal failed: the delivery thread ends at its next clean point so that the sink thread can reopen. */
    private volatile boolean reopenRequested;
    /** The delivery was started (once: a delivery thread started again after a reopen does not start it again). */
    private volatile boolean deliveryStarted;
    /** Records appended since the last commit that returned: appended again to a reopened journal. Sink thread. */
    private final ByteBuilder unsaved = new ByteBuilder(64 * 1024);
    private int[] unsavedEnds = new int[1024];
    private int unsavedCount;
    /** Sink thread: when the next reopen of a failed journal is tried (0: not failed). */
    private long reopenAtNanos;
    /** Sink thread: reopened; the records of {@link #unsaved} still have to be appended again. */
    private boolean replayPending;
    private volatile String journalError = "";
    private final JournalFiles files;

    private volatile Journal journal;
    private volatile Thread deliverer;
    /** An operator's reopen waits for the delivery thread (set on the sink thread). */
    private volatile boolean filesReopenRequested;
    private volatile boolean stopping;
    private volatile boolean aborted;
    private volatile String lastDeliveryError = "";
    /** When the delivery thread last took a batch to the destination or found nothing to deliver (nanoTime). */
    private volatile long progressNanos = System.nanoTime();
    private final Counter reopens;

    private final Counter delivered;
    private final Counter deliveryFailures;
    private final Counter overflowDropped;
    /** drop-newest: dropping now (logged when it starts and when it ends). Sink thread. */
    private boolean dropping;

    /**
     * @param drainNanos how long a stop lets the delivery thread work off the backlog before it stops
     */
    public JournaledSink(String name, SinkEncoder encoder, SinkDelivery delivery, JournalConfig config, int batchSize,
                         long batchBytes, long drainNanos, Overflow overflow, Clock clock, MetricGroup metrics,
                         DeadLetterFile deadLetters, JournalSpace space) {
        this(name, encoder, delivery, config, batchSize, batchBytes, drainNanos, overflow, clock, metrics,
                deadLetters, space, JournalFiles.DEFAULT);
    }

    /** @param files how the journal's files are opened (tests inject failures) */
    JournaledSink(String name, SinkEncoder encoder, SinkDelivery delivery, JournalConfig config, int batchSize,
                  long batchBytes, long drainNanos, Overflow overflow, Clock clock, MetricGroup metrics,
                  DeadLetterFile deadLetters, JournalSpace space, JournalFiles files) {
        this.deadLetters = deadLetters;
        this.space = space;
        this.files = files;
        this.name = name;
        this.encoder = encoder;
        this.delivery = delivery;
        this.dir = config.directory(name, space.baseDir());
        space.claim(dir, name, 2 * config.segmentSize().bytes());
        this.config = config;
        this.batchSize = batchSize;
        this.batchBytes = batchBytes;
        this.drainNanos = drainNanos;
        this.overflow = overflow;
        this.clock = clock;
        this.delivered = metrics.counter("delivered", "Journaled records the destination took (acknowledged in the "
                + "journal: the cursor moved past them).");
        this.deliveryFailures = metrics.counter("deliveryFailures", "Batches from the journal whose send failed; "
                + "each is sent again after a backoff.");
        this.overflowDropped = metrics.counter("overflowDropped", "Messages dropped because the journal was full "
                + "(overflow: drop-newest: the new ones; drop-oldest: the oldest segment's undelivered ones).");
        metrics.gauge("oldestAgeSeconds", "Age of the oldest record not yet acknowledged by the destination, in "
                + "seconds (0 when none; after a restart, counted from the creation of the oldest segment file).",
                () -> {
                    Journal j = journal;
                    return j == null ? 0 : commitTimes.oldestAgeSeconds(j.acknowledgedSeq(), j.committedSeq(),
                            System.currentTimeMillis());
                });
        metrics.gauge("freeDiskBytes", "Usable bytes on the journal's file store.", this::freeDisk);
        metrics.gauge("backlogRecords", "Records in the journal not yet acknowledged by the destination.",
                () -> journal == null ? 0 : journal.backlogRecords());
        metrics.gauge("backlogBytes", "Bytes of the journal's segments from the oldest unacknowledged frame on.",
                () -> journal == null ? 0 : journal.backlogBytes());
        metrics.gauge("segments", "Segment files of the journal.", () -> journal == null ? 0 : journal.segments());
        metrics.gauge("journalBytes", "Size of the journal's segment files on disk.",
                () -> journal == null ? 0 : journal.sizeOnDisk());
        metrics.gauge("syncs", "fsyncs of journal segments.", () -> journal == null ? 0 : journal.syncs());
        metrics.gauge("recoveredBytes", "Bytes cut from a damaged journal tail at the last start.",
                () -> journal == null ? 0 : journal.recoveredBytes());
        metrics.gauge("corruptFrames", "Damaged frames found at the last start (the tail from the first one was cut).",
                () -> journal == null ? 0 : journal.corruptFrames());
        metrics.gauge("quarantinedSegments", "Segments renamed to .corrupt at the last start (unreadable footer, "
                + "empty, or overlapping).", () -> journal == null ? 0 : journal.quarantinedSegments());
        metrics.text("lastDeliveryError", "The last failure of the delivery thread, empty when none.",
                () -> lastDeliveryError);
        metrics.text("journalError", "Why the journal failed (a write or fsync error; it is reopened every 5 s), "
                + "empty while it works.", () -> journalError);
        this.reopens = metrics.counter("journalReopens", "Times a failed journal was closed and opened again "
                + "(its recovery reads what really is on disk).");
    }

    /**
     * Stalled when the journal has records to deliver and the delivery thread has taken none to the destination (nor
     * found the journal empty) for {@code staleNanos}: the destination is down or refuses, and the backlog grows.
     */
    @Override
    public String stalled(long nowNanos, long staleNanos) {
        Journal j = journal;
        long since = nowNanos - progressNanos;
        if (j == null || since < staleNanos) {
            return null;
        }
        long backlog = j.backlogRecords();
        if (backlog == 0) {
            return null;
        }
        String why = lastDeliveryError;
        return "no delivery for " + TimeUnit.NANOSECONDS.toSeconds(since) + " s with " + backlog
                + " records in the journal" + (why.isEmpty() ? "" : " (last error: " + why + ")");
    }

    /** Opens (and recovers) the journal and starts the delivery thread. */
    @Override
    public void start() throws IOException {
        if (journal == null) {
            java.nio.file.Files.createDirectories(dir);
            journal = Journal.open(dir, "delivery", config, clock, files, space);
            if (journal.recoveredBytes() > 0 || journal.quarantinedSegments() > 0) {
                LOG.log(Level.WARNING, "sink " + name + ": journal " + dir + " recovered: " + journal.recoveredBytes()
                        + " damaged bytes cut, " + journal.quarantinedSegments() + " segments quarantined");
            }
            LOG.log(Level.INFO, "sink " + name + ": journal " + dir + " holds " + journal.backlogRecords()
                    + " records to deliver");
            if (journal.backlogRecords() > 0) {
                commitTimes.add(journal.committedSeq(), oldestSegmentMillis());
            }
            startDeliverer();
        }
    }

    private void startDeliverer() {
        Thread t = new Thread(this::deliverLoop, "deliver-" + name);
        t.setDaemon(true);
        deliverer = t;
        t.start();
    }

    @Override
    public long append(LogEvent event) throws JournalFullException, IOException {
        record.reset();
        encoder.encode(event, record);
        try {
            if (reopenAtNanos != 0 || replayPending) {
                reopen();
            }
            appendRecord();
        } catch (JournalFailedException failed) {
            journalFailed(failed);
            if (overflow == Overflow.block) {
                throw failed; // the handler retries: DEGRADED, the ring held, until the reopen works
            }
            overflowDropped.inc();
            return 0;
        } catch (JournalFullException full) {
            if (overflow == Overflow.block) {
                throw full;
            }
            if (overflow == Overflow.dropOldest) {
                if (!dropRequested) {
                    LOG.log(Level.WARNING, "sink " + name + ": " + full.getMessage() + "; dropping the oldest "
                            + "segment's undelivered messages (overflow: drop-oldest, counted in overflowDropped)");
                }
                dropRequested = true; // the delivery thread drops; the handler retries this append meanwhile
                LockSupport.unpark(deliverer);
                throw full;
            }
            overflowDropped.inc();
            if (!dropping) {
                dropping = true;
                LOG.log(Level.WARNING, "sink " + name + ": " + full.getMessage() + "; dropping new messages "
                        + "(overflow: drop-newest, counted in overflowDropped) until the journal has room");
            }
            return 0;
        }
        if (dropping) {
            dropping = false;
            LOG.log(Level.INFO, "sink " + name + ": the journal has room again; " + overflowDropped.get()
                    + " messages dropped so far");
        }
        keepUnsaved();
        return encoder.payloadLength(record.array(), 0, record.length());
    }

    /** Keeps a copy of the appended {@link #record} until its commit returns. */
    private void keepUnsaved() {
        unsaved.append(record.array(), 0, record.length());
        if (unsavedCount == unsavedEnds.length) {
            unsavedEnds = Arrays.copyOf(unsavedEnds, unsavedCount * 2);
        }
        unsavedEnds[unsavedCount++] = unsaved.length();
    }

    private void saved() {
        unsaved.reset();
        unsavedCount = 0;
    }

    /**
     * The journal failed (a write, fsync or cursor error): logged once, shown in {@code journalError}, and a reopen
     * is tried from now on every 5 s. Sink thread.
     */
    private void journalFailed(JournalFailedException e) {
        if (reopenAtNanos == 0) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            journalError = e.getMessage() + ": " + cause;
            LOG.log(Level.ERROR, "sink " + name + ": " + journalError + "; " + (overflow == Overflow.block
                    ? "holding the ring" : "dropping new messages (overflow: " + overflow + ")")
                    + " until it is reopened (tried every 5 s)");
            // meanwhile the delivery thread goes on delivering and acknowledging (the reader still works), which
            // frees room: on a full disk that is what lets the reopen succeed
            reopenAtNanos = clock.nanoTime() + REOPEN_DELAY_NANOS;
        }
    }

    /**
     * Reopens a failed journal, every 5 s, once the delivery thread stopped at a clean point (it is asked to when a
     * try is due): closes it, opens it again (the recovery reads what really is on disk and cuts a torn tail),
     * starts the delivery thread again, and appends the records whose commit never returned
     * ({@link #replayUnsaved}). Sink thread.
     *
     * @throws JournalFailedException while the journal is not reopened
     * @throws JournalFullException   reopened, but the records to append again do not fit yet
     */
    private void reopen() throws IOException, JournalFullException {
        Journal old = journal;
        if (old.failed()) {
            long now = clock.nanoTime();
            if (now - reopenAtNanos < 0) {
                throw old.failedException();
            }
            if (!reopenRequested) {
                reopenRequested = true;
                LockSupport.unpark(deliverer);
            }
            if (deliverer.isAlive()) {
                throw old.failedException();
            }
            try {
                old.close();
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "sink " + name + ": closing the failed journal: " + e);
            }
            Journal j;
            try {
                j = Journal.open(dir, "delivery", config, clock, files, space);
            } catch (IOException e) {
                reopenAtNanos = now + REOPEN_DELAY_NANOS;
                journalError = "reopening " + dir + " failed: " + e + " (tried again every 5 s)";
                throw new JournalFailedException(journalError, e);
            }
            journal = j;
            reopenRequested = false;
            reopenAtNanos = 0; // a failure of the replay below waits 5 s again
            replayPending = true;
            reopens.inc();
            LOG.log(Level.WARNING, "sink " + name + ": journal " + dir + " reopened; " + j.backlogRecords()
                    + " records to deliver, " + unsavedCount + " to append again");
            startDeliverer();
        }
        if (replayPending) {
            replayUnsaved();
            replayPending = false;
        }
        reopenAtNanos = 0;
        journalError = "";
    }

    /**
     * Appends and commits the records kept in {@link #unsaved} (their commit on the failed journal never returned),
     * in order. When the journal is full, commits those that fit, keeps the rest and throws; the next call goes on.
     */
    private void replayUnsaved() throws IOException, JournalFullException {
        JournalWriter w = journal.writer();
        int start = 0;
        int done = 0;
        try {
            for (; done < unsavedCount; done++) {
                w.append(unsaved.array(), start, unsavedEnds[done] - start);
                start = unsavedEnds[done];
            }
            w.commit();
            saved();
        } catch (JournalFullException full) {
            w.commit();
            // keep records done..unsavedCount-1
            int from = start;
            int len = unsaved.length() - from;
            System.arraycopy(unsaved.array(), from, unsaved.array(), 0, len);
            unsaved.setLength(len);
            for (int i = done; i < unsavedCount; i++) {
                unsavedEnds[i - done] = unsavedEnds[i] - from;
            }
            unsavedCount -= done;
            throw full;
        }
    }

    /**
     * Appends {@link #record}; when the journal is full with records of this batch still pending, commits them first
     * (so that they can be delivered and free room) and tries once more.
     */
    private void appendRecord() throws JournalFullException, IOException {
        JournalWriter w = journal.writer();
        try {
            w.append(record.array(), 0, record.length());
        } catch (JournalFullException full) {
            if (w.pendingRecords() == 0) {
                throw full;
            }
            w.commit();
            saved();
            LockSupport.unpark(deliverer);
            w.append(record.array(), 0, record.length());
        }
    }

    @Override
    public void flush() throws IOException, JournalFullException {
        try {
            if (reopenAtNanos != 0 || replayPending) {
                reopen();
            }
            journal.writer().commit();
        } catch (JournalFullException full) { // reopened, the records to append again do not fit yet
            if (overflow == Overflow.block) {
                throw full;
            }
            if (overflow == Overflow.dropOldest) {
                dropRequested = true;
                LockSupport.unpark(deliverer);
            }
            return;
        } catch (JournalFailedException failed) {
            journalFailed(failed);
            if (overflow == Overflow.block) {
                throw failed;
            }
            return; // the records appended before the failure wait in memory for the reopen
        }
        saved();
        commitTimes.add(journal.committedSeq(), System.currentTimeMillis());
        LockSupport.unpark(deliverer);
    }

    @Override
    public void tick() throws IOException {
        try {
            if (journal.failed() && reopenAtNanos == 0) { // a reader-side failure, noticed while idle
                journalFailed(new JournalFailedException("journal " + dir + " failed", journal.failure()));
            }
            if (reopenAtNanos != 0 || replayPending) {
                reopen();
            }
            journal.writer().syncIfDue(clock.nanoTime());
        } catch (JournalFullException full) {
            // reopened; the records to append again wait for room (the next append, flush or tick tries again)
        } catch (JournalFailedException failed) {
            journalFailed(failed);
            if (overflow == Overflow.block) {
                throw failed;
            }
        }
    }

    @Override
    public void abort() {
        aborted = true;
        stopping = true;
        delivery.abort();
        LockSupport.unpark(deliverer);
    }

    /**
     * Commits, lets the delivery thread work off the backlog for up to {@code drain}, then closes everything. A failed
     * journal is reopened once more to commit what was appended since its failure (logged when that fails too).
     */
    @Override
    public void close() throws Exception {
        if (journal == null) {
            delivery.close();
            return;
        }
        try {
            if (replayPending && !journal.failed()) {
                replayUnsaved(); // reopened earlier, the replay waited for room: once more
                replayPending = false;
            }
            journal.writer().commit();
            saved();
        } catch (JournalFailedException e) {
            journalFailed(e);
        } catch (JournalFullException e) {
            LOG.log(Level.ERROR, "sink " + name + ": at the stop the journal has no room for " + unsavedCount
                    + " messages whose commit had failed before its reopen: they are lost (" + e.getMessage() + ")");
            saved();
        } finally {
            stopping = true;
            if (journal.failed()) {
                aborted = true; // nothing can be acknowledged: what was sent is sent again after the restart
                delivery.abort();
            }
            LockSupport.unpark(deliverer);
            deliverer.join(TimeUnit.NANOSECONDS.toMillis(drainNanos) + 1);
            if (deliverer.isAlive()) {
                aborted = true;
                delivery.abort();
                deliverer.join(10_000);
            }
            try {
                delivery.close();
            } catch (Exception e) { // what it held is in the journal: delivered after the next start
                LOG.log(Level.WARNING, "sink " + name + ": closing the delivery: " + e);
            } finally {
                if (journal.failed() && unsavedCount > 0) {
                    try {
                        journal.close();
                        journal = Journal.open(dir, "delivery", config, clock, files, space);
                        replayUnsaved();
                    } catch (IOException | JournalFullException e) {
                        LOG.log(Level.ERROR, "sink " + name + ": the journal failed and reopening it at the stop "
                                + "failed too (" + e + "): " + unsavedCount + " messages whose commit failed are "
                                + "lost");
                    }
                }
                journal.close();
                LOG.log(Level.INFO, "sink " + name + ": journal closed with " + journal.backlogRecords()
                        + " records left to deliver at the next start");
            }
        }
    }

    /**
     * The operator's reopen (SIGUSR1): the delivery thread reopens the delivery's files between two batches. Called on
     * the sink thread.
     */
    @Override
    public void reopenFiles() {
        filesReopenRequested = true;
        Thread d = deliverer;
        if (d != null) {
            LockSupport.unpark(d);
        }
    }

    /** The delivery thread: journal → destination, acknowledging what was taken. */
    private void deliverLoop() {
        Batch batch = new Batch();
        long stopDeadline = 0;
        long backoff = MIN_BACKOFF_NANOS;
        long lastTick = System.nanoTime();
        JournalReader reader = journal.reader();
        while (!aborted) {
            if (reopenRequested && (batch.sent || batch.count == 0)) {
                // a clean point: nothing half handed to the delivery; the reopened journal's reader resends the
                // batch whose acknowledgement failed
                LOG.log(Level.INFO, "sink " + name + ": delivery paused while the failed journal is reopened");
                return;
            }
            if (dropRequested && !batch.sent) {
                dropOldest(reader, batch);
            }
            if (stopping && stopDeadline == 0) {
                stopDeadline = System.nanoTime() + drainNanos;
            }
            if (stopping && System.nanoTime() - stopDeadline > 0) {
                break;
            }
            try {
                if (!deliveryStarted) {
                    delivery.start();
                    deliveryStarted = true;
                }
                if (filesReopenRequested && batch.count == 0) { // between two batches: nothing pending
                    delivery.reopenFiles();
                    filesReopenRequested = false;
                }
                if (!batch.sent) {
                    if (!batch.polled) {
                        // records go straight from the journal's read buffer to the delivery (which copies them);
                        // an add that throws leaves its record for the next poll, which goes on from there
                        if (batch.count < batchSize && batch.bytes < batchBytes) {
                            reader.poll(batchSize - batch.count, batchBytes - batch.bytes, batch);
                        }
                        batch.polled = true;
                    }
                    if (batch.count == 0) {
                        batch.polled = false;
                        if (stopping) {
                            break; // backlog delivered
                        }
                        long now = System.nanoTime();
                        progressNanos = now; // nothing to deliver: not stalled
                        if (now - lastTick >= TICK_NANOS) {
                            lastTick = now;
                            delivery.tick(); // idle: the delivery's housekeeping (idle files, failback probes)
                        }
                        LockSupport.parkNanos(IDLE_PARK_NANOS);
                        continue;
                    }
                    delivery.flush(); // throws with what was not taken kept pending in the delivery
                    batch.sent = true; // from here on only the acknowledgement is retried, never the send
                }
                reader.acknowledge(batch.lastSeq); // throws while the cursor cannot move: only this is retried
                delivered.add(batch.count);
                progressNanos = System.nanoTime();
                batch.clear();
                backoff = MIN_BACKOFF_NANOS;
            } catch (Exception thrown) {
                Exception e = thrown instanceof AddFailed a ? a.cause : thrown;
                if (aborted) {
                    break;
                }
                deliveryFailures.inc();
                lastDeliveryError = e.toString();
                LOG.log(Level.WARNING, "sink " + name + ": delivering " + batch.count + " journaled records: " + e
                        + "; retrying in " + TimeUnit.NANOSECONDS.toMillis(backoff) + " ms");
                // a deadline, not one park: every commit unparks this thread
                long until = System.nanoTime() + backoff;
                for (long left = backoff; left > 0 && !aborted && !stopping && !actionable(batch);
                        left = until - System.nanoTime()) {
                    LockSupport.parkNanos(left);
                }
                if (stopping && !aborted) {
                    LockSupport.parkNanos(Math.min(backoff, TimeUnit.MILLISECONDS.toNanos(100)));
                }
                backoff = Math.min(backoff * 2, MAX_BACKOFF_NANOS);
            }
        }
    }

    /**
     * drop-oldest, on the delivery thread: the batch being sent (not yet taken) goes to the dead-letter file, the
     * oldest segment's undelivered records are acknowledged without delivery (counted), and reading starts again
     * after the cursor.
     */
    private void dropOldest(JournalReader reader, Batch batch) {
        try {
            if (batch.count > 0) {
                delivery.deadLetterPending(deadLetters, "overflow: drop-oldest (the journal was full)");
                batch.clear();
            }
            long dropped = reader.dropOldest();
            dropRequested = false; // only now: a request while the drop ran would drop a second segment
            overflowDropped.add(dropped);
            if (dropped > 0) {
                LOG.log(Level.WARNING, "sink " + name + ": journal full: dropped " + dropped
                        + " undelivered messages of the oldest segment (overflow: drop-oldest)");
            }
        } catch (IOException e) {
            dropRequested = false;
            lastDeliveryError = e.toString();
            LOG.log(Level.WARNING, "sink " + name + ": dropping the oldest segment failed: " + e);
        }
    }

    /** Whether a drop or reopen request can be acted on now (else the backoff wait must not end early for it). */
    private boolean actionable(Batch batch) {
        return reopenRequested && (batch.sent || batch.count == 0) || dropRequested && !batch.sent;
    }

    private long freeDisk() {
        try {
            return java.nio.file.Files.getFileStore(dir).getUsableSpace();
        } catch (IOException e) {
            return -1;
        }
    }

    /** Creation time of the oldest segment file (its last change when the file system keeps no creation time). */
    private long oldestSegmentMillis() {
        try {
            return java.nio.file.Files.readAttributes(journal.head.path,
                    java.nio.file.attribute.BasicFileAttributes.class).creationTime().toMillis();
        } catch (IOException | RuntimeException e) {
            return System.currentTimeMillis();
        }
    }

    /**
     * When records were committed, coarsely (one entry per 100 ms at most, each the last sequence committed then),
     * for {@code oldestAgeSeconds}. Written by the sink thread, read by the metrics' readers; pruned by both.
     */
    static final class CommitTimes {
        private static final int MAX = 4096;
        private final long[] seq = new long[MAX];
        private final long[] millis = new long[MAX];
        private int head;
        private int size;

        synchronized void add(long lastSeq, long nowMillis) {
            if (size > 0) {
                int last = (head + size - 1) % MAX;
                if (lastSeq <= seq[last]) {
                    return;
                }
                if (nowMillis - millis[last] < 100 || size == MAX) {
                    seq[last] = lastSeq; // the entry's time stays: ages are rounded up, never down
                    return;
                }
            }
            int i = (head + size) % MAX;
            seq[i] = lastSeq;
            millis[i] = nowMillis;
            size++;
        }

        /** Seconds since the commit of the oldest record after {@code ackedSeq}; 0 when none is left. */
        synchronized long oldestAgeSeconds(long ackedSeq, long committedSeq, long nowMillis) {
            while (size > 0 && seq[head] <= ackedSeq) {
                head = (head + 1) % MAX;
                size--;
            }
            if (size == 0 || committedSeq <= ackedSeq) {
                return 0;
            }
            return Math.max(0, (nowMillis - millis[head]) / 1000);
        }
    }

    /**
     * The batch being delivered: records polled from the journal go straight to the delivery (it copies them); this
     * keeps their count, size and last sequence until the destination took them. Delivery thread.
     */
    private final class Batch implements RecordConsumer {
        int count;
        long bytes;
        long lastSeq = -1;
        /** The poll for this batch completed (records may still be 0). */
        boolean polled;
        /** The destination took the batch; only its acknowledgement in the journal is missing. */
        boolean sent;

        @Override
        public void accept(byte[] b, int off, int len, long seq) {
            try {
                delivery.add(b, off, len);
            } catch (Exception e) {
                throw new AddFailed(e); // through the reader's poll, which keeps this record for the next one
            }
            count++;
            bytes += len;
            lastSeq = seq;
        }

        void clear() {
            count = 0;
            bytes = 0;
            polled = false;
            sent = false;
        }
    }

    /** A delivery's add failure carried through {@link JournalReader#poll}; unwrapped by the delivery loop. */
    private static final class AddFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient Exception cause;

        AddFailed(Exception cause) {
            super(null, null, false, false);
            this.cause = cause;
        }
    }
}
