package dev.logrouter.netty.tcp;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a clean stop of a TCP source waits for — the connections whose publish handler has not
 * finished (its channel still open, or frames still waiting for the ring) — and the flow-control
 * gauges.
 *
 * <p>Threads: event loops update it (per connection event, never per frame); the stopping thread and
 * JMX read it.
 */
final class TcpSourceState {

    private final Set<TcpPublishHandler> live = ConcurrentHashMap.newKeySet();
    private final AtomicInteger paused = new AtomicInteger();
    private final AtomicInteger keptFrames = new AtomicInteger();

    void handlerStarted(TcpPublishHandler h) {
        live.add(h);
    }

    void handlerFinished(TcpPublishHandler h) {
        live.remove(h);
    }

    void pausedChanged(int delta) {
        paused.addAndGet(delta);
    }

    void keptChanged(int delta) {
        keptFrames.addAndGet(delta);
    }

    /** Connections not reading now because the ring is nearly full. */
    int pausedConnections() {
        return paused.get();
    }

    /** Frames of closed connections kept because the ring had no room when they closed. */
    int keptFrames() {
        return keptFrames.get();
    }

    /** Handlers not finished yet: open connections and closed ones with frames still waiting. */
    Set<TcpPublishHandler> live() {
        return live;
    }
}
