package dev.logrouter.netty.tcp;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a clean stop of a TCP source waits for: the connections whose publish handler has not finished
 * (its channel still open, or frames still queued for the ring), and the number of frames queued.
 *
 * <p>Threads: event loops update it; the stopping thread and JMX read it.
 */
final class TcpSourceState {

    private final Set<TcpPublishHandler> live = ConcurrentHashMap.newKeySet();
    private final AtomicInteger pendingFrames = new AtomicInteger();

    void handlerStarted(TcpPublishHandler h) {
        live.add(h);
    }

    void handlerFinished(TcpPublishHandler h) {
        live.remove(h);
    }

    void pendingChanged(int delta) {
        pendingFrames.addAndGet(delta);
    }

    int pendingFrames() {
        return pendingFrames.get();
    }

    /** Handlers not finished yet: open connections and closed ones with frames still queued. */
    Set<TcpPublishHandler> live() {
        return live;
    }
}
