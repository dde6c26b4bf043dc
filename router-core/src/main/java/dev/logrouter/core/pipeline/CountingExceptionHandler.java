package dev.logrouter.core.pipeline;

import com.lmax.disruptor.ExceptionHandler;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;

/**
 * The exception handler set on the ring: an exception escaping a stage is counted and reported, and
 * the stage goes on with the next event (the Disruptor default would stop the stage for good).
 *
 * <p>Threads: called on the stage thread that threw.
 */
final class CountingExceptionHandler implements ExceptionHandler<LogEvent> {

    private final Counter errors;

    CountingExceptionHandler(Counter errors) {
        this.errors = errors;
    }

    @Override
    public void handleEventException(Throwable ex, long sequence, LogEvent event) {
        errors.inc();
        System.err.println("logrouter: " + Thread.currentThread().getName() + ": unexpected error at sequence "
                + sequence + ": " + ex);
    }

    @Override
    public void handleOnStartException(Throwable ex) {
        errors.inc();
        System.err.println("logrouter: " + Thread.currentThread().getName() + ": error on start: " + ex);
    }

    @Override
    public void handleOnShutdownException(Throwable ex) {
        errors.inc();
        System.err.println("logrouter: " + Thread.currentThread().getName() + ": error on shutdown: " + ex);
    }
}
