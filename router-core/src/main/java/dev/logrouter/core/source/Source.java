package dev.logrouter.core.source;

import java.util.concurrent.TimeUnit;

/**
 * A running input that publishes into the ring. Stopping separates the signal from the wait:
 * {@link #stopAccepting()} closes listeners and connections (TCP: what was read is still published),
 * {@link #awaitPublished} waits until nothing read is left unpublished, {@link #close()} frees threads.
 *
 * <p>Threads: lifecycle calls come from the thread that starts and stops the router.
 */
public interface Source extends AutoCloseable {

    String name();

    /** Binds and starts receiving. */
    void start() throws Exception;

    /** The address actually bound (useful with port 0), as {@code host:port}. */
    String boundAddress();

    /** Stops taking new messages: closes listeners and connections. */
    void stopAccepting();

    /** Waits until every message read so far is in the ring; false on timeout. */
    boolean awaitPublished(long timeout, TimeUnit unit) throws InterruptedException;

    @Override
    void close();
}
