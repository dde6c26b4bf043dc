package dev.logrouter.netty.tcp;

import dev.logrouter.netty.Peer;
import dev.logrouter.netty.RingPublisher;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Last handler of a TCP connection and the {@link FrameConsumer} of its frame decoder: copies each
 * batch of decoded frames straight from Netty's buffer into ring slots, and implements flow control
 * without ever blocking the event loop. When the ring is nearly full, or a batch did not fit, the
 * channel stops reading ({@code autoRead=false}); undecoded bytes simply stay in the decoder's
 * cumulation buffer; the event loop's {@link RetryTicker} retries every 200 µs — it re-fires a read so
 * that the decoder hands on what it kept — and resumes reading once half the ring is free. Frames of a
 * connection that closes while the ring is full are kept (a retained slice of the decoder's buffer) and
 * published later: nothing read is lost. The handler reports itself finished to its source only once
 * the channel is inactive and nothing of it is waiting, which is what a clean stop waits for.
 *
 * <p>Threads: one instance per channel, on its event loop, except {@link #isQuiet} and
 * {@link #abandonOnEventLoop}, which the stopping thread calls. Not sharable.
 */
public final class TcpPublishHandler extends ChannelInboundHandlerAdapter implements FrameConsumer {

    private final RingPublisher publisher;
    private final TcpSourceCounters counters;
    private final TcpSourceState source;
    private final Peer peer;
    /** Frames kept when the connection closed with the ring full (rare path), oldest first. */
    private final ArrayDeque<Kept> kept = new ArrayDeque<>();
    private final Runnable retryTask = this::retry;
    private ChannelHandlerContext ctx;
    private boolean paused;
    /** The decoder holds frames the ring had no room for. */
    private boolean decodeBlocked;
    private boolean inactive;
    private boolean finished;
    /** Clock reading of the last read, for the quiet check of a clean stop (read by the stopping thread). */
    private volatile long lastReadNanos = System.nanoTime();
    private volatile boolean busy;
    /** Something was read on this connection (read by the stopping thread's checks on the event loop). */
    private volatile boolean hasRead;
    /** Time spent paused by flow control before the current pause, and when the current one began. Event loop. */
    private long pausedNanos;
    private long pausedSince;

    /** {@code idle-timeout} in nanoseconds; 0 = none. */
    private final long idleNanos;
    private final Runnable idleCheck = this::checkIdle;
    /** The pending idle check, cancelled when the connection ends (it would keep the handler alive until due). */
    private ScheduledFuture<?> idleTimer;

    TcpPublishHandler(RingPublisher publisher, TcpSourceCounters counters, TcpSourceState source, Peer peer,
                      long idleNanos) {
        this.publisher = publisher;
        this.peer = peer;
        this.idleNanos = idleNanos;
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
        if (idleNanos > 0) {
            idleTimer = ctx.executor().schedule(idleCheck, idleNanos, TimeUnit.NANOSECONDS);
        }
        ctx.fireChannelActive();
    }

    @Override
    public int accept(ByteBuf buf, int[] offsets, int[] lengths, int count) {
        // frames kept aside at close go first: nothing later may overtake them
        int n = kept.isEmpty() ? publisher.publishFrames(buf, offsets, lengths, count, peer) : 0;
        if (n < count) {
            decodeBlocked = true;
            pause();
        }
        return n;
    }

    /**
     * Keeps the frames as a retained slice of the decoder's buffer (no copy: the decoder releases its reference
     * when the channel closes, the slice keeps the bytes until published).
     */
    @Override
    public void keep(ByteBuf buf, int[] offsets, int[] lengths, int from, int count) {
        int start = offsets[from];
        int end = offsets[count - 1] + lengths[count - 1];
        int[] at = new int[count - from];
        for (int i = 0; i < at.length; i++) {
            at[i] = offsets[from + i] - start;
        }
        kept.add(new Kept(buf.retainedSlice(start, end - start), at,
                Arrays.copyOfRange(lengths, from, count)));
        source.keptChanged(count - from);
        pause();
    }

    /** Frames kept at close: {@code [offsets[i], offsets[i] + lengths[i])} of {@code buf}, published from next. */
    private static final class Kept {
        final ByteBuf buf;
        final int[] offsets;
        final int[] lengths;
        int next;

        Kept(ByteBuf buf, int[] offsets, int[] lengths) {
            this.buf = buf;
            this.offsets = offsets;
            this.lengths = lengths;
        }

        int left() {
            return lengths.length - next;
        }
    }

    /** Publishes kept frames in order while the ring has room; true when none are left. */
    private boolean publishKept() {
        Kept k;
        while ((k = kept.peek()) != null) {
            int n = publisher.publishFrames(k.buf, k.offsets, k.lengths, k.next, k.lengths.length, peer);
            k.next += n;
            source.keptChanged(-n);
            if (k.left() > 0) {
                return false;
            }
            kept.poll();
            k.buf.release();
        }
        return true;
    }

    /** Decoders hand frames over through {@link #accept}; anything else arriving here is dropped. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        lastReadNanos = System.nanoTime();
        hasRead = true;
        if (!paused && publisher.shouldPause()) {
            pause();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        // the decoder's decodeLast ran before this: every frame was published or kept
        inactive = true;
        cancelIdleTimer();
        decodeBlocked = false;
        if (!paused) {
            finishIfDone();
        }
        ctx.fireChannelInactive();
    }

    /** After close: a channel that never became active gets no channelInactive, so finish here too. */
    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        inactive = true;
        cancelIdleTimer();
        decodeBlocked = false;
        if (!paused) {
            finishIfDone();
        }
    }

    /**
     * {@code idle-timeout}: a connection that read nothing for that long is closed and counted, unless flow control
     * is what keeps it from reading (time paused does not count: a resume restarts the clock). One timer per
     * connection, rescheduled for the remaining time. Event loop.
     */
    private void checkIdle() {
        if (inactive || finished) {
            return;
        }
        long now = System.nanoTime();
        if (isQuiet(now, idleNanos)) {
            counters.idleClosed.inc();
            ctx.close();
        } else {
            long left = busy ? idleNanos : idleNanos - (now - lastReadNanos);
            idleTimer = ctx.executor().schedule(idleCheck, left, TimeUnit.NANOSECONDS);
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

    /** Whether anything was read on this connection yet. Any thread. */
    boolean hasRead() {
        return hasRead;
    }

    /**
     * Nanoseconds this connection has spent paused by flow control up to {@code nowNanos}: a clean stop's
     * {@code drain-timeout} counts only the time a connection could read. Event loop.
     */
    long pausedNanos(long nowNanos) {
        return paused ? pausedNanos + (nowNanos - pausedSince) : pausedNanos;
    }

    /** Whether flow control holds this connection back now: it has read bytes the ring had no room for. Event loop. */
    boolean isPaused() {
        return paused;
    }

    /**
     * Forced stop, from any thread: {@link #abandon()} on the channel's event loop, or here when that loop no longer
     * takes tasks (it has stopped, so nothing else touches this handler): kept frames hold pooled buffers, which must
     * be released.
     */
    void abandonOnEventLoop() {
        if (ctx == null) {
            return;
        }
        try {
            ctx.executor().execute(this::abandon);
        } catch (RejectedExecutionException e) {
            abandon();
        }
    }

    /** Forced stop: counts the kept frames that could not be published. Runs on the event loop. */
    void abandon() {
        int left = 0;
        for (Kept k; (k = kept.poll()) != null; ) {
            left += k.left();
            k.buf.release();
        }
        if (left > 0) {
            counters.abandoned.add(left);
            source.keptChanged(-left);
        }
        inactive = true;
        decodeBlocked = false;
        if (paused) {
            unpause();
        }
        finishIfDone();
    }

    private void pause() {
        if (paused) {
            return;
        }
        paused = true;
        pausedSince = System.nanoTime();
        busy = true;
        source.pausedChanged(1);
        counters.pauses.inc();
        ctx.channel().config().setAutoRead(false);
        scheduleRetry();
    }

    private void unpause() {
        paused = false;
        pausedNanos += System.nanoTime() - pausedSince;
        source.pausedChanged(-1);
    }

    /** The next tick of this event loop's {@link RetryTicker} calls {@link #retry}. */
    private void scheduleRetry() {
        RetryTicker.of(ctx.executor()).next(retryTask);
    }

    /** One retry; a failure (a bug) abandons the connection, so that its kept frames are released and counted. */
    private void retry() {
        try {
            retryOnce();
        } catch (RuntimeException | Error e) {
            abandon();
            ctx.close();
            throw e; // logged by the ticker
        }
    }

    private void retryOnce() {
        if (finished || !paused) {
            return;
        }
        if (!publishKept()) {
            scheduleRetry();
            return;
        }
        if (!inactive && decodeBlocked) {
            if (!publisher.mayResume()) {
                // decoding again now would rescan the buffered lines only to publish the few that fit: wait
                // until the ring has room for many (measured: 14 % of the router's CPU went to such rescans
                // when a parser made the parse stage the bottleneck)
                scheduleRetry();
                return;
            }
            decodeBlocked = false;
            // the decoder resumes from its cumulation buffer; accept() sets decodeBlocked again if the ring
            // still has no room for all of it. The empty read goes to the frame decoder itself: from the head of
            // the pipeline a TLS handler would swallow it (an empty input decrypts to nothing)
            resumeDecoder();
        }
        if (!inactive && (decodeBlocked || !publisher.mayResume())) {
            scheduleRetry();
            return;
        }
        unpause();
        busy = false;
        lastReadNanos = System.nanoTime();
        if (inactive) {
            finishIfDone();
        } else {
            ctx.channel().config().setAutoRead(true);
        }
    }

    private void resumeDecoder() {
        ChannelHandlerContext decoder = ctx.pipeline().context(FrameDecoder.class);
        if (decoder == null) {
            return;
        }
        try {
            ((FrameDecoder) decoder.handler()).channelRead(decoder, Unpooled.EMPTY_BUFFER);
        } catch (Exception e) {
            decoder.fireExceptionCaught(e);
        }
    }

    private void cancelIdleTimer() {
        if (idleTimer != null) {
            idleTimer.cancel(false);
            idleTimer = null;
        }
    }

    private void finishIfDone() {
        if (inactive && kept.isEmpty() && !finished) {
            finished = true;
            source.handlerFinished(this);
        }
    }
}
