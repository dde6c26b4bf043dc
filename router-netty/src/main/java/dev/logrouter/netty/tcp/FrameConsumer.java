package dev.logrouter.netty.tcp;

import io.netty.buffer.ByteBuf;

/**
 * Where a frame decoder hands the frames it found, without allocating a {@code ByteBuf} per frame:
 * frame {@code i} is bytes {@code [offsets[i], offsets[i] + lengths[i])} of {@code buf} (absolute
 * indexes, every length &gt; 0). The consumer copies what it takes; it must not keep {@code buf} past the call
 * without retaining it.
 *
 * <p>Threads: the channel's event loop.
 */
public interface FrameConsumer {

    /**
     * Takes frames in order, as many as it has room for; returns how many it took. Fewer than
     * {@code count} means "no room now": the decoder stops and keeps the rest of its input, and the
     * consumer later asks for it again ({@link TcpPublishHandler} re-fires a read).
     */
    int accept(ByteBuf buf, int[] offsets, int[] lengths, int count);

    /**
     * The connection is closing and these frames (from {@code from} to {@code count - 1}) were not taken:
     * the consumer must keep copies or retain a slice, because the decoder is about to release the input buffer.
     */
    void keep(ByteBuf buf, int[] offsets, int[] lengths, int from, int count);
}
