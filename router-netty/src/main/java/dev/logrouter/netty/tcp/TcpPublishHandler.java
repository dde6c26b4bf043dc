package dev.logrouter.netty.tcp;

import dev.logrouter.netty.Peer;
import dev.logrouter.netty.RingPublisher;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Last handler of a TCP connection: publishes the frames decoded from one read into the ring as a
 * batch (at read-complete), and implements flow control without ever blocking the event loop. When
 * the ring is nearly full (or the frames of a read did not all fit) the channel stops reading
 * ({@code autoRead=false}); frames already decoded — at most one read loop's worth, up to 16 reads —
 * wait in a per-connection queue; a task on the event loop retries every 200 µs and resumes reading
 * once half the ring is free. Frames queued when the peer closes are still published: nothing read is
 * lost. The handler reports itself finished to its source ({@link TcpSourceState}) only once the
 * channel is inactive and its queue is empty, which is what a clean stop waits for.
 *
 * <p>Threads: one instance per channel, on its event loop, except {@link #isQuiet}, which the
 * stopping thread calls. Not sharable.
 */
public final class TcpPublishHandler extends ChannelInboundHandlerAdapter {

    private static final long RETRY_MICROS = 200;

    private final RingPublisher publisher;
    private final TcpSourceCounters counters;
    private final TcpSourceState source;
    private final Peer peer = new Peer();
    private final ArrayDeque<ByteBuf> pending = new ArrayDeque<>();
    private final Runnable retryTask = this::retry;
    private ChannelHandlerContext ctx;
    private boolean paused;
    private boolean inactive;
    private boolean finished;
    /** Frames of this connection counted in the source's pending gauge. */
    private int reported;
    /** Clock reading of the last read, for the quiet check of a clean stop (read by the stopping thread). */
    private volatile long lastReadNanos = System.nanoTime();
    private volatile boolean busy;

    TcpPublishHandler(RingPublisher publisher, TcpSourceCounters counters, TcpSourceState source) {
        this.publisher = publisher;
        this.counters = counters;
        this.source = source;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        source.handlerStarted(this);
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
        if (finished) {
            // cannot happen in Netty's order of events; never lose a frame silently if it does
            counters.abandoned.inc();
            frame.release();
            return;
        }
        pending.add(frame);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        lastReadNanos = System.nanoTime();
        if (!paused) {
            publisher.publishBatch(pending, peer);
            if (!pending.isEmpty() || publisher.shouldPause()) {
                pause();
            }
        }
        report();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        // frames decoded from the last bytes (decodeLast) were queued before this; publish them too
        inactive = true;
        if (!paused) {
            publisher.publishBatch(pending, peer);
            if (!pending.isEmpty()) {
                pause();
            }
        }
        report();
        finishIfDone();
        ctx.fireChannelInactive();
    }

    /** After close: a channel that never became active gets no channelInactive, so finish here too. */
    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        inactive = true;
        if (!paused) {
            finishIfDone();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        counters.ioErrors.inc();
        ctx.close();
    }

    /**
     * True when the connection has read nothing for {@code quietNanos} and is not held back by flow
     * control: during a clean stop, what the peer sent has then been read. Any thread.
     */
    boolean isQuiet(long nowNanos, long quietNanos) {
        return !busy && nowNanos - lastReadNanos >= quietNanos;
    }

    /** Forced stop, from any thread: {@link #abandon()} on the channel's event loop. */
    void abandonOnEventLoop() {
        if (ctx != null && !ctx.executor().isShuttingDown()) {
            ctx.executor().execute(this::abandon);
        }
    }

    /**
     * Forced stop: releases and counts the frames that could not be published. Runs on the event loop.
     */
    void abandon() {
        if (!pending.isEmpty()) {
            counters.abandoned.add(pending.size());
            pending.forEach(ByteBuf::release);
            pending.clear();
        }
        report();
        inactive = true;
        finishIfDone();
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
        ctx.executor().schedule(retryTask, RETRY_MICROS, TimeUnit.MICROSECONDS);
    }

    private void retry() {
        if (finished) {
            return;
        }
        publisher.publishBatch(pending, peer);
        report();
        if (!pending.isEmpty() || (!inactive && !publisher.mayResume())) {
            scheduleRetry();
            return;
        }
        paused = false;
        busy = false;
        lastReadNanos = System.nanoTime();
        if (inactive) {
            finishIfDone();
        } else {
            ctx.channel().config().setAutoRead(true);
        }
    }

    /** Brings the source's pending gauge in line with this queue: one atomic add per change, not per frame. */
    private void report() {
        int now = pending.size();
        if (now != reported) {
            source.pendingChanged(now - reported);
            reported = now;
        }
    }

    private void finishIfDone() {
        if (inactive && pending.isEmpty() && !finished) {
            finished = true;
            source.handlerFinished(this);
        }
    }
}
