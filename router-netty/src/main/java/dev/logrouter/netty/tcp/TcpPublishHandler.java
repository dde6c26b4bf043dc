package dev.logrouter.netty.tcp;

import dev.logrouter.netty.Peer;
import dev.logrouter.netty.RingPublisher;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Last handler of a TCP connection: publishes the frames decoded from one read into the ring as a
 * batch (at read-complete), and implements flow control without ever blocking the event loop. When the ring is nearly full (or a frame found it
 * full) the channel stops reading ({@code autoRead=false}); frames already decoded wait in a small
 * per-connection queue; a task on the event loop retries every 200 µs and resumes reading once
 * half the ring is free. Frames queued when the peer closes are still published: nothing read is lost.
 *
 * <p>Threads: one instance per channel, on its event loop. Not sharable.
 */
public final class TcpPublishHandler extends ChannelInboundHandlerAdapter {

    private static final long RETRY_MICROS = 200;

    private final RingPublisher publisher;
    private final TcpSourceCounters counters;
    private final AtomicInteger sourcePending;
    private final Peer peer = new Peer();
    private final ArrayDeque<ByteBuf> pending = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private boolean paused;
    private ScheduledFuture<?> retry;
    /** Clock reading of the last read, for the quiet check of a clean stop (read by the stopping thread). */
    private volatile long lastReadNanos = System.nanoTime();
    private volatile boolean busy;

    TcpPublishHandler(RingPublisher publisher, TcpSourceCounters counters, AtomicInteger sourcePending) {
        this.publisher = publisher;
        this.counters = counters;
        this.sourcePending = sourcePending;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        peer.update(ctx.channel().remoteAddress());
        ctx.fireChannelActive();
    }

    /** Queues the frame; frames of one read are published together in {@link #channelReadComplete}. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf frame)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        pending.add(frame);
        sourcePending.incrementAndGet();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        lastReadNanos = System.nanoTime();
        if (!paused) {
            publishPending();
            if (!pending.isEmpty() || publisher.shouldPause()) {
                pause();
            }
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        // frames decoded from the last bytes (decodeLast) arrive before this; publish them too
        if (!paused) {
            publishPending();
            if (!pending.isEmpty()) {
                pause();
            }
        }
        ctx.fireChannelInactive();
    }

    private void publishPending() {
        int n = publisher.publishBatch(pending, peer);
        if (n > 0) {
            sourcePending.addAndGet(-n);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        counters.ioErrors.inc();
        ctx.close();
    }

    private void pause() {
        if (paused) {
            return;
        }
        paused = true;
        busy = true;
        counters.pauses.inc();
        ctx.channel().config().setAutoRead(false);
        scheduleRetry();
    }

    private void scheduleRetry() {
        retry = ctx.executor().schedule(this::retry, RETRY_MICROS, TimeUnit.MICROSECONDS);
    }

    private void retry() {
        retry = null;
        publishPending();
        if (!pending.isEmpty() || !publisher.mayResume()) {
            scheduleRetry();
            return;
        }
        paused = false;
        busy = false;
        lastReadNanos = System.nanoTime();
        if (ctx.channel().isActive()) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    /**
     * True when the connection has read nothing for {@code quietNanos} and is not held back by flow
     * control: during a clean stop, what the peer sent has then been read. Any thread.
     */
    boolean isQuiet(long nowNanos, long quietNanos) {
        return !busy && nowNanos - lastReadNanos >= quietNanos;
    }

    /** Forced stop only: frees what could not be published. */
    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (!pending.isEmpty() && ctx.executor().isShuttingDown()) {
            counters.abandoned.add(pending.size());
            sourcePending.addAndGet(-pending.size());
            pending.forEach(ByteBuf::release);
            pending.clear();
            if (retry != null) {
                retry.cancel(false);
            }
        }
    }
}
