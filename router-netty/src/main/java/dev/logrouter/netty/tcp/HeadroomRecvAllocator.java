package dev.logrouter.netty.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * Netty's adaptive read sizes, with {@link #HEADROOM} free bytes in front of what each read fills: the read
 * buffer's reader and writer indexes start at {@code HEADROOM}. {@link HeadroomCumulator} puts the partial frame a
 * connection's previous read ended with into that room, so that the new read becomes the decoder's input as it is,
 * where Netty's merging cumulator would copy the whole read behind the partial frame (a profile of W2 at full speed
 * showed that copy at 1.75 % of the router's samples). Installed for plain TCP; with {@code proxy-protocol} the
 * header decoder copies the first read to index 0 ({@code ProxyHeaderDecoder}).
 *
 * <p>Threads: {@link #newHandle} on a connection's event loop, once per connection; the handle on that event loop.
 */
final class HeadroomRecvAllocator implements RecvByteBufAllocator {

    /** Room in front of each read: a partial frame up to this long is put there instead of copying the read. */
    static final int HEADROOM = 2048;

    /**
     * Reads per wake-up before the event loop moves on: what Netty gives a TCP channel whose allocator it makes
     * itself (its channel metadata's default); an allocator given as an option otherwise keeps its own default of 1.
     */
    static final int MAX_READS_PER_WAKEUP = 16;

    private final RecvByteBufAllocator sizes = new AdaptiveRecvByteBufAllocator()
            .maxMessagesPerRead(MAX_READS_PER_WAKEUP);

    @Override
    public Handle newHandle() {
        return new HeadroomHandle((ExtendedHandle) sizes.newHandle());
    }

    /** The adaptive handle's sizes and read-loop decisions; only the buffer it hands out is different. */
    private static final class HeadroomHandle extends DelegatingHandle implements ExtendedHandle {

        private final ExtendedHandle sizes;

        HeadroomHandle(ExtendedHandle sizes) {
            super(sizes);
            this.sizes = sizes;
        }

        @Override
        public ByteBuf allocate(ByteBufAllocator alloc) {
            ByteBuf buf = alloc.ioBuffer(sizes.guess() + HEADROOM);
            buf.setIndex(HEADROOM, HEADROOM);
            return buf;
        }

        @Override
        public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
            return sizes.continueReading(maybeMoreDataSupplier);
        }
    }
}
