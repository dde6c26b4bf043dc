package dev.logrouter.netty.tcp;

import io.netty.buffer.ByteBuf;

/**
 * The frames a decoder found in its input and not yet handed on: positions only (offset, length, and
 * where the next frame starts), reused across reads, so decoding allocates nothing per frame.
 *
 * <p>Threads: one instance per decoder, on the channel's event loop.
 */
final class FrameBatch {

    /** Frames handed on at once: one ring claim each. */
    static final int CAPACITY = 256;

    final int[] offsets = new int[CAPACITY];
    final int[] lengths = new int[CAPACITY];
    /** Index just past frame i and anything skipped after it (delimiter, empty lines). */
    final int[] ends = new int[CAPACITY];
    int count;

    boolean isFull() {
        return count == CAPACITY;
    }

    void add(int offset, int length, int end) {
        offsets[count] = offset;
        lengths[count] = length;
        ends[count] = end;
        count++;
    }

    /** Bytes up to {@code end} were skipped (an empty line): they belong to the last frame, if any. */
    boolean skipTo(int end) {
        if (count == 0) {
            return false;
        }
        ends[count - 1] = end;
        return true;
    }

    /**
     * Hands the frames to the consumer and consumes what it took from {@code in}. Returns true when all
     * were taken.
     */
    boolean handOff(ByteBuf in, FrameConsumer consumer) {
        if (count == 0) {
            return true;
        }
        int taken = consumer.accept(in, offsets, lengths, count);
        if (taken > 0) {
            in.readerIndex(ends[taken - 1]);
        }
        boolean all = taken == count;
        count = 0;
        return all;
    }

    /** Closing: whatever was not taken is copied by the consumer, and consumed. */
    void handOffOrKeep(ByteBuf in, FrameConsumer consumer) {
        if (count == 0) {
            return;
        }
        int taken = consumer.accept(in, offsets, lengths, count);
        if (taken < count) {
            consumer.keep(in, offsets, lengths, taken, count);
        }
        in.readerIndex(ends[count - 1]);
        count = 0;
    }
}
