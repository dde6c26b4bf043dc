package dev.logrouter.netty.tcp;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.logrouter.core.metrics.MetricGroup;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the TCP frame decoders ({@link OctetCountingFrameDecoder}, {@link LineFrameDecoder} and
 * {@link FramingDetector} in front of either; {@code decodersEndingAtNul}: with a NUL ending an LF frame too, as
 * unix-stream frames) through an {@link EmbeddedChannel}: the fuzzer chooses the framing,
 * the max frame length, where the input is cut into reads (some with free room in front, as {@link
 * HeadroomRecvAllocator} gives them) and how much room the consumer has at each hand-off
 * (none means "ring full": the decoder must keep the rest and deliver it when asked again, as
 * {@link TcpPublishHandler} asks).
 *
 * <p>Properties: nothing throws; every frame is 1 to max bytes and lies in the readable part of the buffer it is
 * handed in; the frames (taken and kept at close) and the counters equal those of {@link ReferenceFraming}, a
 * plain model of the documented framing rules on the whole input, so the result does not depend on how the input
 * was cut or on back-pressure; every buffer the channel allocated (the reads and the decoder's cumulation) is
 * released at the end ({@code refCnt() == 0}; paranoid leak detection is on as well).
 *
 * <p>Runs in regression mode over {@code FrameDecoderFuzzTestInputs/decoders} with every build, and fuzzes for a
 * few seconds in the build's {@code fuzz-*} surefire executions (see "Fuzzing" in docs/operations.md).
 *
 * <p>Threads: the JUnit thread (the embedded channel runs its event loop there).
 */
class FrameDecoderFuzzTest {

    @FuzzTest(maxDuration = "10s")
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void decoders(FuzzedDataProvider data) {
        check(data, false);
    }

    /** The same with LF framing ending a frame at NUL too, as the unix-stream source frames (glibc's syslog(3)). */
    @FuzzTest(maxDuration = "10s")
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void decodersEndingAtNul(FuzzedDataProvider data) {
        check(data, true);
    }

    private static void check(FuzzedDataProvider data, boolean nulEnds) {
        int framing = data.consumeInt(0, 2); // 0 octet counting, 1 LF, 2 auto-detect
        int max = data.consumeBoolean() ? data.consumeInt(1, 16) : data.consumeInt(17, 70_000);
        int[] cuts = cuts(data);
        int[] rooms = rooms(data);
        byte[] input = data.consumeRemainingAsBytes();

        FramingCounters counters = new FramingCounters(new MetricGroup("Source", "fuzz"));
        RecordingConsumer consumer = new RecordingConsumer(max, rooms);
        ChannelHandler decoder = switch (framing) {
            case 0 -> new OctetCountingFrameDecoder(max, counters, consumer);
            case 1 -> new LineFrameDecoder(max, counters, consumer, nulEnds);
            default -> new FramingDetector(max, counters, consumer, nulEnds);
        };
        TrackingAllocator alloc = new TrackingAllocator();
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.config().setAllocator(alloc);
        ch.pipeline().addLast("detect", decoder);

        int pos = 0;
        for (int i = 0; pos < input.length && ch.isOpen(); i++) {
            int n = i < cuts.length ? Math.min(cuts[i], input.length - pos) : input.length - pos;
            // some reads have free room in front, as the TCP source's reads do (HeadroomRecvAllocator)
            int room = ROOMS[i % ROOMS.length];
            ByteBuf read = alloc.heapBuffer(room + n);
            read.setIndex(room, room).writeBytes(input, pos, n);
            pos += n;
            ch.writeInbound(read);
            assertThat(read.refCnt()).as("a read is released or kept in the cumulation only").isLessThanOrEqualTo(1);
            while (consumer.blocked && ch.isOpen()) {
                consumer.blocked = false;
                consumer.mustTake = true;
                ch.writeInbound(Unpooled.EMPTY_BUFFER); // what TcpPublishHandler does when the ring has room again
            }
        }
        ch.finish(); // the peer closes: the last line is delivered, a partial octet-counted frame dropped
        Object leftover = ch.readInbound();
        assertThat(leftover).as("decoders pass no messages on").isNull();
        ch.finishAndReleaseAll();
        alloc.assertAllReleased();

        ReferenceFraming.Result expected = framing == 0 || (framing == 2 && input.length > 0 && isDigit(input[0]))
                ? ReferenceFraming.octetCounted(input, max)
                : ReferenceFraming.lines(input, max, nulEnds);
        if (framing == 2 && input.length == 0) {
            expected = new ReferenceFraming.Result(List.of(), 0, 0, 0, 0);
        }
        assertThat(consumer.frames).as("frames").usingElementComparator(Arrays::compare)
                .containsExactlyElementsOf(expected.frames());
        assertThat(counters.malformed.get()).as("malformed").isEqualTo(expected.malformed());
        assertThat(counters.truncated.get()).as("truncated").isEqualTo(expected.truncated());
        assertThat(counters.empty.get()).as("empty").isEqualTo(expected.empty());
        assertThat(counters.partial.get()).as("partial").isEqualTo(expected.partial());
        if (expected.malformed() > 0) {
            assertThat(ch.isOpen()).as("a framing error closes the connection").isFalse();
        }
    }

    /** Free room in front of successive reads, cycled. */
    private static final int[] ROOMS = {0, 300, 7, HeadroomRecvAllocator.HEADROOM};

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    /** Sizes of the reads the input is cut into (the rest is one last read). */
    private static int[] cuts(FuzzedDataProvider data) {
        int[] c = new int[data.consumeInt(0, 12)];
        for (int i = 0; i < c.length; i++) {
            c[i] = data.consumeInt(1, 300);
        }
        return c;
    }

    /** Frames the consumer takes at successive hand-offs (0: no room), cycled; empty means always room. */
    private static int[] rooms(FuzzedDataProvider data) {
        int[] r = new int[data.consumeInt(0, 6)];
        for (int i = 0; i < r.length; i++) {
            r[i] = data.consumeInt(0, 3);
        }
        return r;
    }

    /** Records what the decoder hands over, checking the {@link FrameConsumer} contract on every call. */
    private static final class RecordingConsumer implements FrameConsumer {

        final List<byte[]> frames = new ArrayList<>();
        private final int max;
        private final int[] rooms;
        private int call;
        /** The last hand-off took fewer frames than offered: the decoder waits to be asked again. */
        boolean blocked;
        /** The next hand-off must take at least one frame (the ring drained), so the test always ends. */
        boolean mustTake;

        RecordingConsumer(int max, int[] rooms) {
            this.max = max;
            this.rooms = rooms;
        }

        @Override
        public int accept(ByteBuf buf, int[] offsets, int[] lengths, int count) {
            assertThat(count).isPositive();
            int room = rooms.length == 0 ? count : rooms[call++ % rooms.length];
            if (mustTake) {
                room = Math.max(room, 1);
                mustTake = false;
            }
            int n = Math.min(count, room);
            record(buf, offsets, lengths, 0, n);
            blocked = n < count;
            return n;
        }

        @Override
        public void keep(ByteBuf buf, int[] offsets, int[] lengths, int from, int count) {
            assertThat(from).isBetween(0, count - 1);
            record(buf, offsets, lengths, from, count);
            blocked = false;
        }

        private void record(ByteBuf buf, int[] offsets, int[] lengths, int from, int to) {
            assertThat(buf.refCnt()).as("the buffer handed over is alive").isPositive();
            for (int i = from; i < to; i++) {
                assertThat(lengths[i]).as("frame length").isBetween(1, max);
                assertThat(offsets[i]).as("frame start").isGreaterThanOrEqualTo(buf.readerIndex());
                assertThat(offsets[i] + lengths[i]).as("frame end").isLessThanOrEqualTo(buf.writerIndex());
                byte[] f = new byte[lengths[i]];
                buf.getBytes(offsets[i], f);
                frames.add(f);
            }
        }
    }

    /** Unpooled heap buffers that remember themselves, so the test can check that all were released. */
    private static final class TrackingAllocator extends AbstractByteBufAllocator {

        private final List<ByteBuf> allocated = new ArrayList<>();

        TrackingAllocator() {
            super(false);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            ByteBuf b = new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
            allocated.add(b);
            return b;
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            return newHeapBuffer(initialCapacity, maxCapacity); // the channel asks for heap buffers only
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }

        void assertAllReleased() {
            for (ByteBuf b : allocated) {
                assertThat(b.refCnt()).as("buffer released").isZero();
            }
        }
    }
}
