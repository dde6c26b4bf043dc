package dev.logrouter.core.source;

import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import dev.logrouter.core.event.LogEvent;

/**
 * How a source publishes into the ring in batches without ever waiting: claim up to a batch of the free slots at
 * once ({@link #size}, {@link #tryClaim}), fill them, and publish the whole claimed range once ({@link #publish}).
 * A claimed slot must be published, or the ring stalls; a slot left unfilled (only after an unexpected error) is
 * published marked {@link LogEvent#FLAG_DISCARD}, so that no stage delivers the message it held before.
 *
 * <p>Threads: the publishing thread (a Netty event loop, a Kafka consumer thread); the ring is multi-producer.
 */
public final class RingClaim {

    private RingClaim() {
    }

    /**
     * How many slots to claim for {@code wanted} items: at most {@code maxBatch} and the ring's free room. When the
     * ring has room for them all, which {@link RingBuffer#hasAvailableCapacity} answers from the sequencer's cached
     * view of the stages' positions, the stages' sequences (written by other threads, on other cores) are not read.
     */
    public static int size(RingBuffer<LogEvent> ring, long wanted, int maxBatch) {
        int n = (int) Math.min(wanted, maxBatch);
        if (n <= 0 || ring.hasAvailableCapacity(n)) {
            return n;
        }
        return (int) Math.min(n, ring.remainingCapacity());
    }

    /**
     * Claims {@code n} slots without waiting; returns the highest sequence claimed (the lowest is
     * {@code hi - n + 1}), or -1 when {@code n <= 0} or another producer took the room meanwhile (the caller keeps
     * its items and retries later).
     */
    public static long tryClaim(RingBuffer<LogEvent> ring, int n) {
        if (n <= 0) {
            return -1;
        }
        try {
            return ring.tryNext(n);
        } catch (InsufficientCapacityException e) {
            return -1;
        }
    }

    /**
     * Publishes the claimed range {@code [lo, hi]}, of which {@code [lo, firstUnfilled)} was filled: the rest is
     * cleared and marked discarded first. Call it in a {@code finally}.
     */
    public static void publish(RingBuffer<LogEvent> ring, long lo, long hi, long firstUnfilled) {
        for (long s = firstUnfilled; s <= hi; s++) {
            LogEvent e = ring.get(s);
            e.clear();
            e.addFlag(LogEvent.FLAG_DISCARD);
        }
        ring.publish(lo, hi);
    }
}
