package dev.logrouter.core.pipeline;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.TimeoutException;
import com.lmax.disruptor.WaitStrategy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The default wait strategy, made for small machines: a stage that finds nothing to do spins briefly,
 * then yields, then parks for a growing time (from 1 µs up to {@code maxParkNanos}), and starts over as
 * soon as it finds work. Publishers never take a lock to wake anyone ({@link #signalAllWhenBlocking()}
 * does nothing), and a stage waiting on an upstream stage does not burn a core spinning, which
 * Disruptor's blocking strategies do for stage-to-stage waits. An idle router wakes each stage about
 * once per {@code maxParkNanos}. After {@code tickNanos} without work a wait ends with a
 * {@link TimeoutException}, so that every stage's {@code onTimeout} runs periodically while idle (sinks
 * use it to close idle files and fsync on time).
 *
 * <p>Below the rate that keeps a stage busy, spinning and yielding before each event costs more than the
 * event: at 100,000 messages per second a stage would spin, yield and wake for nearly every message. So,
 * with {@code idleParkNanos} above 0, a stage whose last wait had to park parks at once for {@code
 * idleParkNanos} (doubling while it finds nothing) and wakes to a batch of events; it goes back to spinning
 * first when a wait that parked finds {@link #BUSY_BATCH} or more events waiting, i.e. when the rate is high
 * enough for spinning to pay (a stage that finds events without waiting keeps its mode). An event that
 * arrives just after such a stage woke waits for its next park: up to about twice {@code idleParkNanos} (plus
 * the kernel's timer slack) per stage.
 *
 * <p>Threads: shared by all stages of the ring; each stage thread keeps its own mode (a thread-local), read
 * and written only by that thread.
 */
public final class BackoffWaitStrategy implements WaitStrategy {

    /** Events found after a wait that mean the rate is high enough to spin first again. */
    static final int BUSY_BATCH = 64;
    private static final int SPINS = 100;
    private static final int YIELDS = 10;
    private static final long MIN_PARK_NANOS = 1_000;

    private final long idleParkNanos;
    private final long maxParkNanos;
    private final long tickNanos;
    private final ThreadLocal<Mode> modes = ThreadLocal.withInitial(Mode::new);

    /** A stage thread's mode: whether its next wait parks at once. Touched only by that thread. */
    private static final class Mode {
        boolean parkFirst;
    }

    /**
     * @param idlePark how long a stage that had to park last time parks first; 0 = always spin and yield
     *     first
     * @param maxPark the longest single park while idle
     * @param tick how long a wait lasts without work before it ends with a {@link TimeoutException}
     */
    public BackoffWaitStrategy(long idlePark, long maxPark, long tick, TimeUnit unit) {
        this.maxParkNanos = Math.max(MIN_PARK_NANOS, unit.toNanos(maxPark));
        this.idleParkNanos = Math.min(this.maxParkNanos, unit.toNanos(idlePark));
        this.tickNanos = unit.toNanos(tick);
    }

    @Override
    public long waitFor(long sequence, Sequence cursor, Sequence dependentSequence, SequenceBarrier barrier)
            throws AlertException, TimeoutException {
        long available = dependentSequence.get();
        if (available >= sequence) {
            return available;
        }
        Mode mode = idleParkNanos > 0 ? modes.get() : null;
        boolean parkFirst = mode != null && mode.parkFirst;
        int counter = parkFirst ? SPINS + YIELDS : 0;
        long park = parkFirst ? idleParkNanos : MIN_PARK_NANOS;
        long parkedSince = 0;
        while ((available = dependentSequence.get()) < sequence) {
            barrier.checkAlert();
            if (counter < SPINS) {
                counter++;
                Thread.onSpinWait();
            } else if (counter < SPINS + YIELDS) {
                counter++;
                Thread.yield();
            } else {
                long now = System.nanoTime();
                if (parkedSince == 0) {
                    parkedSince = now;
                    if (mode != null) {
                        mode.parkFirst = true;
                    }
                } else if (now - parkedSince >= tickNanos) {
                    throw TimeoutException.INSTANCE;
                }
                LockSupport.parkNanos(park);
                park = Math.min(park * 2, maxParkNanos);
            }
        }
        if (parkFirst && available - sequence + 1 >= BUSY_BATCH) {
            mode.parkFirst = false;
        }
        return available;
    }

    /** Whether the calling stage thread's next wait parks at once (for tests and diagnostics). */
    boolean parksFirst() {
        return idleParkNanos > 0 && modes.get().parkFirst;
    }

    @Override
    public void signalAllWhenBlocking() {
        // nobody blocks on a lock: waiting stages park for bounded times and look again
    }

    @Override
    public String toString() {
        return "BackoffWaitStrategy{idleParkNanos=" + idleParkNanos + ", maxParkNanos=" + maxParkNanos + '}';
    }
}
