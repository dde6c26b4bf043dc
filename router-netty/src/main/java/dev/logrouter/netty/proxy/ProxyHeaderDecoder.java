package dev.logrouter.netty.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import io.netty.handler.codec.haproxy.HAProxyProtocolException;
import io.netty.util.ReferenceCountUtil;

/**
 * Netty's {@link HAProxyMessageDecoder} (v1 and v2, detected from the first bytes; it emits one
 * {@code HAProxyMessage} and then removes itself, handing the bytes after the header on), made strict for a source that
 * requires the header: the first bytes must be a PROXY protocol signature ({@code "PROXY "} or the 12-byte v2 one),
 * checked as they arrive, so that a sender writing syslog directly is refused at once instead of after the 108 bytes
 * a v1 line may take; a v2 header may carry at most {@link ProxyProtocol#MAX_TLV_BYTES} of TLVs. A wrong signature, a
 * malformed or over-long header, or a close in the middle of one goes to {@link ProxyProtocol#failed} (counted,
 * connection closed). A connection closed before sending anything is not an error (a load balancer's TCP health
 * check).
 *
 * <p>Threads: one instance per connection, on its event loop. Not sharable.
 */
final class ProxyHeaderDecoder extends HAProxyMessageDecoder {

    private static final byte[] V1_SIGNATURE = {'P', 'R', 'O', 'X', 'Y', ' '};
    private static final byte[] V2_SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    private final ProxyProtocol protocol;
    /** Bytes of the connection checked against the signatures so far (at most the v2 signature's length). */
    private int checked;
    private boolean maybeV1 = true;
    private boolean maybeV2 = true;
    private boolean failed;

    ProxyHeaderDecoder(ProxyProtocol protocol) {
        super(ProxyProtocol.MAX_TLV_BYTES, true);
        this.protocol = protocol;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (failed) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (checked == 0 && msg instanceof ByteBuf first && first.readerIndex() != 0) {
            msg = fromIndexZero(ctx, first);
        }
        if (checked < V2_SIGNATURE.length && msg instanceof ByteBuf in && !signatureSoFar(in)) {
            in.release();
            fail(ctx, "not a PROXY protocol header (the connection does not start with \"PROXY \" or the v2 "
                    + "signature)");
            return;
        }
        super.channelRead(ctx, msg);
    }

    /**
     * The connection's first bytes in a buffer whose reader index is 0: Netty's v2 header decoder (4.2.18) takes the
     * header's length for the index where it ends, which holds only there. A TCP source's reads come with free room
     * in front ({@code HeadroomRecvAllocator}); this copies the first read once per connection, and the reads that
     * complete a split header are merged behind it.
     */
    private static ByteBuf fromIndexZero(ChannelHandlerContext ctx, ByteBuf first) {
        try {
            return ctx.alloc().buffer(first.readableBytes()).writeBytes(first);
        } finally {
            first.release();
        }
    }

    /** Checks the bytes of {@code in} that come at signature positions; false when neither signature matches. */
    private boolean signatureSoFar(ByteBuf in) {
        int start = in.readerIndex();
        int n = Math.min(in.readableBytes(), V2_SIGNATURE.length - checked);
        for (int i = 0; i < n; i++) {
            int at = checked + i;
            byte b = in.getByte(start + i);
            maybeV1 &= at >= V1_SIGNATURE.length || b == V1_SIGNATURE[at];
            maybeV2 &= b == V2_SIGNATURE[at];
        }
        checked += n;
        return maybeV1 || maybeV2;
    }

    /** A broken or over-long header (the decoder closed the connection already). */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof HAProxyProtocolException) {
            if (!failed) {
                fail(ctx, "bad PROXY protocol header: " + cause.getMessage());
            }
            return;
        }
        ctx.fireExceptionCaught(cause);
    }

    /** Reached only before the header was complete: once it is, this decoder is gone from the pipeline. */
    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (!failed && checked > 0) {
            fail(ctx, "closed before the PROXY protocol header was complete");
        }
        super.channelInactive(ctx);
    }

    private void fail(ChannelHandlerContext ctx, String reason) {
        failed = true;
        protocol.failed(ctx.channel(), reason);
    }
}
