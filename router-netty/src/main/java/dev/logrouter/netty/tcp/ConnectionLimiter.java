package dev.logrouter.netty.tcp;

import io.netty.channel.Channel;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Enforces {@code max-connections} and {@code max-connections-per-ip}: {@link #admit} decides, when a connection is
 * accepted and before its pipeline is built, so that a refused connection costs no TLS engine, decoder or handler;
 * the source closes it and it is counted. An admitted connection gives its place back when its channel closes.
 * Keeps the gauge of open connections.
 *
 * <p>Threads: shared by all channels of a source (state is atomic), called on their event loops, once per
 * connection (never per message).
 */
final class ConnectionLimiter {

    private final int max;
    private final int maxPerIp;
    private final AtomicInteger open = new AtomicInteger();
    /** Open connections per peer address, only with a per-IP limit; an address leaves the map at zero. */
    private final ConcurrentHashMap<InetAddress, Integer> perIp = new ConcurrentHashMap<>();
    private final TcpSourceCounters counters;

    /** @param maxPerIp 0 = no per-address limit */
    ConnectionLimiter(int max, int maxPerIp, TcpSourceCounters counters) {
        this.max = max;
        this.maxPerIp = maxPerIp;
        this.counters = counters;
    }

    int open() {
        return open.get();
    }

    /** Takes a place for {@code ch} until it closes, or counts the refusal and returns false (the caller closes it). */
    boolean admit(Channel ch) {
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            counters.rejected.inc();
            return false;
        }
        InetAddress a = maxPerIp > 0 && ch.remoteAddress() instanceof InetSocketAddress isa ? isa.getAddress() : null;
        if (a != null && perIp.merge(a, 1, Integer::sum) > maxPerIp) {
            release(a);
            counters.rejectedPerIp.inc();
            return false;
        }
        counters.accepted.inc();
        ch.closeFuture().addListener(f -> release(a));
        return true;
    }

    private void release(InetAddress a) {
        open.decrementAndGet();
        if (a != null) {
            perIp.computeIfPresent(a, (k, n) -> n <= 1 ? null : n - 1);
        }
    }
}
