package dev.logrouter.netty.tcp;

import io.netty.buffer.ByteBuf;

/**
 * The frames a decoder found in its input and not yet handed on: positions only (offset, length, and
 * where the next frame starts), reused across reads, so decoding allocates nothing per frame. Empty
 * lines and over-long splits are recorded with the frame they belong to and counted only when that
 * frame is handed on: a frame not taken is found again later and must not be counted twice.
 *
 * <p>Threads: one instance per decoder, on the channel's event loop.
 */
final class FrameBatch {

    /** Frames handed on at once: one ring claim each. */
    static final int CAPACITY = 256;

    private final FramingCounters counters;
    final int[] offsets = new int[CAPACITY];
    final int[] lengths = new int[CAPACITY];
    /** Index just past frame i and anything skipped after it (delimiter, empty lines). */
    private final int[] ends = new int[CAPACITY];
    /** Empty lines or zero-length frames skipped right after frame i. */
    private final int[] emptiesAfter = new int[CAPACITY];
    /** Frame i is the first part of an over-long line. */
    private final boolean[] truncated = new boolean[CAPACITY];
    int count;

    FrameBatch(FramingCounters counters) {
        this.counters = counters;
    }

    boolean isFull() {
        return count == CAPACITY;
    }

    void add(int offset, int length, int end, boolean split) {
        offsets[count] = offset;
        lengths[count] = length;
        ends[count] = end;
        emptiesAfter[count] = 0;
        truncated[count] = split;
        count++;
    }

    /**
     * An empty frame ending at {@code end} was skipped. With frames pending it belongs to the last one;
     * otherwise it is consumed and counted at once.
     */
    void skipEmpty(ByteBuf in, int end) {
        if (count == 0) {
            counters.empty.inc();
            in.readerIndex(end);
        } else {
            ends[count - 1] = end;
            emptiesAfter[count - 1]++;
        }
    }

    /**
     * Hands the frames to the consumer and consumes (and counts) what it took from {@code in}. Returns
     * true when all were taken.
     */
    boolean handOff(ByteBuf in, FrameConsumer consumer) {
        if (count == 0) {
            return true;
        }
        int taken = consumer.accept(in, offsets, lengths, count);
        consumed(in, taken);
        boolean all = taken == count;
        count = 0;
        return all;
    }

    /** Closing: whatever was not taken is kept by the consumer, and consumed. */
    void handOffOrKeep(ByteBuf in, FrameConsumer consumer) {
        if (count == 0) {
            return;
        }
        int taken = consumer.accept(in, offsets, lengths, count);
        if (taken < count) {
            consumer.keep(in, offsets, lengths, taken, count);
        }
        consumed(in, count);
        count = 0;
    }

    private void consumed(ByteBuf in, int n) {
        if (n == 0) {
            return;
        }
        int empties = 0;
        int splits = 0;
        for (int i = 0; i < n; i++) {
            empties += emptiesAfter[i];
            splits += truncated[i] ? 1 : 0;
        }
        if (empties > 0) {
            counters.empty.add(empties);
        }
        if (splits > 0) {
            counters.truncated.add(splits);
        }
        in.readerIndex(ends[n - 1]);
    }
}
