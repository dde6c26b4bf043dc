package dev.logrouter.netty.tcp;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.netty.RingPublisher;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Flow control of one connection without sockets: a real ring whose only consumer is a sequence the
 * test moves by hand, the real LF decoder and publish handler on an {@link EmbeddedChannel} whose
 * clock the test advances.
 */
class TcpPublishHandlerTest {

    private static final int RING = 64;
    private RingBuffer<LogEvent> ring;
    private Sequence consumer;
    private MetricGroup metrics;
    private TcpSourceState state;
    private EmbeddedChannel ch;

    @BeforeEach
    void setUp() {
        ring = RingBuffer.createMultiProducer(LogEvent.FACTORY, RING);
        consumer = new Sequence(-1);
        ring.addGatingSequences(consumer);
        metrics = new MetricGroup("Source", "t");
        RingPublisher publisher = new RingPublisher(ring, 0, "t", LogEvent.FORMAT_RFC3164, 1L, metrics);
        state = new TcpSourceState();
        TcpPublishHandler publish = new TcpPublishHandler(publisher, new TcpSourceCounters(metrics), state,
                new dev.logrouter.netty.Peer(), 0);
        ch = new EmbeddedChannel(new LineFrameDecoder(1024, FramingCounters.detached(), publish), publish);
    }

    private static String lines(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            sb.append("<13>Mar  1 10:00:00 h p: m").append(i).append('\n');
        }
        return sb.toString();
    }

    private String msgAt(long seq) {
        LogEvent e = ring.get(seq);
        return new String(e.raw(), 0, e.rawLength(), StandardCharsets.US_ASCII);
    }

    /** Lets the consumer take everything published so far. */
    private void consumeAll() {
        consumer.set(ring.getCursor());
    }

    @Test
    void ringFullPausesReadingQueuesFramesAndResumesWhenHalfIsFree() {
        ch.writeInbound(Unpooled.copiedBuffer(lines(0, 100), StandardCharsets.US_ASCII));
        assertThat(ring.getCursor()).as("the ring took what fitted").isEqualTo(RING - 1);
        assertThat(ch.config().isAutoRead()).as("reading paused").isFalse();
        assertThat(state.pausedConnections()).isEqualTo(1);
        assertThat(metrics.value("pauses")).isEqualTo(1);

        // nothing consumed yet: the retry task keeps the channel paused
        ch.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        assertThat(ch.config().isAutoRead()).isFalse();

        for (int i = 0; i < RING; i++) {
            assertThat(msgAt(i)).isEqualTo("<13>Mar  1 10:00:00 h p: m" + i);
        }
        consumeAll();
        ch.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        assertThat(ring.getCursor()).isEqualTo(99);
        for (int i = RING; i < 100; i++) {
            assertThat(msgAt(i)).isEqualTo("<13>Mar  1 10:00:00 h p: m" + i);
        }
        // 36 of 64 slots in use: less than half free, still paused
        assertThat(ch.config().isAutoRead()).isFalse();

        consumeAll();
        ch.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        assertThat(ch.config().isAutoRead()).as("resumed").isTrue();
        assertThat(state.pausedConnections()).isZero();
        assertThat(metrics.value("received")).isEqualTo(100);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void framesQueuedWhenThePeerClosesAreStillPublished() {
        io.netty.buffer.ByteBuf in = Unpooled.copiedBuffer(lines(0, 80) + "<13>Mar  1 10:00:00 h p: last",
                StandardCharsets.US_ASCII);
        ch.writeInbound(in);
        // the peer closes (EmbeddedChannel.close() would also cancel scheduled tasks, which a real event loop
        // keeps): the line without LF is decoded at that moment and queued too
        ch.pipeline().fireChannelInactive();
        assertThat(state.keptFrames()).as("frames kept at close").isEqualTo(81 - RING);
        assertThat(state.live()).as("not finished while frames are kept").hasSize(1);
        // the decoder has let its input go; the kept frames hold it (two slices: the lines, then the last frame)
        assertThat(in.refCnt()).as("the decoder's buffer (its first input) is held for the kept frames").isEqualTo(2);
        consumeAll();
        ch.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        assertThat(ring.getCursor()).isEqualTo(80);
        assertThat(msgAt(80)).isEqualTo("<13>Mar  1 10:00:00 h p: last");
        assertThat(state.live()).isEmpty();
        assertThat(state.keptFrames()).isZero();
        assertThat(in.refCnt()).as("released once the kept frames are published").isZero();
        ch.finishAndReleaseAll();
    }

    @Test
    void nothingOvertakesFramesKeptAtClose() {
        ch.writeInbound(Unpooled.copiedBuffer(lines(0, 70), StandardCharsets.US_ASCII));
        ch.pipeline().fireChannelInactive(); // 6 frames kept aside
        consumeAll(); // the ring has room again before the retry ran
        TcpPublishHandler h = ch.pipeline().get(TcpPublishHandler.class);
        io.netty.buffer.ByteBuf later = Unpooled.copiedBuffer("<13>Mar  1 10:00:00 h p: later", StandardCharsets.US_ASCII);
        assertThat(h.accept(later, new int[] {0}, new int[] {later.readableBytes()}, 1))
                .as("a frame handed over while others are kept must wait behind them").isZero();
        later.release();
        ch.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        for (int i = RING; i < 70; i++) {
            assertThat(msgAt(i)).isEqualTo("<13>Mar  1 10:00:00 h p: m" + i);
        }
        assertThat(state.live()).isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void forcedStopReleasesAndCountsWhatCouldNotBePublished() {
        io.netty.buffer.ByteBuf in = Unpooled.copiedBuffer(lines(0, 70), StandardCharsets.US_ASCII);
        ch.writeInbound(in);
        ch.pipeline().fireChannelInactive(); // the peer closes while the ring is full: 6 frames kept
        TcpPublishHandler h = ch.pipeline().get(TcpPublishHandler.class);
        h.abandon();
        assertThat(in.refCnt()).as("the kept frames' buffer released").isZero();
        assertThat(metrics.value("abandoned")).isEqualTo(70 - RING);
        assertThat(state.keptFrames()).isZero();
        assertThat(state.live()).isEmpty();
        ch.finishAndReleaseAll();
    }
}
