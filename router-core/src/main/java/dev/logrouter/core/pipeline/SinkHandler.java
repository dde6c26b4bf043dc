package dev.logrouter.core.pipeline;

import com.lmax.disruptor.EventHandler;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.sink.Clock;
import dev.logrouter.core.sink.FlushPolicy;
import dev.logrouter.core.sink.Sink;

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
 * <p>Threads: runs on its own thread, {@code sink-<name>}; {@link #abort()} may be called from any
 * thread to give up retrying during a forced stop, and the JMX {@code flush} operation from a JMX thread asks
 * this thread to flush at its next batch end or idle tick.
 */
public final class SinkHandler implements EventHandler<LogEvent> {

    private static final long MIN_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long FLUSH_REQUEST_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final String name;
    private final long bit;
    private final Sink sink;
    private final FlushPolicy policy;
    private final Clock clock;

    private final Counter written;
    private final Counter batches;
    private final Counter bytesOut;
    private final Counter failures;
    private final Counter retries;
    private final Counter lost;

    private int pendingEvents;
    private long pendingBytes;
    private long firstNanos;
    private volatile boolean aborted;
    /** Highest sequence up to which every event for this sink is flushed (published for other threads). */
    private volatile long durable = -1;
    /** What {@link #durable} will be published as: kept in a plain field per event, published once per batch. */
    private long settled = -1;
    private long current = -1;
    /** A forced stop gave up on an event: the durable sequence never moves again (nothing lost is acknowledged). */
    private boolean gaveUp;
    private volatile int state;
    private volatile String lastError = "";
    /** Operator flushes asked for (JMX {@code flush}, any thread) and how many this thread has served. */
    private final AtomicLong flushRequests = new AtomicLong();
    private volatile long flushesServed;
    private volatile int lastRequestedFlushEvents;

    /**
     * @param index the sink's number in config order: its bit in {@link LogEvent#sinkMask()}
     */
    public SinkHandler(String name, int index, Sink sink, FlushPolicy policy, Clock clock, MetricGroup metrics) {
        this.name = name;
        this.bit = 1L << index;
        this.sink = sink;
        this.policy = policy;
        this.clock = clock;
        this.written = metrics.counter("written", "Events written out by this sink (counted when their batch is flushed).");
        this.batches = metrics.counter("batches", "Batches flushed.");
        this.bytesOut = metrics.counter("bytes", "Bytes appended to batches (the sink's own measure, e.g. formatted lines).");
        this.failures = metrics.counter("failures", "Append or flush calls that failed (each is retried).");
        this.retries = metrics.counter("retries", "Retries after a failure.");
        this.lost = metrics.counter("lost", "Events still pending when a forced stop gave up retrying.");
        metrics.gauge("pending", "Events appended but not yet flushed.", () -> pendingEvents);
        metrics.gauge("averageBatchSize", "written / batches.",
                () -> {
                    long b = batches.get(); // once: a reset may zero it between two reads
                    return b == 0 ? 0 : written.get() / b;
                });
        metrics.gauge("state", "0 = running, 1 = retrying after a failure, 2 = stopped.", () -> state);
        metrics.text("lastError", "The last failure of this sink (operation: exception), empty when none; it "
                + "stays after the sink recovers (state says whether it is retrying now).", () -> lastError);
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

    /** True while a failed append, flush or housekeeping call is being retried. Any thread. */
    public boolean retrying() {
        return state == 1;
    }

    /**
     * The JMX {@code flush} operation: asks the sink thread to flush its pending batch at its next batch end or
     * idle tick, and waits for that up to 10 s. Any thread but the sink's own.
     */
    String requestFlush() {
        if (state == 2) {
            return "sink " + name + " is stopped";
        }
        long ticket = flushRequests.incrementAndGet();
        long deadline = System.nanoTime() + FLUSH_REQUEST_WAIT_NANOS;
        while (flushesServed < ticket) {
            if (state == 2) {
                return "sink " + name + " stopped (its last batch was flushed or counted lost on the way out)";
            }
            if (System.nanoTime() - deadline > 0) {
                return "sink " + name + ": flush requested, not done within 10 s: " + (state == 1
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

    /** Gives up any retry in progress (forced stop). */
    public void abort() {
        aborted = true;
        sink.abort();
    }

    @Override
    public void onStart() {
        Thread.currentThread().setName("sink-" + name);
        retrying(Op.START, null);
    }

    /**
     * The highest ring sequence up to which every event selected for this sink has been flushed (for a Kafka sink:
     * acknowledged). Any thread.
     */
    public long durableSequence() {
        return durable;
    }

    @Override
    public void onEvent(LogEvent event, long sequence, boolean endOfBatch) {
        current = sequence;
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
            settleHandled();
            durable = settled; // one volatile store per Disruptor batch, not per event
        } else {
            settleHandled();
        }
    }

    private void append(LogEvent event) {
        long n = retrying(Op.APPEND, event);
        if (n < 0) {
            lost.inc(); // forced stop gave up on it
            gaveUp = true;
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
        if (pendingEvents > 0 && policy.shouldFlush(pendingEvents, pendingBytes, firstNanos, clock.nanoTime(),
                false)) {
            flush();
        }
        serveFlushRequests();
        settleHandled();
        durable = settled;
        retrying(Op.TICK, null);
    }

    @Override
    public void onShutdown() {
        try {
            if (pendingEvents > 0) {
                flush();
            }
            settleHandled(); // the last events, flushed on the way out
            durable = settled;
            retrying(Op.CLOSE, null);
        } finally {
            flushesServed = flushRequests.get(); // a waiting operator learns the sink stopped (its batch flushed above)
            if (pendingEvents > 0) {
                lost.add(pendingEvents);
            }
            state = 2;
        }
    }

    private void flush() {
        if (retrying(Op.FLUSH, null) < 0) {
            gaveUp = true;
            return; // forced stop: onShutdown counts the batch as lost
        }
        written.add(pendingEvents);
        bytesOut.add(pendingBytes);
        batches.inc();
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

    private enum Op { START, APPEND, FLUSH, TICK, CLOSE }

    /** Runs {@code op}, retrying with backoff until it succeeds; -1 when a forced stop gave up. */
    private long retrying(Op op, LogEvent event) {
        long backoff = MIN_BACKOFF_NANOS;
        while (true) {
            try {
                long n = 0;
                switch (op) {
                    case START -> sink.start();
                    case APPEND -> n = sink.append(event);
                    case FLUSH -> sink.flush();
                    case TICK -> sink.tick();
                    case CLOSE -> sink.close();
                    default -> throw new IllegalStateException();
                }
                state = 0;
                return n;
            } catch (Exception e) {
                failures.inc();
                lastError = op + ": " + e; // before state: whoever sees "retrying" also sees why
                state = 1;
                if (aborted) {
                    return -1;
                }
                System.err.println("logrouter: sink " + name + ": " + lastError + "; retrying in "
                        + TimeUnit.NANOSECONDS.toMillis(backoff) + " ms");
                LockSupport.parkNanos(backoff);
                retries.inc();
                backoff = Math.min(backoff * 2, MAX_BACKOFF_NANOS);
            }
        }
    }
}
