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

    @BeforeEach
    void setUp() {
        metrics = new MetricGroup("Source", "test");
        counters = new FramingCounters(metrics);
    }

    private static ByteBuf buf(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    /** Reads every frame out of the channel as text and releases it. */
    private static List<String> frames(EmbeddedChannel ch) {
        List<String> out = new ArrayList<>();
        ByteBuf b;
        while ((b = ch.readInbound()) != null) {
            out.add(b.toString(StandardCharsets.ISO_8859_1));
            b.release();
        }
        return out;
    }

    @Test
    void lfFramesSplitAcrossReadsAndCrlf() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineFrameDecoder(MAX, counters));
        ch.writeInbound(buf("<13>one\n<13>tw"));
        ch.writeInbound(buf("o\r\n\n<13>three"));
        assertThat(frames(ch)).containsExactly("<13>one", "<13>two");
        assertThat(metrics.value("emptyFrames")).isEqualTo(1);
        ch.finish(); // peer closes: the last line without LF is delivered
        assertThat(frames(ch)).containsExactly("<13>three");
    }

    @Test
    void lfLineOfExactlyMaxIsOneFrameAndOneOverIsSplit() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineFrameDecoder(MAX, counters));
        String exact = "x".repeat(MAX);
        ch.writeInbound(buf(exact + "\n"));
        assertThat(frames(ch)).containsExactly(exact);
        assertThat(metrics.value("truncated")).isZero();
        ch.writeInbound(buf(exact + "yz\n"));
        assertThat(frames(ch)).containsExactly(exact, "yz");
        assertThat(metrics.value("truncated")).isEqualTo(1);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void lfLineOfExactlyMaxWhoseEndArrivesLaterIsNotTruncated() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineFrameDecoder(MAX, counters));
        String exact = "q".repeat(MAX);
        ch.writeInbound(buf(exact));
        ch.writeInbound(buf("\r"));
        assertThat(frames(ch)).isEmpty();
        ch.writeInbound(buf("\n" + exact + "\n"));
        assertThat(frames(ch)).containsExactly(exact, exact);
        assertThat(metrics.value("truncated")).isZero();
        assertThat(metrics.value("emptyFrames")).isZero();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void lfVeryLongLineWithoutNewlineIsSplitAsItArrives() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineFrameDecoder(MAX, counters));
        ch.writeInbound(buf("a".repeat(MAX * 2 + 5)));
        assertThat(frames(ch)).containsExactly("a".repeat(MAX), "a".repeat(MAX));
        ch.finish();
        assertThat(frames(ch)).containsExactly("aaaaa");
    }

    @Test
    void octetCountedFramesWithSplitLengthPrefixAndEmbeddedNewlines() {
        EmbeddedChannel ch = new EmbeddedChannel(new OctetCountingFrameDecoder(MAX, counters));
        ch.writeInbound(buf("1"));
        ch.writeInbound(buf("0 <13>a\nb\nc"));
        ch.writeInbound(buf("d5 <13>e3 <1"));
        assertThat(frames(ch)).containsExactly("<13>a\nb\ncd", "<13>e");
        ch.writeInbound(buf(">"));
        assertThat(frames(ch)).containsExactly("<1>");
        assertThat(ch.isOpen()).isTrue();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void octetCountOfExactlyMaxIsAcceptedAndOneMoreClosesTheConnection() {
        EmbeddedChannel ch = new EmbeddedChannel(new OctetCountingFrameDecoder(MAX, counters));
        String exact = "y".repeat(MAX);
        ch.writeInbound(buf(MAX + " " + exact));
        assertThat(frames(ch)).containsExactly(exact);
        ch.writeInbound(buf((MAX + 1) + " " + exact + "z"));
        assertThat(frames(ch)).isEmpty();
        assertThat(ch.isOpen()).isFalse();
        assertThat(metrics.value("malformed")).isEqualTo(1);
    }

    @Test
    void hugeOctetCountIsRejectedBeforeAnyBodyArrives() {
        EmbeddedChannel ch = new EmbeddedChannel(new OctetCountingFrameDecoder(MAX, counters));
        ch.writeInbound(buf("99999999999999 "));
        assertThat(ch.isOpen()).isFalse();
        assertThat(metrics.value("malformed")).isEqualTo(1);
    }

    @Test
    void nonDigitHeaderClosesTheConnectionAndDropsTheRest() {
        EmbeddedChannel ch = new EmbeddedChannel(new OctetCountingFrameDecoder(MAX, counters));
        ch.writeInbound(buf("5 <13>a12x <13>b\n"));
        assertThat(frames(ch)).containsExactly("<13>a");
        assertThat(ch.isOpen()).isFalse();
        assertThat(metrics.value("malformed")).isEqualTo(1);
    }

    @Test
    void closeInTheMiddleOfAnOctetCountedFrameDiscardsItAndCounts() {
        EmbeddedChannel ch = new EmbeddedChannel(new OctetCountingFrameDecoder(MAX, counters));
        ch.writeInbound(buf("60 <13>1 short"));
        ch.finish();
        assertThat(frames(ch)).isEmpty();
        assertThat(metrics.value("partialFrames")).isEqualTo(1);
    }

    @Test
    void detectorChoosesOctetCountingForADigitAndLfOtherwise() {
        EmbeddedChannel oc = new EmbeddedChannel(new FramingDetector(MAX, counters));
        oc.writeInbound(buf("4 <1>x"));
        oc.writeInbound(buf("3 <2>"));
        assertThat(frames(oc)).containsExactly("<1>x", "<2>");
        assertThat(oc.pipeline().get(OctetCountingFrameDecoder.class)).isNotNull();
        oc.finish();

        EmbeddedChannel lf = new EmbeddedChannel(new FramingDetector(MAX, counters));
        lf.writeInbound(buf("<13>hello\n<13>wor"));
        lf.writeInbound(buf("ld\n"));
        assertThat(frames(lf)).containsExactly("<13>hello", "<13>world");
        assertThat(lf.pipeline().get(LineFrameDecoder.class)).isNotNull();
        lf.finish();
    }

    @Test
    void garbageOnAnLfConnectionIsPassedOnAsFrames() {
        EmbeddedChannel ch = new EmbeddedChannel(new FramingDetector(MAX, counters));
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {(byte) 0xff, 0x00, (byte) 0xfe, '\n', 'z', '\n'}));
        List<String> f = frames(ch);
        assertThat(f).hasSize(2);
        assertThat(f.get(0).getBytes(StandardCharsets.ISO_8859_1)).containsExactly((byte) 0xff, 0x00, (byte) 0xfe);
        ch.finish();
    }
}
