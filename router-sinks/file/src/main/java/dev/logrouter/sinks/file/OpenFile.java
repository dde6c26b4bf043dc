package dev.logrouter.sinks.file;

import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.PathKey;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * One file the sink has open, with the lines appended to it since the last flush.
 *
 * <p>Threads: owned by the thread that runs the sink's {@link FileDelivery}.
 */
final class OpenFile {

    /** Its rendered path, its key in the delivery's {@code OpenFiles}. */
    final PathKey key;
    final Path path;
    final FileChannel channel;
    final ByteBuilder buffer = new ByteBuilder(64 * 1024);
    /** Bytes of the buffer already written by an earlier, failed attempt: never written twice. */
    private int writtenUpTo;
    boolean dirty;
    boolean unsynced;
    long lastWriteNanos;

    OpenFile(PathKey key, Path path, FileChannel channel) {
        this.key = key;
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

    /**
     * Gives the buffered lines up: what an earlier attempt did not write goes to {@code deadLetters} as one item
     * (target: this file), and the buffer is emptied.
     */
    void deadLetter(DeadLetterFile deadLetters, String reason) {
        if (buffer.length() > writtenUpTo) {
            deadLetters.write(path.toString(), reason, null, buffer.array(), writtenUpTo, buffer.length() - writtenUpTo);
        }
        writtenUpTo = 0;
        buffer.reset();
        dirty = false;
    }

    /** Drops the buffered lines without writing them (a close with lines still pending). */
    void discard() {
        writtenUpTo = 0;
        buffer.reset();
        dirty = false;
    }
}
