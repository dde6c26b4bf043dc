package dev.logrouter.core.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The one way tests wait for something another thread does and that gives no signal to wait on (a counter
 * moving, a line reaching a file): the condition is checked again and again, with a short, growing pause,
 * until it holds or the deadline passes. Never a fixed sleep. Shared with the other modules' tests
 * through router-core's test jar.
 *
 * <p>Threads: the test thread.
 */
public final class Conditions {

    private static final long MAX_PAUSE_NANOS = 10_000_000;

    private Conditions() {
    }

    /** Returns true as soon as {@code condition} holds, false if it still does not at the deadline. */
    public static boolean await(BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = 100_000;
        while (!condition.getAsBoolean()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return condition.getAsBoolean();
            }
            LockSupport.parkNanos(Math.min(pause, left));
            pause = Math.min(pause * 2, MAX_PAUSE_NANOS);
        }
        return true;
    }
}
