package dev.logrouter.core.util;

/**
 * A monotonic clock, injected so that tests control time.
 *
 * <p>Threads: implementations are thread-safe.
 */
@FunctionalInterface
public interface Clock {

    Clock SYSTEM = System::nanoTime;

    long nanoTime();
}
