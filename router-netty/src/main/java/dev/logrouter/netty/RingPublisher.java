package dev.logrouter.netty;

import com.lmax.disruptor.EventTranslatorThreeArg;
import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.source.RingClaim;
import dev.logrouter.core.source.SourceContext;
import dev.logrouter.core.source.SyslogFormat;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * Publishes frames of one source into the ring: claims slots without blocking, clears each slot's
 * event, copies the frame's bytes, the sender address and the connection's fields (TLS peer) into it,
 * stamps the receive time and the source's sink mask. What found the ring full stays with the caller
 * (TCP keeps it in the decoder and pauses reading; UDP drops and counts it).
 *
 * <p>Threads: shared by all event loops serving the source; lock-free (the ring is multi-producer,
 * counters are striped).
 */
public final class RingPublisher {

    private static final EventTranslatorThreeArg<LogEvent, ByteBuf, RingPublisher, Peer> TRANSLATOR =
            (event, sequence, frame, publisher, peer) ->
                    publisher.fill(event, frame, peer, System.currentTimeMillis());

    /** Most slots claimed at once by {@link #publishFrames}. */
    private static final int MAX_BATCH = 256;

    private final RingBuffer<LogEvent> ring;
    private final int sourceId;
    private final byte[] sourceName;
    private final byte formatHint;
    private final long sinkMask;
    private final int pauseBelow;
    private final int resumeAt;

    final Counter received;
    final Counter bytes;

    /**
     * The publisher of the source {@code ctx} builds: its ring, index, name and counters, no sinks (the parse
     * workers set each event's sinks from the routes).
     */
    public static RingPublisher forSource(SourceContext ctx, SyslogFormat format) {
        return new RingPublisher(ctx.ring(), ctx.index(), ctx.name(), format.hint(), 0L, ctx.metrics());
    }

    /**
     * @param formatHint {@link LogEvent#FORMAT_AUTO}, {@link LogEvent#FORMAT_RFC3164} or
     *                   {@link LogEvent#FORMAT_RFC5424}
     * @param sinkMask   the sinks stamped on each event at publish time; the router passes 0 because its
     *                   parse workers set each event's sinks from the routes (tests without routes pass theirs)
     */
    public RingPublisher(RingBuffer<LogEvent> ring, int sourceId, String sourceName, byte formatHint, long sinkMask,
                         MetricGroup metrics) {
        this.ring = ring;
        this.sourceId = sourceId;
        this.sourceName = sourceName.getBytes(StandardCharsets.UTF_8);
        this.formatHint = formatHint;
        this.sinkMask = sinkMask;
        int size = ring.getBufferSize();
        this.pauseBelow = size / 4;
        this.resumeAt = size / 2;
        this.received = metrics.counter("received", "Messages published into the ring.");
        this.bytes = metrics.counter("bytes", "Bytes of the messages published (frame payload, without framing).");
    }

    /** Publishes and releases {@code frame}; returns false (frame kept, not released) when the ring is full. */
    public boolean tryPublish(ByteBuf frame, Peer peer) {
        int len = frame.readableBytes();
        if (!ring.tryPublishEvent(TRANSLATOR, frame, this, peer)) {
            return false;
        }
        frame.release();
        received.inc();
        bytes.add(len);
        return true;
    }

    /**
     * Publishes frames {@code [offsets[i], offsets[i] + lengths[i])} of {@code buf} in order, as many as
     * the ring has room for, in batches (one claim and one publish per batch, one clock read per call).
     * Returns how many were published; the caller keeps the rest.
     */
    public int publishFrames(ByteBuf buf, int[] offsets, int[] lengths, int count, Peer peer) {
        return publishFrames(buf, offsets, lengths, 0, count, peer);
    }

