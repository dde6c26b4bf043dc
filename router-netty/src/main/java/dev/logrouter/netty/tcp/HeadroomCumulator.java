package dev.logrouter.netty.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * A frame decoder's cumulator: when the bytes left from earlier reads (usually one partial frame) fit in the free
 * room in front of the new read's bytes ({@link HeadroomRecvAllocator}), they are copied there and the new read's
 * buffer becomes the cumulation; the read itself is not copied. Otherwise (no room: a large leftover, a buffer from
 * TLS or from a test, a buffer someone else also holds) it is Netty's {@link ByteToMessageDecoder#MERGE_CUMULATOR}.
 *
 * <p>The room in front of the new bytes is written only when the new buffer is held by no one else
 * ({@code refCnt() == 1}): a retained slice of it, such as a frame kept aside by {@link TcpPublishHandler}, raises
 * its count. The old cumulation is only read, so frames kept aside from it stay as they were.
 *
 * <p>Threads: stateless, shared; called on the connection's event loop.
 */
final class HeadroomCumulator implements ByteToMessageDecoder.Cumulator {

    static final HeadroomCumulator INSTANCE = new HeadroomCumulator();

    private HeadroomCumulator() {
    }

    @Override
    public ByteBuf cumulate(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf in) {
        int left = cumulation.readableBytes();
        if (left > 0 && cumulation != in && left <= in.readerIndex() && in.refCnt() == 1 && !in.isReadOnly()
                && in.isContiguous()) {
            try {
                int start = in.readerIndex() - left;
                in.setBytes(start, cumulation, cumulation.readerIndex(), left);
                in.readerIndex(start);
            } catch (RuntimeException | Error e) {
                in.release(); // as the merging cumulator does: the read is released whatever happens
                throw e;
            } finally {
                cumulation.release();
            }
            return in;
        }
        return ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(alloc, cumulation, in);
    }
}
