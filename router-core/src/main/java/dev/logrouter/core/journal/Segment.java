package dev.logrouter.core.journal;

import java.nio.file.Path;

/**
 * One segment file, as the journal knows it: its first sequence (its name), where its frames start in the
 * journal's logical byte stream, how many frame bytes are committed, and the segment after it. Every segment but
 * the last (the active one) is sealed: it has a footer, a known last sequence, and a {@link #next}.
 *
 * <p>Threads: the writer sets {@link #dataBytes} after each write and, when it seals the segment, {@link #lastSeq}
 * and then {@link #next}; the reader reads them in the opposite order (volatile: the reader never reads past what
 * the writer published).
 */
final class Segment {

    final long firstSeq;
    final Path path;
    /** Offset of its first frame in the journal's logical stream (frame bytes of all segments before it). */
    final long baseLogical;
    /** Frame bytes committed (the footer, if any, starts here). */
    volatile long dataBytes;
    /** The last sequence it holds; meaningful once sealed. */
    volatile long lastSeq = -1;
    /** The segment after it; non-null once sealed. */
    volatile Segment next;

    Segment(long firstSeq, Path path, long baseLogical, long dataBytes) {
        this.firstSeq = firstSeq;
        this.path = path;
        this.baseLogical = baseLogical;
        this.dataBytes = dataBytes;
    }

    /** Bytes of the file: frames, and the footer once sealed. */
    long fileBytes() {
        return dataBytes + (next != null ? JournalFormat.FOOTER : 0);
    }

    @Override
    public String toString() {
        return path.getFileName().toString();
    }
}
