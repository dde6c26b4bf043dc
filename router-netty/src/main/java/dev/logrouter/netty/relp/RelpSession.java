package dev.logrouter.netty.relp;

import dev.logrouter.netty.Peer;
import dev.logrouter.netty.RingPublisher;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * One RELP session on the server side: answers {@code open} with the router's offers, publishes the message of each
 * {@code syslog} command into the ring and answers {@code rsp 200 OK} for it only once the ring's completed sequence
 * (every sink its routes selected made it durable) has passed it, in the order the messages came; answers
 * {@code close} once everything before it was acknowledged ({@code rsp 0}, then {@code serverclose}, as librelp's
 * server does), then closes. Protocol errors (a broken frame, a
 * transaction number out of order, a window overrun, a command before {@code open}, a client sending {@code rsp})
 * are counted and end the session with {@code serverclose}: the client keeps every unacknowledged message and sends
 * it again on its next session. An unknown command is answered {@code rsp 500} and the session goes on.
 *
 * <p>Flow control: a message that finds the ring full is kept (at most the session's window, {@code max-window})
 * and the connection stops reading until the ring drains; acknowledgements keep flowing meanwhile.
 *
 * <p>Threads: the channel's event loop, all of it; the source's stop calls {@link #stop} and {@link #finish}
 * through the event loop too.
 */
final class RelpSession extends ChannelInboundHandlerAdapter implements RelpFrameDecoder.Listener {

    private static final Logger LOG = System.getLogger(RelpSession.class.getName());
    /** After a protocol error, how long the session still waits for the acknowledgements of what came before it. */
    static final long ERROR_GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final RelpSource source;
    private final RingPublisher publisher;
    private final LongSupplier completed;
    private final Peer peer;
    private final int maxWindow;
    private final int maxMessage;
    private final long ackIntervalNanos;
    private final String offers;

    private ChannelHandlerContext ctx;
    /** The transaction number the next frame must carry; 0 before the first frame. */
    private int expected;
    private boolean opened;
    /** Transaction number of the client's close, answered once everything before it is acknowledged; 0: none. */
    private int closeTxnr;
    private boolean ended;
    /** The protocol error that ends this session once what came before it is acknowledged; null: none. */
    private String failing;
    private long failDeadline;
    /** The router stops: read no more, acknowledge what completes, then serverclose. */
    private boolean stopping;

    /** Messages not yet acknowledged, in order: their transaction numbers and ring sequences (-1: kept, not yet published). */
    private int[] txnrs;
    private long[] seqs;
    private int head;
    private int size;
    /** Messages that found the ring full, in order, published before anything newer. */
    private final ArrayDeque<byte[]> kept = new ArrayDeque<>();
    private boolean paused;
    private ScheduledFuture<?> ackTimer;

    RelpSession(RelpSource source, RingPublisher publisher, LongSupplier completed, Peer peer, int maxWindow,
                int maxMessage, long ackIntervalNanos, String offers) {
        this.source = source;
        this.publisher = publisher;
        this.completed = completed;
        this.peer = peer;
        this.maxWindow = maxWindow;
        this.maxMessage = maxMessage;
        this.ackIntervalNanos = ackIntervalNanos;
        this.offers = offers;
        int cap = Math.min(maxWindow, 256);
        this.txnrs = new int[cap];
        this.seqs = new long[cap];
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        peer.update(ctx.channel().remoteAddress());
        source.sessionOpened();
        ctx.fireChannelActive();
    }

    /** The frame decoder hands everything over through {@link #frame}; anything else arriving here is dropped. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void frame(int txnr, ByteBuf buf, int cmdOff, int cmdLen, int dataOff, int dataLen) {
        if (ended || closeTxnr != 0 || failing != null) {
            return; // after close or an error: nothing more counts
        }
        if (expected != 0 && txnr != expected) {
            protocolError("transaction number " + txnr + " where " + expected + " was due");
            return;
        }
        expected = RelpFrames.next(txnr);
        if (RelpFrames.is(buf, cmdOff, cmdLen, RelpFrames.SYSLOG)) {
            if (stopping) {
                return; // read after the stop began: not taken, not acknowledged; the client sends it again
            }
            if (!opened) {
                protocolError("syslog before open");
            } else if (dataLen > maxMessage) {
                protocolError("message of " + dataLen + " bytes, more than max-message-size " + maxMessage);
            } else {
                syslog(txnr, buf, dataOff, dataLen);
            }
        } else if (RelpFrames.is(buf, cmdOff, cmdLen, RelpFrames.OPEN)) {
            open(txnr, buf.toString(dataOff, dataLen, StandardCharsets.UTF_8));
        } else if (RelpFrames.is(buf, cmdOff, cmdLen, RelpFrames.CLOSE)) {
            closeTxnr = txnr;
            pause();
            acknowledge();
        } else if (RelpFrames.is(buf, cmdOff, cmdLen, RelpFrames.RSP)
                || RelpFrames.is(buf, cmdOff, cmdLen, RelpFrames.SERVERCLOSE)) {
            protocolError("a client sent " + buf.toString(cmdOff, cmdLen, StandardCharsets.US_ASCII));
        } else {
            String cmd = buf.toString(cmdOff, cmdLen, StandardCharsets.US_ASCII);
            source.protocolError();
            ByteBuf out = ctx.alloc().buffer(64);
            RelpFrames.append(out, txnr, RelpFrames.RSP, "500 command not supported: " + cmd);
            ctx.writeAndFlush(out);
            holdIfUnread();
        }
    }

    private void open(int txnr, String data) {
        if (opened) {
            protocolError("a second open");
            return;
        }
        String version = RelpFrames.offer(data, "relp_version");
        String commands = RelpFrames.offer(data, "commands");
        ByteBuf out = ctx.alloc().buffer(128);
        if (version == null || commands == null || !java.util.Arrays.asList(commands.split(",")).contains(
                RelpFrames.SYSLOG)) {
            source.protocolError();
            RelpFrames.append(out, txnr, RelpFrames.RSP, "500 the open must offer relp_version and commands=syslog");
            end(out, "open without relp_version or the syslog command: " + data.replace('\n', ' '));
            return;
        }
        opened = true;
        RelpFrames.append(out, txnr, RelpFrames.RSP, "200 OK\n" + offers);
        ctx.writeAndFlush(out);
    }

    private void syslog(int txnr, ByteBuf buf, int off, int len) {
        if (size == maxWindow) {
            protocolError("window overrun: more than max-window " + maxWindow + " messages unacknowledged");
            return;
        }
        long seq = -1;
        if (kept.isEmpty()) {
            seq = publisher.tryPublishSequence(buf, off, len, peer);
        }
        if (seq < 0) {
            byte[] copy = new byte[len];
            buf.getBytes(off, copy);
            kept.add(copy);
            source.keptChanged(1);
            pause();
        }
        add(txnr, seq);
        scheduleAck();
    }

    private void add(int txnr, long seq) {
        if (size == txnrs.length) {
            int[] t = new int[Math.min(maxWindow, size * 2)];
            long[] s = new long[t.length];
            for (int i = 0; i < size; i++) {
                t[i] = txnrs[(head + i) % txnrs.length];
                s[i] = seqs[(head + i) % seqs.length];
            }
            txnrs = t;
            seqs = s;
            head = 0;
        }
        int at = (head + size) % txnrs.length;
        txnrs[at] = txnr;
        seqs[at] = seq;
        size++;
        source.unackedChanged(1);
    }

    private void scheduleAck() {
        if (ackTimer == null && !ended) {
            ackTimer = ctx.executor().schedule(this::ackTick, ackIntervalNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void ackTick() {
        ackTimer = null;
        if (ended) {
            return;
        }
        publishKept();
        acknowledge();
        if (failing != null && !ended && (size == 0 || System.nanoTime() - failDeadline > 0)) {
            end(ctx.alloc().buffer(24), failing);
            return;
        }
        if (size > 0 || !kept.isEmpty() || failing != null || paused && closeTxnr == 0 && !stopping) {
            scheduleAck(); // while paused by a full ring, this tick is what resumes reading
        }
    }

    /** Publishes kept messages while the ring has room; reading resumes once none is kept and the ring drained. */
    private void publishKept() {
        if (!kept.isEmpty()) {
            int first = (head + size - kept.size()) % txnrs.length;
            while (!kept.isEmpty()) {
                long seq = publisher.tryPublishSequence(kept.peek(), peer);
                if (seq < 0) {
                    return;
                }
                kept.poll();
                source.keptChanged(-1);
                seqs[first] = seq;
                first = (first + 1) % txnrs.length;
            }
        }
        maybeResume();
    }

    /**
     * Reading resumes when nothing is kept, the ring drained to half, and the acknowledgements written so far left
     * the outbound buffer (a client that never reads them stops being read: memory stays bounded).
     */
    private void maybeResume() {
        if (paused && kept.isEmpty() && closeTxnr == 0 && !stopping && !ended && failing == null
                && ctx.channel().isWritable() && publisher.mayResume()) {
            paused = false;
            ctx.channel().config().setAutoRead(true);
        }
    }

    /**
     * Once per read, not per message (the ring's remaining capacity is a minimum over every stage's sequence): a
     * nearly full ring stops the reading, and the acknowledgement tick resumes it.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (!paused && !ended && publisher.shouldPause()) {
            pause();
            scheduleAck();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            maybeResume();
        }
        ctx.fireChannelWritabilityChanged();
    }

    /** Answers 200 OK for every message, in order, that the sinks completed; then the close, if one is due. */
    private void acknowledge() {
        ByteBuf out = null;
        int acked = 0;
        if (size > 0) {
            long done = completed.getAsLong();
            while (size > 0) {
                long seq = seqs[head];
                if (seq < 0 || seq > done) {
                    break;
                }
                if (out == null) {
                    out = ctx.alloc().buffer(Math.min(size, 512) * 16);
                }
                RelpFrames.appendOk(out, txnrs[head]);
                head = (head + 1) % txnrs.length;
                size--;
                acked++;
            }
        }
        if (acked > 0) {
            source.acked(acked);
            source.unackedChanged(-acked);
        }
        if (closeTxnr != 0 && size == 0) {
            if (out == null) {
                out = ctx.alloc().buffer(16);
            }
            RelpFrames.append(out, closeTxnr, RelpFrames.RSP, "");
            RelpFrames.append(out, 0, RelpFrames.SERVERCLOSE, ""); // as librelp's server answers a close
            ended = true;
            closeAfterWrite(out);
            return;
        }
        if (out != null) {
            ctx.writeAndFlush(out);
            holdIfUnread();
        }
    }

    /** The client does not read what the session writes: read no more from it until it does. */
    private void holdIfUnread() {
        if (!ctx.channel().isWritable() && !paused) {
            source.ackBackpressure();
            pause();
        }
    }

    private void pause() {
        if (!paused) {
            paused = true;
            source.paused();
            ctx.channel().config().setAutoRead(false);
        }
    }

    @Override
    public void malformed(String reason) {
        protocolError(reason);
    }

    /**
     * Counts the error, reads no more, and ends the session with serverclose once the messages before the error are
     * acknowledged (or after {@link #ERROR_GRACE_NANOS}): what the sinks complete meanwhile is not sent twice.
     */
    private void protocolError(String reason) {
        if (failing != null || ended) {
            return;
        }
        source.protocolError();
        failing = reason;
        failDeadline = System.nanoTime() + ERROR_GRACE_NANOS;
        pause();
        if (size == 0) {
            end(ctx.alloc().buffer(24), reason);
        } else {
            scheduleAck();
        }
    }

    /** Writes {@code out} then serverclose, and closes: the client sends what it has unacknowledged again. */
    private void end(ByteBuf out, String reason) {
        if (ended) {
            out.release();
            return;
        }
        ended = true;
        dropKept();
        LOG.log(Level.WARNING, "source " + source.name() + ": RELP session from " + ctx.channel().remoteAddress()
                + " closed: " + reason);
        RelpFrames.append(out, 0, RelpFrames.SERVERCLOSE, "");
        closeAfterWrite(out);
    }

    /**
     * Writes {@code out} and closes once it is written, or after {@link #ERROR_GRACE_NANOS} if a client that does not
     * read never lets the write complete.
     */
    private void closeAfterWrite(ByteBuf out) {
        ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
        ctx.executor().schedule(() -> {
            ctx.close();
        }, ERROR_GRACE_NANOS, TimeUnit.NANOSECONDS);
    }

    /** Kept messages of an ending session are the client's again (never acknowledged). */
    private void dropKept() {
        if (!kept.isEmpty()) {
            source.keptChanged(-kept.size());
            kept.clear();
        }
    }

    /** The router stops: no more reading; what is kept still goes into the ring. Event loop. */
    void stop() {
        stopping = true;
        pause();
        publishKept();
    }


    /** After the ring drained: acknowledges what the sinks completed, then serverclose. Event loop. */
    void finish() {
        if (ended) {
            return;
        }
        acknowledge();
        if (!ended) {
            end(ctx.alloc().buffer(24), "the router stops");
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        ended = true;
        if (ackTimer != null) {
            ackTimer.cancel(false);
            ackTimer = null;
        }
        if (size > 0) {
            source.unackedChanged(-size); // the client sends them again on its next session
            size = 0;
        }
        dropKept();
        source.sessionClosed();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        source.ioError();
        ctx.close();
    }
}
