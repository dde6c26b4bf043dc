package dev.logrouter.netty.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/**
 * Octet-counting framing (RFC 6587 §3.4.1, RFC 5425): {@code MSG-LEN SP SYSLOG-MSG}. The length must be
 * 1–10 decimal digits followed by one space, and at most {@code maxFrameLength}; anything else is a
 * framing error: counted as malformed, the connection is closed and the rest of its input discarded
 * (as syslog-ng does: {@code Invalid frame header}). A frame cut short by the peer closing is discarded
 * and counted. Emits retained slices of the input; the next handler releases them.
 *
 * <p>Threads: one instance per channel, on its event loop. Not sharable.
 */
public final class OctetCountingFrameDecoder extends ByteToMessageDecoder {

    private static final int MAX_DIGITS = 10;

    private final int maxFrameLength;
    private final FramingCounters counters;
    private boolean failed;

    public OctetCountingFrameDecoder(int maxFrameLength, FramingCounters counters) {
        this.maxFrameLength = maxFrameLength;
        this.counters = counters;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (!failed && in.isReadable()) {
            int start = in.readerIndex();
            int end = in.writerIndex();
            long len = 0;
            int i = start;
            while (i < end && i - start <= MAX_DIGITS) {
                byte b = in.getByte(i);
                if (b < '0' || b > '9') {
                    break;
                }
                len = len * 10 + (b - '0');
                i++;
            }
            int digits = i - start;
            if (i == end && digits <= MAX_DIGITS) {
                return; // header not complete yet
            }
            if (digits == 0 || digits > MAX_DIGITS || in.getByte(i) != ' ') {
                fail(ctx, in);
                return;
            }
            if (len > maxFrameLength) {
                fail(ctx, in);
                return;
            }
            int bodyStart = i + 1;
            if (end - bodyStart < len) {
                return; // body not complete yet
            }
            if (len == 0) {
                counters.empty.inc();
            } else {
                out.add(in.retainedSlice(bodyStart, (int) len));
            }
            in.readerIndex(bodyStart + (int) len);
        }
        if (failed) {
            in.skipBytes(in.readableBytes());
        }
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        decode(ctx, in, out);
        if (in.isReadable()) {
            counters.partial.inc();
            in.skipBytes(in.readableBytes());
        }
    }

    private void fail(ChannelHandlerContext ctx, ByteBuf in) {
        failed = true;
        counters.malformed.inc();
        in.skipBytes(in.readableBytes());
        ctx.close();
    }
}
