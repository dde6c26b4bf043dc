package dev.logrouter.bench.loadgen;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Rate limit of one connection: message {@code k} (0-based) may leave at {@code start + k / rate}.
 *
 * <p>Releases messages in bursts of at least one millisecond's worth so that a limited sender still writes
 * many messages per syscall. Confined to its sender thread.
 */
final class Pacer {

    private final double perSecond;
    private final long startNanos;
    private final int minBurst;
    private final LongSupplier nanoClock;

    /**
     * @param perSecond messages per second for this connection, 0 = unlimited
     * @param startNanos the time message 0 is due, on {@code nanoClock}
     */
    Pacer(double perSecond, long startNanos, LongSupplier nanoClock) {
        this.perSecond = perSecond;
        this.startNanos = startNanos;
        this.minBurst = (int) Math.max(1, Math.min(Integer.MAX_VALUE, perSecond / 1000));
        this.nanoClock = nanoClock;
    }

    /**
     * Waits until at least {@code min(max, one millisecond's worth)} more messages are due and returns how
     * many may be sent now (at most {@code max}), or 0 when {@code endNanos} came first.
     *
     * @param sent messages already sent on this connection
     * @param max  messages the caller can send in one go (>= 1)
     */
    int await(long sent, int max, long endNanos) {
        if (perSecond <= 0) {
            return max;
        }
        int want = Math.min(max, minBurst);
        while (true) {
            long now = nanoClock.getAsLong();
            if (now - endNanos >= 0) {
                return 0;
            }
            long due = (long) ((now - startNanos) * perSecond / 1e9) + 1;
            long allowed = due - sent;
            if (allowed >= want) {
                return (int) Math.min(allowed, max);
            }
            long readyAt = startNanos + (long) Math.ceil((sent + want - 1) * 1e9 / perSecond);
            LockSupport.parkNanos(Math.max(1_000, Math.min(readyAt, endNanos) - now));
        }
    }
}
