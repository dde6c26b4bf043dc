package dev.logrouter.netty.tcp;

import dev.logrouter.core.metrics.MetricGroup;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Codec tests of the frame decoders without sockets: split input, oversize, bad headers, close mid-frame. */
class FrameDecoderTest {

    private static final int MAX = 64;
    private MetricGroup metrics;
    private FramingCounters counters;
    private CollectingConsumer consumer;

    @BeforeEach
    void setUp() {
        metrics = new MetricGroup("Source", "test");
        counters = new FramingCounters(metrics);
        consumer = new CollectingConsumer();
    }

    private static ByteBuf buf(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    /**
     * Collects the frames a decoder hands over, as text; {@link #room} limits how many it takes before
     * saying "no room" (the ring is full), and frames it is asked to keep at close are collected too.
     */
    private static final class CollectingConsumer implements FrameConsumer {

        final List<String> frames = new ArrayList<>();
        final List<String> kept = new ArrayList<>();
        int room = Integer.MAX_VALUE;

        @Override
        public int accept(ByteBuf buf, int[] offsets, int[] lengths, int count) {
            int n = Math.min(count, room);
            for (int i = 0; i < n; i++) {
                frames.add(buf.toString(offsets[i], lengths[i], StandardCharsets.ISO_8859_1));
            }
            room -= n;
            return n;
        }

        @Override
        public void keep(ByteBuf buf, int[] offsets, int[] lengths, int from, int count) {
            for (int i = from; i < count; i++) {
                kept.add(buf.toString(offsets[i], lengths[i], StandardCharsets.ISO_8859_1));
            }
        }

        List<String> drain() {
            List<String> out = new ArrayList<>(frames);
            frames.clear();
            return out;
        }
    }

    @Test
    void lfFramesSplitAcrossReadsAndCrlf() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineFrameDecoder(MAX, counters, consumer));
        ch.writeInbound(buf("<13>one\n<13>tw"));
        ch.writeInbound(buf("o\r\n\n<13>three"));
        assertThat(consumer.drain()).containsExactly("<13>one", "<13>two");
        assertThat(metrics.value("emptyFrames")).isEqualTo(1);
        ch.finish(); // peer closes: the last line without LF is delivered
        assertThat(consumer.drain()).containsExactly("<13>three");
    }

    @Test
    void nulEndsAFrameOnlyWhenAskedAsUnixStreamDoes() {
        // glibc's syslog(3) over a stream socket: each message ends with NUL; a NUL after LF is an empty frame
        EmbeddedChannel unix = new EmbeddedChannel(new LineFrameDecoder(MAX, counters, consumer, true));
        unix.writeInbound(buf("<13>one\0<13>tw"));
        unix.writeInbound(buf("o\r\0<13>three\n\0<13>fo"));
        assertThat(consumer.drain()).containsExactly("<13>one", "<13>two", "<13>three");
        assertThat(metrics.value("emptyFrames")).isEqualTo(1);
        unix.finish();
        assertThat(consumer.drain()).containsExactly("<13>fo");
        // a NUL-free line of exactly max is still one frame when its NUL arrives later; one over is split
        String exact = "n".repeat(MAX);
        EmbeddedChannel split = new EmbeddedChannel(new FramingDetector(MAX, counters, consumer, true));
        split.writeInbound(buf(exact));
        split.writeInbound(buf("\0" + exact + "z\0"));
        assertThat(consumer.drain()).containsExactly(exact, exact, "z");
        assertThat(split.finish()).isFalse();
        // TCP's LF framing keeps a NUL inside the frame
        EmbeddedChannel tcp = new EmbeddedChannel(new LineFrameDecoder(MAX, counters, consumer));
        tcp.writeInbound(buf("<13>a\0b\n"));
        assertThat(consumer.drain()).containsExactly("<13>a\0b");
        assertThat(tcp.finish()).isFalse();
    }

    @Test
    void lfLineOfExactlyMaxIsOneFrameAndOneOverIsSplit() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineFrameDecoder(MAX, counters, consumer));
        String exact = "x".repeat(MAX);
        ch.writeInbound(buf(exact + "\n"));
        assertThat(consumer.drain()).containsExactly(exact);
        assertThat(metrics.value("truncated")).isZero();
        ch.writeInbound(buf(exact + "yz\n"));
        assertThat(consumer.drain()).containsExactly(exact, "yz");
        assertThat(metrics.value("truncated")).isEqualTo(1);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void lfLineOfExactlyMaxWhoseEndArrivesLaterIsNotTruncated() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineFrameDecoder(MAX, counters, consumer));
        String exact = "q".repeat(MAX);
        ch.writeInbound(buf(exact));
        ch.writeInbound(buf("\r"));
        assertThat(consumer.drain()).isEmpty();
        ch.writeInbound(buf("\n" + exact + "\n"));
        assertThat(consumer.drain()).containsExactly(exact, exact);
        assertThat(metrics.value("truncated")).isZero();
        assertThat(metrics.value("emptyFrames")).isZero();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void lfVeryLongLineWithoutNewlineIsSplitAsItArrives() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineFrameDecoder(MAX, counters, consumer));
        ch.writeInbound(buf("a".repeat(MAX * 2 + 5)));
        assertThat(consumer.drain()).containsExactly("a".repeat(MAX), "a".repeat(MAX));
        ch.finish();
        assertThat(consumer.drain()).containsExactly("aaaaa");
    }

    @Test
    void octetCountedFramesWithSplitLengthPrefixAndEmbeddedNewlines() {
        EmbeddedChannel ch = new EmbeddedChannel(new OctetCountingFrameDecoder(MAX, counters, consumer));
        ch.writeInbound(buf("1"));
        ch.writeInbound(buf("0 <13>a\nb\nc"));
        ch.writeInbound(buf("d5 <13>e3 <1"));
        assertThat(consumer.drain()).containsExactly("<13>a\nb\ncd", "<13>e");
        ch.writeInbound(buf(">"));
        assertThat(consumer.drain()).containsExactly("<1>");
        assertThat(ch.isOpen()).isTrue();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void octetCountOfExactlyMaxIsAcceptedAndOneMoreClosesTheConnection() {
        EmbeddedChannel ch = new EmbeddedChannel(new OctetCountingFrameDecoder(MAX, counters, consumer));
        String exact = "y".repeat(MAX);
        ch.writeInbound(buf(MAX + " " + exact));
        assertThat(consumer.drain()).containsExactly(exact);
        ch.writeInbound(buf((MAX + 1) + " " + exact + "z"));
        assertThat(consumer.drain()).isEmpty();
        assertThat(ch.isOpen()).isFalse();
        assertThat(metrics.value("malformed")).isEqualTo(1);
    }

    @Test
    void hugeOctetCountIsRejectedBeforeAnyBodyArrives() {
        EmbeddedChannel ch = new EmbeddedChannel(new OctetCountingFrameDecoder(MAX, counters, consumer));
        ch.writeInbound(buf("99999999999999 "));
        assertThat(ch.isOpen()).isFalse();
        assertThat(metrics.value("malformed")).isEqualTo(1);
    }

    @Test
    void nonDigitHeaderClosesTheConnectionAndDropsTheRest() {
        EmbeddedChannel ch = new EmbeddedChannel(new OctetCountingFrameDecoder(MAX, counters, consumer));
        ch.writeInbound(buf("5 <13>a12x <13>b\n"));
        assertThat(consumer.drain()).containsExactly("<13>a");
        assertThat(ch.isOpen()).isFalse();
        assertThat(metrics.value("malformed")).isEqualTo(1);
    }

    @Test
    void closeInTheMiddleOfAnOctetCountedFrameDiscardsItAndCounts() {
        EmbeddedChannel ch = new EmbeddedChannel(new OctetCountingFrameDecoder(MAX, counters, consumer));
        ch.writeInbound(buf("60 <13>1 short"));
        ch.finish();
        assertThat(consumer.drain()).isEmpty();
        assertThat(metrics.value("partialFrames")).isEqualTo(1);
    }

    @Test
    void framesTheConsumerHasNoRoomForStayInTheDecoderUntilAskedAgain() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineFrameDecoder(MAX, counters, consumer));
        consumer.room = 2;
        ch.writeInbound(buf("<1>a\n<2>b\n<3>c\n<4>d\n"));
        assertThat(consumer.drain()).containsExactly("<1>a", "<2>b");
        consumer.room = Integer.MAX_VALUE;
        ch.writeInbound(Unpooled.EMPTY_BUFFER); // what the publish handler does when the ring has room again
        assertThat(consumer.drain()).containsExactly("<3>c", "<4>d");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void emptyLinesAndSplitsAreCountedOnceEvenWhenFramesAreHandedOverAgain() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineFrameDecoder(MAX, counters, consumer));
        consumer.room = 1;
        ch.writeInbound(buf("<1>a\n\n<2>b\n\n\n" + "y".repeat(MAX + 3) + "\n<3>c\n"));
        for (int i = 0; i < 5; i++) {
            ch.writeInbound(Unpooled.EMPTY_BUFFER); // re-asked several times while the consumer has no room
        }
        consumer.room = Integer.MAX_VALUE;
        ch.writeInbound(Unpooled.EMPTY_BUFFER);
        assertThat(consumer.drain()).containsExactly("<1>a", "<2>b", "y".repeat(MAX), "yyy", "<3>c");
        assertThat(metrics.value("emptyFrames")).isEqualTo(3);
        assertThat(metrics.value("truncated")).isEqualTo(1);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aLastLineOneByteOverTheLimitIsSplitAtClose() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineFrameDecoder(MAX, counters, consumer));
        ch.writeInbound(buf("a".repeat(MAX + 1)));
        assertThat(consumer.drain()).isEmpty();
        ch.finish();
        assertThat(consumer.drain()).containsExactly("a".repeat(MAX), "a");
        assertThat(metrics.value("truncated")).isEqualTo(1);
    }

    @Test
    void atCloseFramesWithoutRoomAreHandedOverToKeep() {
        EmbeddedChannel ch = new EmbeddedChannel(new OctetCountingFrameDecoder(MAX, counters, consumer));
        consumer.room = 1;
        ch.writeInbound(buf("3 <1>3 <2>3 <3>"));
        assertThat(consumer.drain()).containsExactly("<1>");
        ch.finish();
        assertThat(consumer.kept).containsExactly("<2>", "<3>");
    }

    @Test
    void detectorChoosesOctetCountingForADigitAndLfOtherwise() {
        EmbeddedChannel oc = new EmbeddedChannel(new FramingDetector(MAX, counters, consumer));
        oc.writeInbound(buf("4 <1>x"));
        oc.writeInbound(buf("3 <2>"));
        assertThat(consumer.drain()).containsExactly("<1>x", "<2>");
        assertThat(oc.pipeline().get(OctetCountingFrameDecoder.class)).isNotNull();
        oc.finish();

        EmbeddedChannel lf = new EmbeddedChannel(new FramingDetector(MAX, counters, consumer));
        lf.writeInbound(buf("<13>hello\n<13>wor"));
        lf.writeInbound(buf("ld\n"));
        assertThat(consumer.drain()).containsExactly("<13>hello", "<13>world");
        assertThat(lf.pipeline().get(LineFrameDecoder.class)).isNotNull();
        lf.finish();
    }

    @Test
    void garbageOnAnLfConnectionIsPassedOnAsFrames() {
        EmbeddedChannel ch = new EmbeddedChannel(new FramingDetector(MAX, counters, consumer));
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {(byte) 0xff, 0x00, (byte) 0xfe, '\n', 'z', '\n'}));
        List<String> f = consumer.drain();
        assertThat(f).hasSize(2);
        assertThat(f.get(0).getBytes(StandardCharsets.ISO_8859_1)).containsExactly((byte) 0xff, 0x00, (byte) 0xfe);
        ch.finish();
    }
}
