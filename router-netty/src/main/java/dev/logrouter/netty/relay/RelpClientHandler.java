package dev.logrouter.netty.relay;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.netty.relp.RelpFrameDecoder;
import dev.logrouter.netty.relp.RelpFrames;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client end of one RELP session ({@code transport: relp}), behind a {@link RelpFrameDecoder} in the
 * connection's pipeline: sends {@code open} with logrouter's offers and takes the connection as up once the
 * receiver answered {@code rsp 200} offering the {@code syslog} command; then sends the messages of a
 * {@link Transmission} as {@code syslog} commands, at most {@code window} of them unanswered at a time, sending more
 * as answers come, and completes the transmission once every message was answered {@code 200}.
 *
 * <p>Each {@code rsp} must answer the oldest outstanding command (a librelp server answers in order); anything else
 * (an {@code rsp} for another transaction number, a command other than {@code rsp} or {@code serverclose}, a broken
 * frame) is a protocol error that closes the connection. A non-200 answer to a message means the receiver refused
 * it: as librelp's client does, that message is not sent again (the delivery writes it to the dead-letter file) and
 * the connection is closed, so the messages after it go again on the next connection. {@code serverclose} or a
 * closed connection end the session: the transmission fails, and what it had acknowledged is known exactly
 * ({@link Transmission#acked}).
 *
 * <p>Threads: the handler methods run on the connection's event loop; {@link #send}, {@link #cancel} and
 * {@link #closeSession} are called from the sink's (delivery) thread and hand their work to the event loop. Every
 * field but the {@link Transmission}'s volatile {@code acked} is confined to the event loop; a transmission's
 * {@code done} is completed only after the handler dropped it, so the delivery thread may change the batch bytes
 * once {@code done} completed.
 */
final class RelpClientHandler extends ChannelInboundHandlerAdapter implements RelpFrameDecoder.Listener {

    /** The RELP session of a channel, set when the channel is built. */
    static final AttributeKey<RelpClientHandler> KEY = AttributeKey.valueOf("logrouter.relay.relp");
    /** The longest answer data accepted (librelp's client accepts 128 KiB; ours are short). */
    static final int MAX_RSP_DATA = 64 * 1024;

    private static final byte OPEN = 1;
    private static final byte SYSLOG = 2;
    private static final byte CLOSE = 3;

    private final int window;
    private final AtomicLong inFlight;
    private final Counter resent;

    private ChannelHandlerContext ctx;
    /** The transaction number used last; the open is 1. */
    private int txnr;
    /** Commands sent and not yet answered, oldest first: transaction numbers and kinds. */
    private final int[] txnrs;
    private final byte[] kinds;
    private int head;
    private int size;
    private int syslogOutstanding;
    /** The acknowledgements of the last read made room in the window: send more when the read is done. */
    private boolean pumpDue;
    private boolean ended;
    private String failure = "the session has not started";
    private final CompletableFuture<Void> opened = new CompletableFuture<>();
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private Transmission tx;

    /**
     * @param window   most messages unanswered at a time
     * @param inFlight the sink's count of messages sent and not yet answered (all its connections)
     * @param resent   counts the messages of a transmission sent again (sent before on a connection that failed)
     */
    RelpClientHandler(int window, AtomicLong inFlight, Counter resent) {
        this.window = window;
        this.inFlight = inFlight;
        this.resent = resent;
        this.txnrs = new int[window + 2];
        this.kinds = new byte[window + 2];
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /**
     * Sends {@code open}; the future completes once the receiver accepted it, or fails with the reason (refused,
     * no {@code syslog} command offered, no answer within {@code timeoutMillis}, the connection closed). Event loop.
     */
    CompletableFuture<Void> open(int timeoutMillis) {
        if (!ctx.executor().inEventLoop()) {
            try {
                ctx.executor().execute(() -> open(timeoutMillis));
            } catch (RejectedExecutionException e) {
                opened.completeExceptionally(new IOException("the sink's event loop stopped"));
            }
            return opened;
        }
        if (ended || txnr != 0) {
            if (ended) {
                opened.completeExceptionally(new IOException(failure));
            }
            return opened;
        }
        txnr = 1;
        ByteBuf out = ctx.alloc().buffer(192);
        RelpFrames.append(out, txnr, RelpFrames.OPEN, RelpFrames.offers());
        push(txnr, OPEN);
        ctx.writeAndFlush(out).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        ScheduledFuture<?> timer = ctx.executor().schedule(() -> {
            if (!opened.isDone()) {
                String why = "no answer to the RELP open within " + timeoutMillis + " ms";
                fail(why, new IOException(why));
            }
        }, timeoutMillis, TimeUnit.MILLISECONDS);
        opened.whenComplete((v, e) -> timer.cancel(false));
        return opened;
    }

    /** Starts sending {@code t} on the event loop; its {@code done} tells how it ended. Delivery thread. */
    void send(Transmission t) {
        try {
            ctx.executor().execute(() -> start(t));
        } catch (RejectedExecutionException e) {
            t.done.completeExceptionally(new IOException("the sink's event loop stopped"));
        }
    }

    /**
     * Gives {@code t} up (no acknowledgement came in time, or the sink stops): closes the session, which fails
     * {@code t}. Delivery thread; wait for {@code t.done} before touching the batch.
     */
    void cancel(Transmission t, String why) {
        try {
            ctx.executor().execute(() -> {
                if (tx == t) {
                    fail(why, new IOException(why));
                }
                t.done.completeExceptionally(new IOException(why));
            });
        } catch (RejectedExecutionException e) {
            t.done.completeExceptionally(new IOException(why)); // the loop is gone: nothing reads t any more
        }
    }

    /**
     * Sends {@code close}; the future completes when the receiver answered it or the connection ended (the caller
     * bounds the wait and closes the channel). Delivery thread.
     */
    CompletableFuture<Void> closeSession() {
        try {
            ctx.executor().execute(() -> {
                if (ended || !opened.isDone() || opened.isCompletedExceptionally() || size == txnrs.length) {
                    closed.complete(null);
                    return;
                }
                txnr = RelpFrames.next(txnr);
                ByteBuf out = ctx.alloc().buffer(16);
                RelpFrames.append(out, txnr, RelpFrames.CLOSE, "");
                push(txnr, CLOSE);
                ctx.writeAndFlush(out).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
            });
        } catch (RejectedExecutionException e) {
            closed.complete(null);
        }
        return closed;
    }

    private void start(Transmission t) {
        if (ended) {
            t.done.completeExceptionally(new IOException(failure));
            return;
        }
        if (tx != null) { // the delivery waits for each transmission to end before the next
            String why = "a transmission started while another was under way";
            fail(why, new IOException(why));
            t.done.completeExceptionally(new IOException(why));
            return;
        }
        if (t.count == 0) {
            t.done.complete(null);
            return;
        }
        tx = t;
        pump();
    }

    /** Sends messages of the transmission while the window has room, in one write. */
    private void pump() {
        pumpDue = false;
        Transmission t = tx;
        if (t == null || ended) {
            return;
        }
        int n = Math.min(t.count - t.next, window - syslogOutstanding);
        if (n <= 0) {
            return;
        }
        int from = t.next == 0 ? 0 : t.ends[t.next - 1];
        ByteBuf out = ctx.alloc().buffer(t.ends[t.next + n - 1] - from + n * 32);
        for (int k = 0; k < n; k++) {
            int i = t.next;
            int start = i == 0 ? 0 : t.ends[i - 1];
            txnr = RelpFrames.next(txnr);
            RelpFrames.appendSyslog(out, txnr, t.data, start, t.ends[i] - start);
            push(txnr, SYSLOG);
            if (i < t.resendBelow) {
                resent.inc();
            }
            t.next = i + 1;
        }
        syslogOutstanding += n;
        inFlight.addAndGet(n);
        ctx.writeAndFlush(out).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
    }

    private void push(int t, byte kind) {
        int at = (head + size) % txnrs.length;
        txnrs[at] = t;
        kinds[at] = kind;
        size++;
    }

    @Override
    public void frame(int frameTxnr, ByteBuf buf, int cmdOff, int cmdLen, int dataOff, int dataLen) {
        if (ended) {
            return;
        }
        if (RelpFrames.is(buf, cmdOff, cmdLen, RelpFrames.RSP)) {
            rsp(frameTxnr, buf, dataOff, dataLen);
        } else if (RelpFrames.is(buf, cmdOff, cmdLen, RelpFrames.SERVERCLOSE)) {
            fail("the receiver ended the session (serverclose)", null);
        } else {
            protocolError("the receiver sent the command " + buf.toString(cmdOff, cmdLen, StandardCharsets.US_ASCII));
        }
    }

    private void rsp(int rspTxnr, ByteBuf buf, int dataOff, int dataLen) {
        if (size == 0 || txnrs[head] != rspTxnr) {
            protocolError("rsp for transaction " + rspTxnr + (size == 0 ? " while none was outstanding"
                    : " where " + txnrs[head] + " was due"));
            return;
        }
        byte kind = kinds[head];
        head = (head + 1) % txnrs.length;
        size--;
        int status = RelpFrames.status(buf, dataOff, dataLen);
        switch (kind) {
            case OPEN -> {
                String data = buf.toString(dataOff, dataLen, StandardCharsets.UTF_8);
                String commands = RelpFrames.offer(data, "commands");
                if (status != 200) {
                    String why = "the receiver refused the RELP open: " + text(buf, dataOff, dataLen);
                    fail(why, new IOException(why));
                } else if (commands == null || !Arrays.asList(commands.split(",")).contains(RelpFrames.SYSLOG)) {
                    String why = "the receiver does not offer the syslog command: " + data.replace('\n', ' ');
                    fail(why, new IOException(why));
                } else {
                    opened.complete(null);
                }
            }
            case CLOSE -> {
                ended = true;
                failure = "the session was closed";
                closed.complete(null);
                ctx.close();
            }
            default -> acknowledged(status, buf, dataOff, dataLen);
        }
    }

    private void acknowledged(int status, ByteBuf buf, int dataOff, int dataLen) {
        syslogOutstanding--;
        inFlight.decrementAndGet();
        Transmission t = tx;
        if (t == null) {
            protocolError("an answer for a message no longer sent");
            return;
        }
        if (status != 200) {
            t.refused = t.acked;
            t.refusedStatus = status;
            t.refusal = "rsp " + text(buf, dataOff, dataLen);
            String why = "the receiver refused a message: " + t.refusal;
            fail(why, new IOException(why));
            return;
        }
        int acked = t.acked + 1;
        t.acked = acked;
        if (acked == t.count) {
            tx = null;
            t.done.complete(null);
        } else {
            pumpDue = true;
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (pumpDue) {
            pump();
        }
        ctx.fireChannelReadComplete();
    }

    /** Answers are read by the frame decoder ({@link #frame}); nothing else should arrive here. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void malformed(String reason) {
        protocolError("a broken frame from the receiver: " + reason);
    }

    private void protocolError(String reason) {
        String why = "RELP protocol error: " + reason;
        fail(why, new IOException(why));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        fail("the connection closed", null);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(RelayHost.describe(cause), cause);
    }

    /**
     * Ends the session: closes the connection, fails the open, the close and the transmission under way. A
     * {@code cause} marks the close as an error for the host's backoff ({@link RelayConnector#CLOSE_CAUSE}); a
     * {@code serverclose} or a clean close has none.
     */
    private void fail(String why, Throwable cause) {
        if (ended) {
            return;
        }
        ended = true;
        failure = why;
        if (cause != null) {
            ctx.channel().attr(RelayConnector.CLOSE_CAUSE).setIfAbsent(cause);
        }
        inFlight.addAndGet(-syslogOutstanding);
        syslogOutstanding = 0;
        size = 0;
        Transmission t = tx;
        tx = null;
        IOException e = new IOException(why);
        opened.completeExceptionally(e);
        closed.complete(null);
        ctx.close();
        if (t != null) {
            t.done.completeExceptionally(e);
        }
    }

    private static String text(ByteBuf buf, int off, int len) {
        return buf.toString(off, Math.min(len, 200), StandardCharsets.UTF_8).replace('\n', ' ');
    }

    /**
     * The pending messages of one flush on one connection: message {@code i} is
     * {@code data[ends[i-1] .. ends[i])} ({@code ends[-1]} = 0). The delivery thread builds it and does not change
     * the bytes until {@link #done} completed.
     *
     * <p>Threads: built on the delivery thread; {@code next}, {@code refused} and {@code refusal} are written on the
     * event loop and read by the delivery thread after {@link #done} completed; {@link #acked} is volatile (the
     * delivery thread reads it while waiting, to see progress).
     */
    static final class Transmission {
        final byte[] data;
        final int[] ends;
        final int count;
        /** The first messages, {@code [0, resendBelow)}, were sent before: sending them again counts in resent. */
        final int resendBelow;
        /** Completes once every message was acknowledged; fails when the session ended first. */
        final CompletableFuture<Void> done = new CompletableFuture<>();
        /** Messages sent (the first {@code next}). */
        int next;
        /** Messages acknowledged with 200, the first {@code acked}: the receiver took them. */
        volatile int acked;
        /** The message the receiver refused (non-200), always {@code acked}; -1: none. */
        int refused = -1;
        /** The refusal's status code (-1 when the answer had none). */
        int refusedStatus;
        /** The refusal's status and text. */
        String refusal;

        Transmission(byte[] data, int[] ends, int count, int resendBelow) {
            this.data = data;
            this.ends = ends;
            this.count = count;
            this.resendBelow = resendBelow;
        }
    }
}
