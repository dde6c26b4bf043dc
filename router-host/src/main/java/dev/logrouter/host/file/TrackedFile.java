package dev.logrouter.host.file;

import dev.logrouter.core.source.SequencePositions;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * What a file source knows about one file it reads: its identity (device, inode, fingerprint of the first bytes),
 * the path it was last seen under, the open channel (null while closed to respect {@code max-open-files}), how far
 * it was read and how far its lines are durable, the line or multi-line message it has begun, and the ring
 * sequences still to complete with the offsets they complete.
 *
 * <p>Threads: the file source's reader thread only.
 */
final class TrackedFile {

    /** Device and inode, from the file key of the JDK's stat. */
    record Key(long dev, long ino) {
        static Key of(Object fileKey) {
            // UnixFileKey prints "(dev=<hex>,ino=<decimal>)"
            String s = String.valueOf(fileKey);
            int d = s.indexOf("dev=");
            int i = s.indexOf(",ino=");
            if (d < 0 || i < 0) {
                throw new IllegalStateException("no device and inode in the file key " + s);
            }
            return new Key(Long.parseUnsignedLong(s.substring(d + 4, i), 16),
                    Long.parseLong(s.substring(i + 5, s.indexOf(')', i))));
        }
    }

    Key key;
    Path path;
    byte[] pathBytes;
    byte[] program;
    FileChannel channel;

    /** The first bytes of the content (up to {@link Fingerprint#MAX}): a new file that begins alike may be a copy. */
    byte[] head = new byte[0];
    /** Indexed under this key in the source's head index (CRC-32C of the first {@code HEAD_KEY} bytes); -1 if not. */
    long headKey = -1;
    /** Found while running and not read yet: it may be a copy in progress (copytruncate) of a known file. */
    boolean settling;
    /** Opening it failed (said once); it is tried again when a scan finds it grown. */
    boolean openFailed;
    long sizeChangedNanos;
    /** Fingerprint: CRC-32C of the first {@code fpLength} bytes (0 = none yet, an empty file). */
    int fpLength;
    long fp;

    /** Next byte to read. */
    long readOffset;
    /** Offset after the last line whose ring sequence completed (what the checkpoint holds). */
    long committedOffset;
    /** Size seen at the last stat; {@code atEof} when the last read found nothing more. */
    long size;
    long lastModified;
    boolean atEof;
    long lastReadNanos;
    long lastGrowthNanos;

    /** Not matched by the globs at the last scan (renamed away or deleted), since when; 0 when seen. */
    long goneSinceNanos;
    /** A file that had this path before (rotated by rename): this one is read only once that one reached its end. */
    TrackedFile after;
    /** A copy of another tracked file with the same fingerprint, waiting to see whether that one is truncated. */
    TrackedFile copyOf;
    long heldSinceNanos;

    /** The current line, begun in an earlier read (no newline yet), and where it starts in the file. */
    final ByteArray partial = new ByteArray();
    /** Inside a line longer than max-line-size: skip to its newline. */
    boolean skipping;
    /** A multi-line message in progress, the offset after its last line. */
    final ByteArray pending = new ByteArray();
    long pendingEnd;
    boolean hasPending;

    /** Ring sequences published from this file and the offset each completes, oldest first. */
    final SequencePositions inFlight = new SequencePositions();

    TrackedFile(Key key, Path path, byte[] program) {
        this.key = key;
        setPath(path);
        this.program = program;
    }

    void setPath(Path p) {
        this.path = p;
        this.pathBytes = p.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    boolean isOpen() {
        return channel != null;
    }

    boolean isGone() {
        return goneSinceNanos != 0;
    }

    /** No read possible until the file that had the path before reached its end. */
    boolean waiting() {
        if (after != null) {
            if (after.channel == null || after.atEof) {
                after = null;
            } else {
                return true;
            }
        }
        return settling || copyOf != null;
    }

    /** Whether there may be something to read. */
    boolean readable() {
        return !atEof || readOffset < size;
    }

    void close() {
        FileChannel ch = channel;
        channel = null;
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // a read-only channel: nothing was buffered
            }
        }
    }

    /** Forgets the line state (after a truncation: the bytes it began with are gone from this file). */
    void resetLines() {
        partial.clear();
        pending.clear();
        hasPending = false;
        skipping = false;
    }

    /** Pops the sequences {@code <= completed} and advances {@link #committedOffset}; true when it moved. */
    boolean advance(long completed) {
        if (inFlight.popDone(completed) == 0 || inFlight.lastDonePosition() == committedOffset) {
            return false;
        }
        committedOffset = inFlight.lastDonePosition();
        return true;
    }

    @Override
    public String toString() {
        return path + " " + key + " read " + readOffset + " committed " + committedOffset;
    }

    /** A growable byte array. */
    static final class ByteArray {
        byte[] bytes = new byte[0];
        int length;

        /** Empties it; a buffer grown past 1 MiB (a huge line) is let go rather than kept for the file's life. */
        void clear() {
            length = 0;
            if (bytes.length > 1 << 20) {
                bytes = new byte[0];
            }
        }

        void append(byte[] src, int off, int len) {
            ensure(length + len);
            System.arraycopy(src, off, bytes, length, len);
            length += len;
        }

        void append(byte b) {
            ensure(length + 1);
            bytes[length++] = b;
        }

        private void ensure(int n) {
            if (bytes.length < n) {
                bytes = java.util.Arrays.copyOf(bytes, Math.max(n, Math.max(256, bytes.length * 2)));
            }
        }
    }
}
