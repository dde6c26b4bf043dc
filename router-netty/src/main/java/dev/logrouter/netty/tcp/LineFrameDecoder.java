package dev.logrouter.netty.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.ByteProcessor;

import java.util.List;

/**
 * Non-transparent framing (RFC 6587 §3.4.2): a frame ends at LF; one CR before the LF is dropped;
 * empty lines are skipped (counted). A line longer than {@code maxFrameLength} is not discarded: its
 * first {@code maxFrameLength} bytes become one frame and the rest continues as the next one, as
 * syslog-ng does (counted as truncated). The last line is delivered when the peer closes even without
 * a final LF.
 *
 * <p>With {@code nulEnds} (a unix-stream source) a NUL byte ends a frame too, as in syslog-ng's text protocol: glibc's
 * syslog(3) ends each message it writes to a stream socket with one NUL and no LF.
 *
 * <p>Frames are not emitted as {@code ByteBuf}s: their positions go to a {@link FrameConsumer} in
 * batches, which copies them into the ring. What the consumer has no room for stays in the
 * decoder's cumulation buffer until it asks again, so nothing is allocated per frame.
 *
 * <p>Threads: one instance per channel, on its event loop. Not sharable.
 */
public final class LineFrameDecoder extends FrameDecoder {

    /** Finds the end of a frame when NUL ends one too. */
    private static final ByteProcessor NOT_LF_OR_NUL = b -> b != '\n' && b != 0;

    /** A NUL byte ends a frame as LF does. */
    private final boolean nulEnds;
    /** How many bytes from the start of the unfinished line are known to contain no LF (nor NUL, with nulEnds). */
    private int scanned;

    public LineFrameDecoder(int maxFrameLength, FramingCounters counters, FrameConsumer consumer) {
        this(maxFrameLength, counters, consumer, false);
    }

    /** @param nulEnds a NUL byte ends a frame as LF does (unix-stream) */
    public LineFrameDecoder(int maxFrameLength, FramingCounters counters, FrameConsumer consumer, boolean nulEnds) {
        super(maxFrameLength, counters, consumer);
        this.nulEnds = nulEnds;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        decodeFrames(in, false);
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        decodeFrames(in, true);
        if (in.isReadable()) {
            int start = in.readerIndex();
            int end = in.writerIndex();
            int len = end - start;
            if (in.getByte(end - 1) == '\r') {
                len--;
            }
            if (len == 0) {
                batch.skipEmpty(in, end);
            }
            while (len > 0) {
                int part = Math.min(len, maxFrameLength);
                boolean last = part == len;
                batch.add(start, part, last ? end : start + part, !last);
                start += part;
                len -= part;
            }
            batch.handOffOrKeep(in, consumer);
            in.skipBytes(in.readableBytes());
            scanned = 0;
        }
    }

    private void decodeFrames(ByteBuf in, boolean closing) {
        int pos = in.readerIndex();
        int end = in.writerIndex();
        while (pos < end) {
            int readable = end - pos;
            // a line of max bytes may be followed by CR LF: look that far before calling it over-long
            int window = Math.min(readable, maxFrameLength + 2);
            int lf = nulEnds ? in.forEachByte(pos + scanned, window - scanned, NOT_LF_OR_NUL)
                    : in.indexOf(pos + scanned, pos + window, (byte) '\n');
            if (lf >= 0) {
                int len = lf - pos;
                if (len > 0 && in.getByte(lf - 1) == '\r') {
                    len--;
                }
                if (len > maxFrameLength) {
                    pos = split(pos);
                } else if (len == 0) {
                    batch.skipEmpty(in, lf + 1);
                    pos = lf + 1;
                } else {
                    batch.add(pos, len, lf + 1, false);
                    pos = lf + 1;
                }
                scanned = 0;
            } else if (readable >= maxFrameLength + 2) {
                pos = split(pos);
                scanned = 0;
            } else {
                scanned = window;
                break;
            }
            if (batch.isFull() && !handOff(in, closing)) {
                scanned = 0; // decoding restarts at the first frame not taken
                return;
            }
        }
        if (!handOff(in, closing)) {
            scanned = 0;
        }
    }

    /** An over-long line: its first max bytes are one frame, the rest continues as the next. */
    private int split(int pos) {
        batch.add(pos, maxFrameLength, pos + maxFrameLength, true);
        return pos + maxFrameLength;
    }
}
