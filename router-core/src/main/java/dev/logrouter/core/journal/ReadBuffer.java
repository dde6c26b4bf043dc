package dev.logrouter.core.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A window of one file's bytes, read ahead in large positional reads, never past a limit the caller gives (the
 * committed end of a segment): bytes the writer may still be writing are never cached. Grows for a frame larger
 * than it, and shrinks back once frames are small again.
 *
 * <p>Threads: one thread (the reader's, or {@link Journal#open}'s).
 */
final class ReadBuffer {

    static final int DEFAULT_SIZE = 256 * 1024;

    private byte[] buf;
    private ByteBuffer bb;
    /** File offset of {@code buf[0]}. */
    private long start;
    private int length;

    ReadBuffer() {
        allocate(DEFAULT_SIZE);
    }

    byte[] array() {
        return buf;
    }

    /**
     * Makes the file's bytes {@code [pos, pos + n)} available and returns their offset in {@link #array()}, reading
     * ahead as far as {@code limit}; -1 when the file ends before {@code pos + n}. {@code pos + n <= limit}.
     */
    int fill(FileChannel ch, long pos, int n, long limit) throws IOException {
        if (pos >= start && pos + n <= start + length) {
            return (int) (pos - start);
        }
        if (n > buf.length) {
            allocate((int) Math.min(Math.max(n, 2L * buf.length), Integer.MAX_VALUE - 16));
        } else if (buf.length > 4 * DEFAULT_SIZE && n <= DEFAULT_SIZE) {
            allocate(DEFAULT_SIZE);
        }
        length = 0;
        start = pos;
        bb.clear().limit((int) Math.min(buf.length, limit - pos));
        while (bb.hasRemaining()) {
            if (ch.read(bb, pos + bb.position()) < 0) {
                break;
            }
        }
        length = bb.position();
        return length >= n ? 0 : -1;
    }

    /** Forgets the cached bytes (another file, or a file that changed). */
    void invalidate() {
        length = 0;
    }

    private void allocate(int size) {
        buf = new byte[size];
        bb = ByteBuffer.wrap(buf);
        length = 0;
    }
}
