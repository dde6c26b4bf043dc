package dev.logrouter.core.pipeline;

import com.lmax.disruptor.ExceptionHandler;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * The exception handler set on the ring: an exception escaping a stage is counted and reported, and
 * the stage goes on with the next event (the Disruptor default would stop the stage for good). Such an exception
 * is a bug: it is logged as an error with its stack trace.
 *
 * <p>Threads: called on the stage thread that threw.
 */
final class CountingExceptionHandler implements ExceptionHandler<LogEvent> {

    private static final Logger LOG = System.getLogger(CountingExceptionHandler.class.getName());

    private final Counter errors;

    CountingExceptionHandler(Counter errors) {
        this.errors = errors;
    }

    @Override
    public void handleEventException(Throwable ex, long sequence, LogEvent event) {
        errors.inc();
        LOG.log(Level.ERROR, Thread.currentThread().getName() + ": unexpected error at sequence " + sequence + ": "
                + ex, ex);
    }

    @Override
    public void handleOnStartException(Throwable ex) {
        errors.inc();
        LOG.log(Level.ERROR, Thread.currentThread().getName() + ": error on start: " + ex, ex);
    }

    @Override
    public void handleOnShutdownException(Throwable ex) {
        errors.inc();
        LOG.log(Level.ERROR, Thread.currentThread().getName() + ": error on shutdown: " + ex, ex);
    }
}
