package dev.logrouter.netty.tcp;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Enforces {@code max-connections}: a connection over the limit is closed at once and counted. Keeps
 * the gauge of open connections.
 *
 * <p>Threads: shared by all channels of a source (state is atomic), called on their event loops.
 */
@ChannelHandler.Sharable
final class ConnectionLimiter extends ChannelInboundHandlerAdapter {

    private static final AttributeKey<Boolean> COUNTED = AttributeKey.valueOf("logrouter.counted");

    private final int max;
    private final AtomicInteger open = new AtomicInteger();
    private final TcpSourceCounters counters;

    ConnectionLimiter(int max, TcpSourceCounters counters) {
        this.max = max;
        this.counters = counters;
    }

    int open() {
        return open.get();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            counters.rejected.inc();
            ctx.close();
            return;
        }
        ctx.channel().attr(COUNTED).set(Boolean.TRUE);
        counters.accepted.inc();
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (Boolean.TRUE.equals(ctx.channel().attr(COUNTED).getAndSet(null))) {
            open.decrementAndGet();
        }
        ctx.fireChannelInactive();
    }
}
