package dev.logrouter.netty.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

import java.util.List;

/**
 * Octet-counting framing (RFC 6587 §3.4.1, RFC 5425): {@code MSG-LEN SP SYSLOG-MSG}. The length must be
 * 1–10 decimal digits followed by one space, and at most {@code maxFrameLength}; anything else is a
 * framing error: the frames before it are delivered, then it is counted as malformed, the connection
 * is closed and the rest of its input discarded (as syslog-ng does: {@code Invalid frame header}). A
 * frame cut short by the peer closing is discarded and counted; zero-length frames are skipped and
 * counted.
 *
 * <p>Frames go to a {@link FrameConsumer} as positions, in batches; what it has no room for stays in
 * the cumulation buffer. Nothing is allocated per frame.
 *
 * <p>Threads: one instance per channel, on its event loop. Not sharable.
 */
public final class OctetCountingFrameDecoder extends FrameDecoder {

    private static final int MAX_DIGITS = 10;

    private boolean failed;

    public OctetCountingFrameDecoder(int maxFrameLength, FramingCounters counters, FrameConsumer consumer) {
        super(maxFrameLength, counters, consumer);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        decodeFrames(ctx, in, false);
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        decodeFrames(ctx, in, true);
        if (in.isReadable()) {
            counters.partial.inc();
            in.skipBytes(in.readableBytes());
        }
    }

    private void decodeFrames(ChannelHandlerContext ctx, ByteBuf in, boolean closing) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        int pos = in.readerIndex();
        int end = in.writerIndex();
        while (pos < end) {
            long len = 0;
            int i = pos;
            while (i < end && i - pos <= MAX_DIGITS) {
                byte b = in.getByte(i);
                if (b < '0' || b > '9') {
                    break;
                }
                len = len * 10 + (b - '0');
                i++;
            }
            int digits = i - pos;
            if (i == end && digits <= MAX_DIGITS) {
                break; // header not complete yet
            }
            if (digits == 0 || digits > MAX_DIGITS || in.getByte(i) != ' ' || len > maxFrameLength) {
                batch.handOffOrKeep(in, consumer); // the frames before the bad header are delivered
                fail(ctx, in);
                return;
            }
            int bodyStart = i + 1;
            if (end - bodyStart < len) {
                break; // body not complete yet
            }
            if (len == 0) {
                batch.skipEmpty(in, bodyStart);
                pos = bodyStart;
                continue;
            }
            batch.add(bodyStart, (int) len, bodyStart + (int) len, false);
            pos = bodyStart + (int) len;
            if (batch.isFull() && !handOff(in, closing)) {
                return;
            }
        }
        handOff(in, closing);
    }

    private void fail(ChannelHandlerContext ctx, ByteBuf in) {
        failed = true;
        counters.malformed.inc();
        in.skipBytes(in.readableBytes());
        ctx.close();
    }
}
