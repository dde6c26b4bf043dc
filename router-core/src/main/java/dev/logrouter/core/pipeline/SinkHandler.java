package dev.logrouter.core.pipeline;

import com.lmax.disruptor.EventHandler;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.FlushPolicy;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.sink.SinkConfig;
import dev.logrouter.core.util.Clock;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Sink stage: one per sink, on its own thread. Takes the events whose sink mask has this sink's bit,
 * appends them to the sink's batch and flushes as its {@link FlushPolicy} decides (full by count or
 * bytes, too old, or the end of a Disruptor batch). A failing append or flush is retried with capped
 * exponential backoff (10 ms doubling to 5 s) on this thread, which holds the ring: backpressure
 * reaches TCP senders and nothing accepted is lost. On shutdown the batch is flushed and the sink
 * closed on this same thread.
 *
 * <p>With {@code max-retries} N >= 0 the handler gives an item up after N retries: a failed append's event is
 * written to the sink's {@link DeadLetterFile} (its received message), a failed flush's pending batch is handed
 * over by the sink ({@link Sink#deadLetterBatch}: the ring no longer holds those events), counted
 * ({@code givenUp}), and the handler goes on with the next event. The sink is then "giving up" (state 3): each
 * further failing append or flush is given up at once, without backoff, until one succeeds, so that a sink failing
 * on every event costs one attempt per event rather than the backoff schedule, and the other sinks and sources
 * keep their pace. The durable sequence passes only events written or dead-lettered: a dead letter the file could
 * not take (counted {@code deadLetterFailures}) freezes it, as a forced stop does.
 *
 * <p>A reload's control carrier ({@link Reconfiguration}) reaches this handler between two messages: a removed sink
 * flushes and closes there, a changed one flushes, closes and starts its new instance there.
 *
 * <p>Threads: runs on its own thread, {@code sink-<name>}; {@link #abort()} may be called from any
 * thread to give up retrying during a forced stop, and the JMX {@code flush} operation from a JMX thread asks
 * this thread to flush at its next batch end or idle tick ({@link #requestReopen} likewise).
 */
public final class SinkHandler implements EventHandler<LogEvent> {

    private static final Logger LOG = System.getLogger(SinkHandler.class.getName());
    private static final long MIN_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long FLUSH_REQUEST_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** {@link #attempt} results besides the bytes appended. */
    private static final long ABORTED = -1;
    private static final long GAVE_UP = -2;
    /** {@link #state} values. */
    private static final int RUNNING = 0;
    private static final int RETRYING = 1;
    private static final int STOPPED = 2;
    private static final int GIVING_UP = 3;
    /** The JMX text of each state, by its number. */
    private static final String[] STATE_NAMES = {"RUNNING", "RETRYING", "STOPPED", "GIVING_UP"};

    private final String name;
    private final long bit;
    /** The sink and its options: replaced by a reload that changed them, on this thread ({@link #reconfigure}). */
    private volatile Sink sink; // volatile for abort(), from any thread; a plain load on the hot path (x86)
    private FlushPolicy policy;
    private final Clock clock;
    /** -1: retry forever; N >= 0: give an item up after N retries. */
    private int maxRetries;
    private DeadLetterFile deadLetters;
    /** A reload removed this sink: it flushed and closed at the reload's carrier; its handler is being stopped. */
    private boolean retired;
    /** Operator reopens asked for (JMX {@code reopen}, SIGUSR1; any thread) and how many this thread has served. */
    private final AtomicLong reopenRequests = new AtomicLong();
    private volatile long reopensServed;
    /** False once the sink said it cannot hand its batch over: its flushes are then retried forever. */
    private boolean canHandOver = true;
    /** Last seen {@link DeadLetterFile#lostItems()}. */
    private long deadLettersLost;

    private final Counter written;
    private final Counter batches;
    private final Counter bytesOut;
    private final Counter failures;
    private final Counter retries;
    private final Counter lost;
    private final Counter givenUp;

    private int pendingEvents;
    private long pendingBytes;
    private long firstNanos;
    private volatile boolean aborted;
    /** This sink's thread, set when it starts: {@link #abort} wakes it from a retry's backoff. */
    private volatile Thread thread;
    /** Highest sequence up to which every event for this sink is flushed (published for other threads). */
    private volatile long durable = -1;
    /** What {@link #durable} will be published as: kept in a plain field per event, published once per batch. */
    private long settled = -1;
    private long current = -1;
    /**
     * An event was lost (a forced stop gave up on it, or its dead letter could not be written): the durable sequence
     * never moves again (nothing lost is acknowledged).
     */
    private boolean gaveUp;
    /** max-retries ran out and no append or flush has succeeded since: failures are given up at once. */
    private boolean givingUp;
    /** The last give-up came without retries (the sink was giving up already): for the dead letters' reason. */
    private boolean gaveUpAtOnce;
    private volatile int state;
    private volatile String lastError = "";
    /** Operator flushes asked for (JMX {@code flush}, any thread) and how many this thread has served. */
    private final AtomicLong flushRequests = new AtomicLong();
    private volatile long flushesServed;
    private volatile int lastRequestedFlushEvents;

    /**
     * @param index       the sink's number in config order: its bit in {@link LogEvent#sinkMask()}
     * @param maxRetries  -1: retry forever; N >= 0: give an item up after N retries
     * @param deadLetters where given-up items go (the sink's own, shared with it)
     */
    public SinkHandler(String name, int index, Sink sink, FlushPolicy policy, int maxRetries, DeadLetterFile deadLetters,
                       Clock clock, MetricGroup metrics) {
        SinkConfig.checkMaxRetries(maxRetries);
        this.name = name;
        this.bit = 1L << index;
        this.sink = sink;
        this.policy = policy;
        this.clock = clock;
        this.maxRetries = maxRetries;
        this.deadLetters = deadLetters;
        this.written = metrics.counter("written", "Events written out by this sink (counted when their batch is flushed).");
        this.batches = metrics.counter("batches", "Batches flushed.");
        this.bytesOut = metrics.counter("bytes", "Bytes appended to batches (the sink's own measure, e.g. formatted lines).");
        this.failures = metrics.counter("failures", "Append or flush calls that failed (each is retried, or given up "
                + "with max-retries).");
        this.retries = metrics.counter("retries", "Retries after a failure.");
        this.lost = metrics.counter("lost", "Events still pending when a forced stop gave up retrying.");
        this.givenUp = metrics.counter("givenUp", "Events given up after max-retries (a failed append's event, or "
                + "the pending batch of a failed flush, of which a part may have been written before the failure: the "
                + "dead letters hold what was not): written to the dead-letter file (deadLettered) unless that "
                + "failed too (deadLetterFailures).");
        metrics.gauge("pending", "Events appended but not yet flushed.", () -> pendingEvents);
        metrics.gauge("averageBatchSize", "written / batches.",
                () -> {
                    long b = batches.get(); // once: a reset may zero it between two reads
                    return b == 0 ? 0 : written.get() / b;
                });
        metrics.text("state", "RUNNING, RETRYING (after a failure), STOPPED, or GIVING_UP (max-retries ran out: "
                + "failing items are dead-lettered at once until an append or flush succeeds).",
                () -> STATE_NAMES[state]);
        metrics.text("lastError", "The last failure of this sink (operation: exception), empty when none; it "
                + "stays after the sink recovers (state says whether it is retrying or giving up now).",
                () -> lastError);
        metrics.operation("flush", "Writes this sink's pending batch out now, on the sink's own thread, and waits "
                + "up to 10 s for it.", this::requestFlush);
    }

    public String name() {
        return name;
    }

    /** The message of the last failure, or empty. */
    public String lastError() {
        return lastError;
    }

    /** RUNNING, RETRYING, STOPPED or GIVING_UP. Any thread. */
    public String state() {
        return STATE_NAMES[state];
    }

    /** {@link Sink#stalled} of the sink this handler runs now. Any thread. */
    public String stalled(long nowNanos, long staleNanos) {
        return sink.stalled(nowNanos, staleNanos);
    }

    /** True while the sink is retrying or, after max-retries ran out, giving failing items up. Any thread. */
    public boolean degraded() {
        int st = state;
        return st == RETRYING || st == GIVING_UP;
    }

    /**
     * The JMX {@code flush} operation: asks the sink thread to flush its pending batch at its next batch end or
     * idle tick, and waits for that up to 10 s. Any thread but the sink's own.
     */
    String requestFlush() {
        if (state == STOPPED) {
            return "sink " + name + " is stopped";
        }
        long ticket = flushRequests.incrementAndGet();
        long deadline = System.nanoTime() + FLUSH_REQUEST_WAIT_NANOS;
        while (flushesServed < ticket) {
            if (state == STOPPED) {
                return "sink " + name + " stopped (its last batch was flushed or counted lost on the way out)";
            }
            if (System.nanoTime() - deadline > 0) {
                return "sink " + name + ": flush requested, not done within 10 s: " + (state == RETRYING
                        ? "the sink is retrying after '" + lastError + "'"
                        : "without idle ticks (wait-strategy yielding or busy-spin) it flushes with the next message");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return "sink " + name + ": flushed (" + lastRequestedFlushEvents + " events were pending)";
    }

    /** On this sink's thread, at a batch end or idle tick: serves operator flush requests (one volatile read). */
    private void serveFlushRequests() {
        long requested = flushRequests.get();
        if (requested != flushesServed) {
            int n = pendingEvents;
            if (n > 0) {
                flush();
            }
            lastRequestedFlushEvents = n;
            flushesServed = requested;
        }
    }

    /**
     * Gives up any retry in progress (forced stop): a retry waiting out its backoff (up to 5 s) tries once more at
     * once and, failing, gives up, so that the thread ends within the stop's wait and counts its batch {@code lost}.
     */
    public void abort() {
        aborted = true;
        sink.abort();
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void onStart() {
        thread = Thread.currentThread();
        Thread.currentThread().setName("sink-" + name);
        attempt(Op.START, null, false);
    }

    /**
     * The highest ring sequence up to which every event selected for this sink has been flushed (for a Kafka sink:
     * acknowledged). Any thread.
     */
    public long durableSequence() {
        return durable;
    }

    /**
     * For a handler that joins a running ring (a sink a reload added): every event up to {@code sequence} was
     * published before it joined and is none of its business, so its durable sequence starts there (the completed
     * sequence of the pipeline must not step back). Called before its thread starts.
     */
    void startAfter(long sequence) {
        settled = sequence;
        current = sequence;
        durable = sequence;
    }

    /** True once a reload removed this sink and it closed (at the reload's carrier). Any thread. */
    boolean retired() {
        return state == STOPPED && retired;
    }

    /**
     * Asks this sink to close and reopen its files after its current batch (SIGUSR1, JMX {@code reopen}: logrotate's
     * postrotate); served at the next batch end or idle tick. Any thread; returns at once.
     */
    public void requestReopen() {
        reopenRequests.incrementAndGet();
    }

    /** On this thread: flushes the batch, then lets the sink reopen what it holds open. */
    private void serveReopenRequests() {
        long requested = reopenRequests.get();
        if (requested != reopensServed) {
            if (pendingEvents > 0) {
                flush();
            }
            attempt(Op.REOPEN, null, maxRetries >= 0);
            reopensServed = requested;
        }
    }

    /** A reload's carrier: this sink goes on, stops, or restarts with new options. */
    private void reconfigure(Reconfiguration r) {
        SinkBinding next = r.replacedSinks().get(name);
        boolean removed = r.removedSinks().contains(name);
        if (next == null && !removed) {
            return;
        }
        if (pendingEvents > 0) {
            flush();
        }
        settleHandled();
        durable = settled;
        if (attempt(Op.CLOSE, null, maxRetries >= 0) == GAVE_UP) {
            LOG.log(Level.ERROR, "sink " + name + ": close given up after max-retries: " + lastError);
        }
        if (next != null && next.deadLetters() != deadLetters || removed) {
            closeDeadLetters();
        }
        if (removed) {
            retired = true;
            flushesServed = flushRequests.get();
            state = STOPPED;
            LOG.log(Level.INFO, "sink " + name + ": removed by the reload (flushed and closed)");
            return;
        }
        sink = next.sink();
        policy = next.policy();
        maxRetries = next.maxRetries();
        deadLetters = next.deadLetters() != null ? next.deadLetters() : deadLetters;
        canHandOver = true;
        givingUp = false;
        state = RUNNING;
        attempt(Op.START, null, false);
        LOG.log(Level.INFO, "sink " + name + ": restarted with its new options by the reload");
    }

    private void closeDeadLetters() {
        try {
            deadLetters.close();
        } catch (java.io.IOException e) {
            LOG.log(Level.WARNING, "sink " + name + ": closing the dead-letter file: " + e);
        }
    }

    @Override
    public void onEvent(LogEvent event, long sequence, boolean endOfBatch) {
        if (retired) {
            return; // removed by a reload: the handler is being halted; nothing after the carrier selects it
        }
        current = sequence;
        if (event.hasFlag(LogEvent.FLAG_CARRIER) && event.control() instanceof Reconfiguration r) {
            reconfigure(r);
            if (retired) {
                return;
            }
        }
        for (int i = 0, n = event.attachedCount(); i < n; i++) {
            LogEvent g = event.attachedAt(i); // generated by the serial stage: delivered before the event
            if ((g.sinkMask() & bit) != 0 && !g.hasFlag(LogEvent.FLAG_DISCARD)) {
                append(g);
            }
        }
        if ((event.sinkMask() & bit) != 0 && !event.hasFlag(LogEvent.FLAG_DISCARD)) {
            append(event);
        }
        if (pendingEvents > 0 && policy.shouldFlush(pendingEvents, pendingBytes, firstNanos, clock.nanoTime(),
                endOfBatch)) {
            flush();
        }
        if (endOfBatch) {
            serveFlushRequests();
            serveReopenRequests();
        }
        settleHandled();
        if (endOfBatch) {
            durable = settled; // one volatile store per Disruptor batch, not per event
        }
    }

    private void append(LogEvent event) {
        long n = attempt(Op.APPEND, event, maxRetries >= 0);
        if (n == ABORTED) {
            lost.inc(); // forced stop gave up on it
            gaveUp = true;
            return;
        }
        if (n == GAVE_UP) {
            deadLetter(event);
            return;
        }
        if (pendingEvents == 0) {
            firstNanos = clock.nanoTime();
        }
        pendingEvents++;
        pendingBytes += n;
        if (pendingEvents >= policy.batchSize() || pendingBytes >= policy.batchBytes()) {
            flush();
        }
    }

    /** The ring has been idle for a while: flush a due batch and let the sink do its housekeeping. */
    @Override
    public void onTimeout(long sequence) {
        if (retired) {
            return;
        }
        if (pendingEvents > 0 && policy.shouldFlush(pendingEvents, pendingBytes, firstNanos, clock.nanoTime(),
                false)) {
            flush();
        }
        serveFlushRequests();
        serveReopenRequests();
        settleHandled();
        durable = settled;
        attempt(Op.TICK, null, maxRetries >= 0); // given up: nothing to hand over, the next tick tries again
    }

    @Override
    public void onShutdown() {
        if (retired) {
            return; // closed at the reload's carrier
        }
        try {
            if (pendingEvents > 0) {
                flush();
            }
            settleHandled(); // the last events, flushed on the way out
            durable = settled;
            if (attempt(Op.CLOSE, null, maxRetries >= 0) == GAVE_UP) {
                LOG.log(Level.ERROR, "sink " + name + ": close given up after max-retries: " + lastError);
            }
            closeDeadLetters();
        } finally {
            flushesServed = flushRequests.get(); // a waiting operator learns the sink stopped (its batch flushed above)
            if (pendingEvents > 0) {
                lost.add(pendingEvents);
            }
            state = STOPPED;
        }
    }

    private void flush() {
        long r = attempt(Op.FLUSH, null, maxRetries >= 0 && canHandOver);
        if (r == GAVE_UP && !handOver()) {
            r = attempt(Op.FLUSH, null, false); // the sink cannot hand its batch over: lossless, as without max-retries
        }
        if (r == ABORTED) {
            gaveUp = true;
            return; // forced stop: onShutdown counts the batch as lost
        }
        if (r == GAVE_UP) {
            givenUp.add(pendingEvents);
        } else {
            written.add(pendingEvents);
            bytesOut.add(pendingBytes);
            batches.inc();
        }
        checkDeadLetters(); // a sink's own dead letters (records the broker never takes) may have failed
        pendingEvents = 0;
        pendingBytes = 0;
        // everything before the event being handled is out (the event itself may be appended after this flush)
        if (!gaveUp) {
            settled = Math.max(settled, current - 1);
        }
        durable = settled;
    }

    /** Nothing pending and nothing given up: every event handled so far is out, up to the current sequence. */
    private void settleHandled() {
        if (pendingEvents == 0 && !gaveUp) {
            settled = current;
        }
    }

    /**
     * max-retries ran out for the flush: the sink writes its pending batch to the dead-letter file and empties it.
     * False when it cannot (then the flush is retried forever).
     */
    private boolean handOver() {
        try {
            sink.deadLetterBatch(deadLetters, "flush given up" + retriesPart() + ": " + lastError);
            return true;
        } catch (UnsupportedOperationException e) {
            canHandOver = false;
            LOG.log(Level.WARNING, "sink " + name + ": cannot hand its pending batch over (" + e.getMessage()
                    + "): its flushes are retried without limit");
        } catch (Exception e) {
            LOG.log(Level.WARNING, "sink " + name + ": handing its pending batch to the dead-letter file "
                    + "failed (" + e + "): the flush is retried without limit");
        }
        return false;
    }

    /** max-retries ran out for the append of {@code event}: its received message goes to the dead-letter file. */
    private void deadLetter(LogEvent event) {
        givenUp.inc();
        String reason = "append given up" + retriesPart() + ": " + lastError;
        if (event.rawLength() > 0) {
            deadLetters.write(null, reason, null, event.raw(), 0, event.rawLength());
        } else { // generated by the serial stage: its message is all it has
            int f = LogEvent.MSG;
            deadLetters.write(null, reason, null, event.fieldArray(f), event.fieldOffset(f), event.fieldLength(f));
        }
        checkDeadLetters();
    }

    private String retriesPart() {
        return gaveUpAtOnce ? " at once (max-retries " + maxRetries + " ran out before)" : " after " + maxRetries
                + " retries";
    }

    /** A dead letter the file could not take is a lost item: the durable sequence stops where it is. */
    private void checkDeadLetters() {
        long l = deadLetters.lostItems();
        if (l != deadLettersLost) {
            deadLettersLost = l;
            gaveUp = true;
        }
    }

    private enum Op { START, APPEND, FLUSH, TICK, REOPEN, CLOSE }

    /**
     * Runs {@code op}, retrying with backoff until it succeeds; {@link #ABORTED} when a forced stop gave up;
     * {@link #GAVE_UP} when {@code mayGiveUp} and max-retries ran out (at once while giving up).
     */
    private long attempt(Op op, LogEvent event, boolean mayGiveUp) {
        long backoff = MIN_BACKOFF_NANOS;
        int retried = 0;
        while (true) {
            try {
                long n = 0;
                switch (op) {
                    case START -> sink.start();
                    case APPEND -> n = sink.append(event);
                    case FLUSH -> sink.flush();
                    case TICK -> sink.tick();
                    case REOPEN -> sink.reopenFiles();
                    case CLOSE -> sink.close();
                    default -> throw new IllegalStateException();
                }
                if (state != RUNNING) { // a volatile read per call; the store only on a change
                    recovered(op);
                }
                return n;
            } catch (Exception e) {
                failures.inc();
                lastError = op + ": " + e; // before state: whoever sees "retrying" also sees why
                if (aborted) {
                    state = RETRYING;
                    return ABORTED;
                }
                if (mayGiveUp && (givingUp || retried >= maxRetries)) {
                    gaveUpAtOnce = givingUp;
                    if (!givingUp) {
                        givingUp = true;
                        LOG.log(Level.ERROR, "sink " + name + ": " + lastError + "; given up after "
                                + retried + " retries (max-retries): the item goes to " + deadLetters.path()
                                + ", and every further failing item too, at once, until an append or flush succeeds");
                    }
                    state = GIVING_UP;
                    return GAVE_UP;
                }
                state = RETRYING;
                LOG.log(Level.WARNING, "sink " + name + ": " + lastError + "; retrying in "
                        + TimeUnit.NANOSECONDS.toMillis(backoff) + " ms");
                LockSupport.parkNanos(backoff); // abort() unparks: the next try then gives up at once if it fails
                retries.inc();
                backoff = Math.min(backoff * 2, MAX_BACKOFF_NANOS);
                retried++;
            }
        }
    }

    /** {@code op} succeeded after a failure: an append or flush ends giving up; the state says what holds now. */
    private void recovered(Op op) {
        if (givingUp && (op == Op.APPEND || op == Op.FLUSH)) {
            givingUp = false;
            LOG.log(Level.INFO, "sink " + name + ": " + op + " succeeded again: failures are retried again");
        }
        state = givingUp ? GIVING_UP : RUNNING;
    }
}
