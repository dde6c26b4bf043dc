package dev.logrouter.netty.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/**
 * Non-transparent framing (RFC 6587 §3.4.2): a frame ends at LF; one CR before the LF is dropped;
 * empty lines are skipped. A line longer than {@code maxFrameLength} is not discarded: its first
 * {@code maxFrameLength} bytes become one frame and the rest continues as the next one, as syslog-ng
 * does (counted as truncated). The last line is delivered when the peer closes even without a final LF.
 * Emits retained slices of the input; the next handler releases them.
 *
 * <p>Threads: one instance per channel, on its event loop. Not sharable.
 */
public final class LineFrameDecoder extends ByteToMessageDecoder {

    private final int maxFrameLength;
    private final FramingCounters counters;
    /** How many bytes from readerIndex are known to contain no LF. */
    private int scanned;

    public LineFrameDecoder(int maxFrameLength, FramingCounters counters) {
        this.maxFrameLength = maxFrameLength;
        this.counters = counters;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.isReadable()) {
            int start = in.readerIndex();
            int readable = in.readableBytes();
            // a line of max bytes may be followed by CR LF: look that far before calling it over-long
            int window = Math.min(readable, maxFrameLength + 2);
            int lf = in.indexOf(start + scanned, start + window, (byte) '\n');
            if (lf >= 0) {
                int len = lf - start;
                if (len > 0 && in.getByte(lf - 1) == '\r') {
                    len--;
                }
                if (len > maxFrameLength) {
                    split(in, start, out);
                } else {
                    emit(in, start, len, out);
                    in.readerIndex(lf + 1);
                }
                scanned = 0;
            } else if (readable >= maxFrameLength + 2) {
                split(in, start, out);
                scanned = 0;
            } else {
                scanned = window;
                return;
            }
        }
    }

    /** An over-long line: its first max bytes are one frame, the rest continues as the next. */
    private void split(ByteBuf in, int start, List<Object> out) {
        counters.truncated.inc();
        out.add(in.retainedSlice(start, maxFrameLength));
        in.readerIndex(start + maxFrameLength);
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        decode(ctx, in, out);
        if (in.isReadable()) {
            int start = in.readerIndex();
            int len = in.readableBytes();
            if (in.getByte(start + len - 1) == '\r') {
                len--;
            }
            emit(in, start, len, out);
            in.skipBytes(in.readableBytes());
            scanned = 0;
        }
    }

    private void emit(ByteBuf in, int start, int len, List<Object> out) {
        if (len == 0) {
            counters.empty.inc();
        } else {
            out.add(in.retainedSlice(start, len));
        }
    }
}
