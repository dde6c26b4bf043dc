package dev.logrouter.netty.tcp;

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

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        discardSomeReadBytes();
        ctx.fireChannelReadComplete();
    }
}
