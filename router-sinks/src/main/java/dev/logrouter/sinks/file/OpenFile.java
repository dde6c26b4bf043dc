package dev.logrouter.sinks.file;

import dev.logrouter.core.template.ByteBuilder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * One file the sink has open, with the lines appended to it since the last flush.
 *
 * <p>Threads: owned by the sink thread.
 */
final class OpenFile {

    final Path path;
    final FileChannel channel;
    final ByteBuilder buffer = new ByteBuilder(64 * 1024);
    /** Bytes of the buffer already written by an earlier, failed attempt: never written twice. */
    private int writtenUpTo;
    boolean dirty;
    boolean unsynced;
    long lastWriteNanos;

    OpenFile(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    /**
     * Writes the buffered lines; returns bytes written. When a write fails part way, the bytes already
     * written are remembered, so that the retry continues after them instead of duplicating them.
     */
    long writeOut() throws IOException {
        int n = buffer.length();
        ByteBuffer bb = ByteBuffer.wrap(buffer.array(), writtenUpTo, n - writtenUpTo);
        try {
            while (bb.hasRemaining()) {
                channel.write(bb);
            }
        } finally {
            writtenUpTo = bb.position();
        }
        writtenUpTo = 0;
        buffer.reset();
        dirty = false;
        unsynced = true;
        return n;
    }
}
