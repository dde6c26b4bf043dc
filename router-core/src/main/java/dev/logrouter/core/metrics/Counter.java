package dev.logrouter.core.metrics;

import java.util.concurrent.atomic.LongAdder;

/**
 * A monotonically increasing count, striped ({@link LongAdder}) so that several event-loop or worker
 * threads can add to it without contention or locks.
 *
 * <p>Threads: any thread adds; any thread (JMX) reads.
 */
public final class Counter {

    private final LongAdder adder = new LongAdder();

    public void inc() {
        adder.increment();
    }

    public void add(long n) {
        adder.add(n);
    }

    public long get() {
        return adder.sum();
    }
}
