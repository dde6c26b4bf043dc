package dev.logrouter.core.testing;

import dev.logrouter.core.util.Clock;

import java.time.Duration;

/**
 * A {@link Clock} that only moves when the test says so, from any origin (System.nanoTime may be negative or near a
 * wrap). Shared with the other modules' tests through router-core's test jar.
 *
 * <p>Threads: the test thread.
 */
public final class ManualClock implements Clock {

    private long now;

    public ManualClock() {
        this(0L);
    }

    public ManualClock(long origin) {
        this.now = origin;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    public void advance(Duration d) {
        now += d.toNanos();
    }
}
