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
 * <p>Threads: shared by all stages of the ring; stateless apart from its constant.
 */
public final class BackoffWaitStrategy implements WaitStrategy {

    private static final int SPINS = 100;
    private static final int YIELDS = 10;
    private static final long MIN_PARK_NANOS = 1_000;

    private final long maxParkNanos;
    private final long tickNanos;

    public BackoffWaitStrategy(long maxPark, long tick, TimeUnit unit) {
        this.maxParkNanos = Math.max(MIN_PARK_NANOS, unit.toNanos(maxPark));
        this.tickNanos = unit.toNanos(tick);
    }

    @Override
    public long waitFor(long sequence, Sequence cursor, Sequence dependentSequence, SequenceBarrier barrier)
            throws AlertException, TimeoutException {
        long available;
        int counter = 0;
        long park = MIN_PARK_NANOS;
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
                } else if (now - parkedSince >= tickNanos) {
                    throw TimeoutException.INSTANCE;
                }
                LockSupport.parkNanos(park);
                park = Math.min(park * 2, maxParkNanos);
            }
        }
        return available;
    }

    @Override
    public void signalAllWhenBlocking() {
        // nobody blocks on a lock: waiting stages park for bounded times and look again
    }

    @Override
    public String toString() {
        return "BackoffWaitStrategy{maxParkNanos=" + maxParkNanos + '}';
    }
}
