package dev.logrouter.netty.relp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/**
 * Cuts RELP frames out of a byte stream (librelp's grammar, {@code relpframe.c}):
 * {@code TXNR SP COMMAND SP DATALEN [SP DATA] LF}, where TXNR is 1 to 9 digits, COMMAND 1 to 32 ASCII letters,
 * DATALEN 1 to 9 digits and DATA exactly DATALEN bytes; with DATALEN 0 the SP before the trailer may be there or
 * not. Each whole frame goes to the {@link Listener} with its data still in the cumulation buffer (no copy); the
 * first violation (a non-digit in TXNR or DATALEN, a field too long, DATALEN over the limit, a missing trailer) is
 * reported once with its reason and everything after it is discarded: a RELP stream has no way to find the next
 * frame after a broken one.
 *
 * <p>Threads: the channel's event loop.
 */
public final class RelpFrameDecoder extends ByteToMessageDecoder {

    /** Most digits of TXNR and DATALEN (librelp: 999,999,999). */
    static final int MAX_DIGITS = 9;
    /** Longest command name (librelp's limit). */
    static final int MAX_COMMAND = 32;
    private static final int NEED_MORE = -1;

    /** What the decoder hands frames and errors to. */
    public interface Listener {
        /**
         * A whole frame: {@code command} is the name's bytes in {@code buf} at {@code [cmdOff, cmdOff + cmdLen)},
         * the data at {@code [dataOff, dataOff + dataLen)}; both are valid only during the call.
         */
        void frame(int txnr, ByteBuf buf, int cmdOff, int cmdLen, int dataOff, int dataLen);

        /** The stream broke the grammar: nothing after this is delivered. */
        void malformed(String reason);
    }

    private final int maxDataLength;
    private final Listener listener;
    private boolean broken;

    /** @param maxDataLength the longest DATA accepted (the source's {@code max-message-size} plus room for offers) */
    public RelpFrameDecoder(int maxDataLength, Listener listener) {
        this.maxDataLength = maxDataLength;
        this.listener = listener;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        decode(in);
    }

    /**
     * Ends a read without {@link ByteToMessageDecoder}'s own: it asks for another read whenever a read produced no
     * message and {@code autoRead} is off, which is always the case here (frames go to the listener, not down the
     * pipeline) and would undo every pause of the session's flow control.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        discardSomeReadBytes();
        ctx.fireChannelReadComplete();
    }

    /** Delivers every whole frame {@code in} holds and leaves a partial one in it. */
    void decode(ByteBuf in) {
        while (!broken && in.isReadable()) {
            if (parse(in) == NEED_MORE) {
                return;
            }
        }
        if (broken) {
            in.skipBytes(in.readableBytes());
        }
    }

    /** True once a violation was reported. */
    public boolean broken() {
        return broken;
    }

    private int parse(ByteBuf in) {
        int start = in.readerIndex();
        int end = in.writerIndex();
        int p = start;
        // TXNR
        long txnr = 0;
        int digits = 0;
        for (; p < end; p++) {
            byte b = in.getByte(p);
            if (b == ' ') {
                break;
            }
            if (b < '0' || b > '9' || digits == MAX_DIGITS) {
                return fail(digits == MAX_DIGITS && b >= '0' && b <= '9' ? "txnr longer than 9 digits"
                        : "txnr is not a number (byte " + (b & 0xff) + ")");
            }
            txnr = txnr * 10 + (b - '0');
            digits++;
        }
        if (p == end) {
            return NEED_MORE;
        }
        if (digits == 0) {
            return fail("frame starts with a space, no txnr");
        }
        p++;
        // COMMAND
        int cmdOff = p;
        for (; p < end; p++) {
            byte b = in.getByte(p);
            if (b == ' ') {
                break;
            }
            if (!(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z') || p - cmdOff == MAX_COMMAND) {
                return fail(p - cmdOff == MAX_COMMAND ? "command longer than 32 letters"
                        : "command has a byte that is not a letter (" + (b & 0xff) + ")");
            }
        }
        if (p == end) {
            return NEED_MORE;
        }
        int cmdLen = p - cmdOff;
        if (cmdLen == 0) {
            return fail("no command");
        }
        p++;
        // DATALEN
        long len = 0;
        digits = 0;
        byte after = 0;
        for (; p < end; p++) {
            byte b = in.getByte(p);
            if (b == ' ' || b == '\n') {
                after = b;
                break;
            }
            if (b < '0' || b > '9' || digits == MAX_DIGITS) {
                return fail(digits == MAX_DIGITS && b >= '0' && b <= '9' ? "datalen longer than 9 digits"
                        : "datalen is not a number (byte " + (b & 0xff) + ")");
            }
            len = len * 10 + (b - '0');
            digits++;
        }
        if (p == end) {
            return NEED_MORE;
        }
        if (digits == 0) {
            return fail("no datalen");
        }
        if (len > maxDataLength) {
            return fail("frame of " + len + " data bytes, more than the " + maxDataLength + " allowed");
        }
        int dataOff;
        if (after == '\n') {
            if (len != 0) {
                return fail("datalen " + len + " but no data");
            }
            deliver(in, (int) txnr, cmdOff, cmdLen, p, 0, p + 1);
            return 0;
        }
        dataOff = p + 1; // after the SP
        long trailer = dataOff + len;
        if (trailer >= end) {
            return NEED_MORE;
        }
        if (in.getByte((int) trailer) != '\n') {
            return fail("no LF after " + len + " data bytes (byte " + (in.getByte((int) trailer) & 0xff) + ")");
        }
        deliver(in, (int) txnr, cmdOff, cmdLen, dataOff, (int) len, (int) trailer + 1);
        return 0;
    }

    private void deliver(ByteBuf in, int txnr, int cmdOff, int cmdLen, int dataOff, int dataLen, int next) {
        listener.frame(txnr, in, cmdOff, cmdLen, dataOff, dataLen);
        in.readerIndex(next);
    }

    private int fail(String reason) {
        broken = true;
        listener.malformed(reason);
        return 0;
    }
}