    /** {@link #publishFrames(ByteBuf, int[], int[], int, Peer)} of frames {@code from} to {@code count - 1}. */
    public int publishFrames(ByteBuf buf, int[] offsets, int[] lengths, int from, int count, Peer peer) {
        int done = from;
        long now = System.currentTimeMillis();
        while (done < count) {
            int n = RingClaim.size(ring, count - done, MAX_BATCH);
            long hi = RingClaim.tryClaim(ring, n);
            if (hi < 0) {
                break; // full, or another source took the room meanwhile; the caller retries
            }
            long lo = hi - n + 1;
            long sum = 0;
            long seq = lo;
            try {
                for (; seq <= hi; seq++, done++) {
                    int len = lengths[done];
                    LogEvent e = ring.get(seq);
                    e.clear();
                    buf.getBytes(offsets[done], e.ensureRawCapacity(len), 0, len);
                    e.setRawLength(len);
                    stamp(e, peer, now);
                    sum += len;
                }
            } finally {
                RingClaim.publish(ring, lo, hi, seq);
            }
            received.add(n);
            bytes.add(sum);
        }
        return done - from;
    }

    /**
     * Publishes the frame at {@code [off, off + len)} of {@code buf} (not released) and returns its ring sequence,
     * for a source that acknowledges each message once the sinks completed it; -1 when the ring is full.
     */
    public long tryPublishSequence(ByteBuf buf, int off, int len, Peer peer) {
        long seq = tryClaimOne();
        if (seq >= 0) {
            try {
                LogEvent e = ring.get(seq);
                e.clear();
                buf.getBytes(off, e.ensureRawCapacity(len), 0, len);
                e.setRawLength(len);
                stamp(e, peer, System.currentTimeMillis());
            } finally {
                published(seq, len);
            }
        }
        return seq;
    }

    /** {@link #tryPublishSequence(ByteBuf, int, int, Peer)} for a frame held in an array. */
    public long tryPublishSequence(byte[] frame, Peer peer) {
        long seq = tryClaimOne();
        if (seq >= 0) {
            try {
                LogEvent e = ring.get(seq);
                e.clear();
                e.setRaw(frame, 0, frame.length);
                stamp(e, peer, System.currentTimeMillis());
            } finally {
                published(seq, frame.length);
            }
        }
        return seq;
    }

    /** One slot, or -1 when the ring is full. */
    private long tryClaimOne() {
        try {
            return ring.tryNext();
        } catch (InsufficientCapacityException full) {
            return -1;
        }
    }

    private void published(long seq, int len) {
        ring.publish(seq);
        received.inc();
        bytes.add(len);
    }

    /**
     * Publishes one datagram's payload (UDP, a Unix datagram socket): an empty one is counted in {@code empty}, a
     * longer one than {@code max} is cut to it and counted in {@code truncated}, and one that finds the ring full is
     * dropped and counted in {@code dropped} (a datagram cannot wait). {@code content} stays the caller's.
     */
    public void publishDatagram(ByteBuf content, int max, Peer peer, Counter empty, Counter truncated,
                                Counter dropped) {
        int len = content.readableBytes();
        if (len == 0) {
            empty.inc();
            return;
        }
        ByteBuf frame = content;
        if (len > max) {
            truncated.inc();
            frame = content.slice(content.readerIndex(), max);
        }
        frame.retain();
        if (!tryPublish(frame, peer)) {
            frame.release();
            dropped.inc();
        }
    }

    private void stamp(LogEvent event, Peer peer, long nowMillis) {
        byte[] p = peer.text();
        event.setPeer(p, 0, p.length);
        event.setSource(sourceId, sourceName, formatHint, sinkMask);
        event.setReceivedMillis(nowMillis);
        peer.copyFieldsTo(event.fields());
    }

    private void fill(LogEvent event, ByteBuf frame, Peer peer, long nowMillis) {
        event.clear();
        int len = frame.readableBytes();
        frame.getBytes(frame.readerIndex(), event.ensureRawCapacity(len), 0, len);
        event.setRawLength(len);
        stamp(event, peer, nowMillis);
    }

    /**
     * True when sources should stop reading: fewer than a quarter of the slots are free. Asked after every read;
     * answered from the sequencer's cached view of the stages' positions while that shows room enough, so that it
     * does not read every stage's sequence each time.
     */
    public boolean shouldPause() {
        return !ring.hasAvailableCapacity(pauseBelow);
    }

    /** True when paused sources may read again: at least half of the slots are free. */
    public boolean mayResume() {
        return ring.hasAvailableCapacity(resumeAt);
    }
}
