package dev.logrouter.bench.netty.tcp;

import dev.logrouter.bench.SyslogSamples;
import dev.logrouter.netty.tcp.FrameConsumer;
import dev.logrouter.netty.tcp.FramingCounters;
import dev.logrouter.netty.tcp.LineFrameDecoder;
import dev.logrouter.netty.tcp.OctetCountingFrameDecoder;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ResourceLeakDetector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Throughput (messages/s) of the TCP frame decoders: one read of {@value #FRAMES} messages of
 * {@value #MESSAGE_SIZE} bytes on the wire (framing included; 64,000 bytes, about one full 64 KiB socket read)
 * pushed through an {@link EmbeddedChannel} holding only the decoder, whose {@link FrameConsumer} reads one byte
 * of every frame (the router's consumer copies frames into the ring; that copy is measured by the parser
 * benchmark's {@code receiveOnly}). One operation is one message ({@link OperationsPerInvocation}).
 *
 * <p>Variants: {@code framing} {@code lf} ({@link LineFrameDecoder}, 399 bytes + LF) or {@code octet-counted}
 * ({@link OctetCountingFrameDecoder}, {@code "396 "} + 396 bytes); {@code buffer} is where the read lives:
 * {@code unpooled-direct}, {@code pooled-direct} or {@code adaptive-direct} (Netty 4.2's default allocator, what
 * the TCP source reads into). The chunk is built once per trial; each invocation writes a
 * {@code retainedDuplicate()} of it, which the decoder releases once consumed. The chunk holds whole frames only,
 * so nothing is cumulated between invocations. Every invocation checks the frame count and that the chunk's
 * reference count is back to 1 (nothing leaked); the trial fails otherwise.
 *
 * <p>Netty's leak detector is switched off (unless {@code -Dio.netty.leakDetection.level} is given), so that a
 * sampled leak-aware wrapper cannot change the figures from one run to the next; the reference count check above
 * replaces it.
 *
 * <p>Caveat: the JMH worker is a plain thread, not a Netty {@code FastThreadLocalThread}. Netty 4.2's
 * {@code Recycler} only pools on the latter, so the derived buffers of {@code pooled-direct} are allocated afresh
 * here, where an event loop would recycle them; see docs/performance.md for the measured difference.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class FrameDecoderBenchmark {

    /** Messages per chunk (one operation each). */
    public static final int FRAMES = 160;
    /** Bytes per message on the wire, framing included. */
    public static final int MESSAGE_SIZE = 400;
    /** The decoder's max frame length: the {@code max-message-size} of config/router.yaml (64 KiB). */
    private static final int MAX_FRAME = 64 * 1024;

    @Param({"lf", "octet-counted"})
    public String framing;

    @Param({"unpooled-direct", "pooled-direct", "adaptive-direct"})
    public String buffer;

    private ByteBuf chunk;
    private EmbeddedChannel channel;
    private final CountingConsumer consumer = new CountingConsumer();

    /** Counts frames and touches one byte of each. */
    private static final class CountingConsumer implements FrameConsumer {
        int frames;
        long sum;

        @Override
        public int accept(ByteBuf buf, int[] offsets, int[] lengths, int count) {
            for (int i = 0; i < count; i++) {
                sum += lengths[i] + buf.getByte(offsets[i]);
            }
            frames += count;
            return count;
        }

        @Override
        public void keep(ByteBuf buf, int[] offsets, int[] lengths, int from, int count) {
            frames += count - from;
        }
    }

    @Setup
    public void setUp() {
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        ByteBufAllocator alloc = switch (buffer) {
            case "unpooled-direct" -> UnpooledByteBufAllocator.DEFAULT;
            case "pooled-direct" -> PooledByteBufAllocator.DEFAULT;
            case "adaptive-direct" -> new AdaptiveByteBufAllocator();
            default -> throw new IllegalArgumentException("unknown buffer: " + buffer
                    + " (unpooled-direct, pooled-direct, adaptive-direct)");
        };
        ChannelHandler decoder = switch (framing) {
            case "lf" -> new LineFrameDecoder(MAX_FRAME, FramingCounters.detached(), consumer);
            case "octet-counted" -> new OctetCountingFrameDecoder(MAX_FRAME, FramingCounters.detached(), consumer);
            default -> throw new IllegalArgumentException("unknown framing: " + framing + " (lf, octet-counted)");
        };
        chunk = alloc.directBuffer(FRAMES * MESSAGE_SIZE, FRAMES * MESSAGE_SIZE);
        for (int i = 0; i < FRAMES; i++) {
            writeMessage(chunk, "lf".equals(framing));
        }
        channel = new EmbeddedChannel(decoder);
        decode();
    }

    private static void writeMessage(ByteBuf to, boolean lf) {
        if (lf) {
            to.writeBytes(SyslogSamples.frame(SyslogSamples.RFC3164, MESSAGE_SIZE - 1)).writeByte('\n');
        } else {
            String header = (MESSAGE_SIZE - 4) + " ";
            to.writeBytes(header.getBytes(StandardCharsets.US_ASCII))
                    .writeBytes(SyslogSamples.frame(SyslogSamples.RFC5424, MESSAGE_SIZE - header.length()));
        }
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public long decode() {
        consumer.frames = 0;
        channel.writeInbound(chunk.retainedDuplicate());
        if (consumer.frames != FRAMES || chunk.refCnt() != 1) {
            throw new IllegalStateException("decoded " + consumer.frames + " frames (expected " + FRAMES
                    + "), chunk refCnt " + chunk.refCnt() + " (expected 1)");
        }
        return consumer.sum;
    }

    @TearDown
    public void tearDown() {
        channel.finishAndReleaseAll();
        int refCnt = chunk.refCnt();
        chunk.release(refCnt);
        if (refCnt != 1) {
            throw new IllegalStateException("chunk refCnt " + refCnt + " at the end of the trial: a frame leaked");
        }
    }
}
