package dev.logrouter.netty.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * Base of the frame decoders that hand frames to a {@link FrameConsumer} instead of emitting messages.
 * {@code ByteToMessageDecoder} asks for another read when a read produced no message while
 * {@code autoRead} is off — which is always the case here, and would defeat flow control — so this
 * class completes a read without that request. Reading is driven by {@code autoRead} and by
 * {@link TcpPublishHandler} alone.
 *
 * <p>Threads: one instance per channel, on its event loop. Not sharable.
 */
abstract class FrameDecoder extends ByteToMessageDecoder {

    protected final int maxFrameLength;
    protected final FramingCounters counters;
    protected final FrameConsumer consumer;
    /** Frames found and not yet handed on; empty whenever decode returns. */
    protected final FrameBatch batch;

    FrameDecoder(int maxFrameLength, FramingCounters counters, FrameConsumer consumer) {
        this.maxFrameLength = maxFrameLength;
        this.counters = counters;
        this.consumer = consumer;
        this.batch = new FrameBatch(counters);
        setCumulator(HeadroomCumulator.INSTANCE);
    }

    /**
     * Hands the batch on. While the connection is open, returns false when the consumer had no room for
     * all of it (the rest stays in {@code in}); when closing, what it had no room for is kept aside.
     */
    protected final boolean handOff(ByteBuf in, boolean closing) {
        if (closing) {
            batch.handOffOrKeep(in, consumer);
            return true;
        }
        return batch.handOff(in, consumer);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        discardSomeReadBytes();
        ctx.fireChannelReadComplete();
    }
}
