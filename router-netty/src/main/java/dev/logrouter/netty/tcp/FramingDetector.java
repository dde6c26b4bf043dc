package dev.logrouter.netty.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/**
 * Chooses the framing of a connection from its first byte, as {@code framing: auto} promises: a digit
 * means octet counting (RFC 6587 §3.4.1), anything else LF framing. It then replaces itself with the
 * chosen decoder, which receives the bytes read so far.
 *
 * <p>Threads: one instance per channel, on its event loop. Not sharable.
 */
public final class FramingDetector extends ByteToMessageDecoder {

    private final int maxFrameLength;
    private final FramingCounters counters;
    private final FrameConsumer consumer;
    private final boolean nulEnds;

    public FramingDetector(int maxFrameLength, FramingCounters counters, FrameConsumer consumer) {
        this(maxFrameLength, counters, consumer, false);
    }

    /** @param nulEnds with LF framing, a NUL byte ends a frame too (unix-stream) */
    public FramingDetector(int maxFrameLength, FramingCounters counters, FrameConsumer consumer, boolean nulEnds) {
        this.maxFrameLength = maxFrameLength;
        this.counters = counters;
        this.consumer = consumer;
        this.nulEnds = nulEnds;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (!in.isReadable()) {
            return;
        }
        byte first = in.getByte(in.readerIndex());
        ByteToMessageDecoder next = first >= '0' && first <= '9'
                ? new OctetCountingFrameDecoder(maxFrameLength, counters, consumer)
                : new LineFrameDecoder(maxFrameLength, counters, consumer, nulEnds);
        ctx.pipeline().addAfter(ctx.name(), "framing", next);
        ctx.pipeline().remove(this);
    }
}
