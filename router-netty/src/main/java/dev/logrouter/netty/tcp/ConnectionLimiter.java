package dev.logrouter.netty.tcp;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Enforces {@code max-connections} and {@code max-connections-per-ip}: {@link #admit} decides, when a connection is
 * accepted and before its pipeline is built, so that a refused connection costs no TLS engine, decoder or handler;
 * the source closes it and it is counted. As the first handler of an admitted connection it gives the connection's
 * place back when the channel goes inactive. Keeps the gauge of open connections.
 *
 * <p>Threads: shared by all channels of a source (state is atomic), called on their event loops, once per
 * connection (never per message).
 */
@ChannelHandler.Sharable
final class ConnectionLimiter extends ChannelInboundHandlerAdapter {

    private static final AttributeKey<Boolean> COUNTED = AttributeKey.valueOf("logrouter.counted");
    private static final AttributeKey<InetAddress> PER_IP = AttributeKey.valueOf("logrouter.perIp");

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

    /** Takes a place for {@code ch}, or counts the refusal and returns false (the caller closes it). */
    boolean admit(Channel ch) {
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            counters.rejected.inc();
            return false;
        }
        if (maxPerIp > 0 && ch.remoteAddress() instanceof InetSocketAddress isa && isa.getAddress() != null) {
            InetAddress a = isa.getAddress();
            boolean[] over = new boolean[1];
            perIp.compute(a, (k, n) -> {
                int now = n == null ? 0 : n;
                if (now >= maxPerIp) {
                    over[0] = true;
                    return n;
                }
                return now + 1;
            });
            if (over[0]) {
                open.decrementAndGet();
                counters.rejectedPerIp.inc();
                return false;
            }
            ch.attr(PER_IP).set(a);
        }
        ch.attr(COUNTED).set(Boolean.TRUE);
        counters.accepted.inc();
        return true;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (Boolean.TRUE.equals(ctx.channel().attr(COUNTED).getAndSet(null))) {
            open.decrementAndGet();
            InetAddress a = ctx.channel().attr(PER_IP).getAndSet(null);
            if (a != null) {
                perIp.computeIfPresent(a, (k, n) -> n <= 1 ? null : n - 1);
            }
        }
        ctx.fireChannelInactive();
    }
}
