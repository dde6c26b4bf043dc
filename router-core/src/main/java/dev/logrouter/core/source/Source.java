package dev.logrouter.core.source;

import java.util.concurrent.TimeUnit;

/**
 * A running input that publishes into the ring. Stopping separates the signal from the wait:
 * {@link #stopAccepting()} closes listeners (no new connections or datagrams), {@link #awaitPublished}
 * lets open connections finish and waits until nothing read is left unpublished, {@link #close()} releases
 * everything: the router calls it last, after the ring drained (so a source that acknowledges upstream, like
 * Kafka's committed offsets, acknowledges there what the sinks flushed), and it is also the forced stop (what could
 * not be published is released and counted).
 *
 * <p>Threads: lifecycle calls come from the thread that starts and stops the router.
 */
public interface Source extends AutoCloseable {

    String name();

    /** Binds and starts receiving. */
    void start() throws Exception;

    /** The address actually bound (useful with port 0), as {@code host:port}. */
    String boundAddress();

    /** Stops taking new connections and datagrams: closes listeners. Returns quickly. */
    void stopAccepting();

    /** Lets open connections finish, then waits until every message read is in the ring; false on timeout. */
    boolean awaitPublished(long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * Why this source has failed continuously for at least {@code staleNanos} (a journald source whose
     * {@code journalctl} cannot start), or null while it works. For {@code /health}: any thread, cheap (no I/O).
     * The default: null (a source that runs listens; one that could not start is not running at all).
     *
     * @param nowNanos   {@link System#nanoTime()} now
     * @param staleNanos {@code health.stale-after}
     */
    default String failing(long nowNanos, long staleNanos) {
        return null;
    }

    @Override
    void close();
}
