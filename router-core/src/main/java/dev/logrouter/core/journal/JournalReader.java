package dev.logrouter.core.journal;

import static dev.logrouter.core.journal.JournalFormat.FRAME_HEADER;
import static dev.logrouter.core.journal.JournalFormat.LEN_CRC;
import static dev.logrouter.core.journal.JournalFormat.RECORD_HEADER;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * The reading side of a {@link Journal}, with its cursor (the last acknowledged sequence, in
 * {@code <name>.cursor}). {@link #poll} hands committed records after the read position to a
 * {@link RecordConsumer}, straight from its read buffer (nothing is allocated per record); {@link #acknowledge}
 * writes the cursor (forced as {@link JournalSync} says) and then deletes every whole segment it passed, syncing
 * the directory; {@link #rewind} goes back to the record after the cursor, for a sink that resends what the
 * destination did not acknowledge (after a reconnect).
 *
 * <p>Every frame is checked (CRC, records) before any of its records is handed out. A committed frame that is
 * bad (the disk changed it) is counted ({@link Journal#corruptFrames()}) and the rest of its segment skipped;
 * sequences no frame holds are counted as missing ({@link Journal#missingRecords()}).
 *
 * <p>A failure to write or force the cursor or to sync the directory fails the journal, and acknowledge then
 * throws {@link JournalFailedException}; a failure of the writer does not stop the reader: committed records can
 * still be polled and acknowledged, which frees segments. A read error is thrown as it is, changing nothing: poll
 * may be called again.
 *
 * <p>Threads: one thread (the delivery thread) calls every method; it may be another thread than the writer's.
 */
public final class JournalReader {

    private static final Logger LOG = System.getLogger(JournalReader.class.getName());
    private static final Set<StandardOpenOption> READ = Set.of(StandardOpenOption.READ);
    /** Delivered, unacknowledged frames remembered for {@link Journal#backlogBytes()}; beyond, they merge. */
    private static final int RING = 4096;

    private final Journal journal;
    private final CursorFile cursor;
    private final JournalSync sync;
    private final long intervalNanos;
    private final CRC32C crc = new CRC32C();
    private final ReadBuffer buffer = new ReadBuffer();

    private Segment segment;
    private FileChannel channel;
    /** File offset of the next unread frame in {@link #segment}. */
    private long pos;
    /** Sequence of the next record to deliver. */
    private long nextSeq;
    /** Records left in the current frame, the next one's header at {@link #recOff} in the buffer. */
    private int frameLeft;
    private int recOff;
    private long acked;
    private long maxDelivered;
    /** Logical offset of the last bad frame counted (a rewind reads it again). */
    private long lastCorrupt = -1;
    private boolean cursorFailed;
    private boolean cursorUnsynced;
    private long lastCursorSyncNanos;

    private final long[] ringStart = new long[RING];
    private final long[] ringEndSeq = new long[RING];
    private final long[] ringEnd = new long[RING];
    private int ringHead;
    private int ringSize;

    JournalReader(Journal journal, CursorFile cursor, Segment start, long acked) {
        this.journal = journal;
        this.cursor = cursor;
        this.sync = journal.config.sync();
        this.intervalNanos = journal.config.syncInterval().nanos();
        this.segment = start;
        this.acked = acked;
        this.nextSeq = acked + 1;
        this.maxDelivered = acked;
        this.lastCursorSyncNanos = journal.clock.nanoTime();
    }

    /**
     * Hands the committed records after the read position to {@code consumer}, in order: at most
     * {@code maxRecords}, and no more record bytes than {@code maxBytes} except that the first record is always
     * handed out, however large. The read position advances past each record once {@code consumer} returned (a
     * consumer that throws gets the same record at the next poll).
     *
     * @return the records handed out; 0 when nothing committed is left to read
     * @throws IOException reading a segment failed (nothing changed; poll again)
     */
    public int poll(int maxRecords, long maxBytes, RecordConsumer consumer) throws IOException {
        if (maxRecords < 1) {
            throw new IllegalArgumentException("maxRecords must be >= 1, got " + maxRecords);
        }
        int n = 0;
        long bytes = 0;
        while (n < maxRecords) {
            if (frameLeft == 0 && !loadNextFrame()) {
                break;
            }
            byte[] b = buffer.array();
            int len = JournalFormat.getInt(b, recOff);
            if (n > 0 && bytes + len > maxBytes) {
                break;
            }
            consumer.accept(b, recOff + RECORD_HEADER, len, nextSeq);
            recOff += RECORD_HEADER + len;
            frameLeft--;
            if (nextSeq > maxDelivered) {
                maxDelivered = nextSeq;
            }
            nextSeq++;
            n++;
            bytes += len;
        }
        return n;
    }

    /**
     * Acknowledges every record up to {@code seq}: writes the cursor (forced with {@code batch}; with
     * {@code interval} when the interval passed or a segment is about to be deleted; never with {@code none}),
     * then deletes every sealed segment whose records are all acknowledged and syncs the directory (not with
     * {@code none}). A sequence at or below the cursor is ignored.
     *
     * @param seq a sequence {@link #poll} handed out (since the journal was opened, or before a rewind)
     * @throws IllegalArgumentException {@code seq} was never handed out
     * @throws JournalFailedException   writing or forcing the cursor, or syncing the directory, failed now or before
     */
    public void acknowledge(long seq) throws IOException {
        if (seq <= acked) {
            return;
        }
        if (seq > maxDelivered) {
            throw new IllegalArgumentException("sequence " + seq + " was not handed out (last: " + maxDelivered
                    + ")");
        }
        if (cursorFailed) {
            throw journal.failedException();
        }
        Segment head = journal.head;
        boolean deletes = head.next != null && head.lastSeq <= seq;
        boolean force = sync == JournalSync.batch || sync == JournalSync.interval
                && (deletes || journal.clock.nanoTime() - lastCursorSyncNanos >= intervalNanos);
        try {
            cursor.write(seq, force);
        } catch (IOException e) {
            cursorFailed = true;
            throw journal.fail("writing cursor " + journal.cursorName, e);
        }
        if (force) {
            journal.cursorSyncs.incrementAndGet();
            lastCursorSyncNanos = journal.clock.nanoTime();
        }
        cursorUnsynced = sync == JournalSync.interval && !force;
        acked = seq;
        long t = seq + 1;
        long ackedLogical = journal.ackedLogical;
        while (ringSize > 0 && ringEndSeq[ringHead] <= t) {
            ackedLogical = Math.max(ackedLogical, ringEnd[ringHead]);
            ringHead = (ringHead + 1) % RING;
            ringSize--;
        }
        if (ringSize > 0) {
            ackedLogical = Math.max(ackedLogical, ringStart[ringHead]);
        }
        journal.ackedLogical = ackedLogical;
        journal.ackedSeq = seq;
        if (nextSeq <= seq) {
            skipTo(t);
        }
        if (deletes) {
            deleteAcknowledged();
        }
    }

    /**
     * {@code overflow: drop-oldest}: acknowledges, without delivering them, the records of the oldest segment, so
     * that it is deleted and its room freed; then goes back to the record after the new cursor ({@link #rewind}).
     * Nothing when the oldest segment is the active one (it is never deleted: dropping would free nothing).
     *
     * @return the records dropped (0 when there were none)
     * @throws JournalFailedException writing the cursor or syncing the directory failed
     */
    public long dropOldest() throws IOException {
        Segment head = journal.head;
        if (head.next != null && head.lastSeq <= acked) {
            deleteAcknowledged(); // acknowledged before it was sealed: only its deletion was missing
            return 0;
        }
        if (head.next == null) {
            return 0; // only the active segment: it is never deleted, dropping would free nothing
        }
        long target = head.lastSeq;
        if (target <= acked) {
            return 0;
        }
        long dropped = target - acked;
        maxDelivered = Math.max(maxDelivered, target);
        acknowledge(target);
        rewind();
        return dropped;
    }

    /**
     * Goes back to the record after the cursor: the next poll hands out again what was handed out but not
     * acknowledged.
     */
    public void rewind() {
        ringSize = 0;
        ringHead = 0;
        frameLeft = 0;
        Segment s = journal.head;
        long logical = Math.max(journal.ackedLogical, s.baseLogical);
        while (s.next != null && s.next.baseLogical <= logical) {
            s = s.next;
        }
        if (s != segment) {
            closeChannel();
            segment = s;
            buffer.invalidate();
        }
        pos = logical - s.baseLogical;
        nextSeq = acked + 1;
    }

    /** The sequence the next poll hands out first (when committed). */
    public long nextSequence() {
        return nextSeq;
    }

    /** The last acknowledged sequence (-1: none). */
    public long acknowledgedSeq() {
        return acked;
    }

    /** Committed records after the read position (an upper bound when records are missing). */
    public long available() {
        return Math.max(0, journal.committedSeq - nextSeq + 1);
    }

    /** Loads the next frame holding a record at or after {@link #nextSeq}; false when none is committed yet. */
    private boolean loadNextFrame() throws IOException {
        for (;;) {
            if (nextSeq > journal.committedSeq) {
                return false;
            }
            long limit = segment.dataBytes;
            if (pos >= limit) {
                Segment next = segment.next;
                if (next == null) {
                    return false;
                }
                if (pos < segment.dataBytes) {
                    continue; // frames committed before the roll
                }
                moveTo(next);
                continue;
            }
            if (channel == null) {
                channel = journal.files.open(segment.path, READ);
                buffer.invalidate();
            }
            String problem;
            int off = limit - pos >= FRAME_HEADER ? buffer.fill(channel, pos, FRAME_HEADER, limit) : -1;
            if (off < 0) {
                problem = "short frame";
            } else {
                int len = JournalFormat.getInt(buffer.array(), off);
                if (!JournalFormat.lenPlausible(len, limit - pos)) {
                    problem = "bad frame length " + Integer.toUnsignedString(len);
                } else if ((off = buffer.fill(channel, pos, LEN_CRC + len, limit)) < 0) {
                    problem = "file shorter than committed";
                } else if (!JournalFormat.frameValid(buffer.array(), off, len, crc)) {
                    problem = "CRC mismatch or bad records";
                } else if (takeFrame(off, len)) {
                    return true;
                } else {
                    continue; // all before the read position
                }
            }
            long at = segment.baseLogical + pos;
            if (at > lastCorrupt) {
                lastCorrupt = at;
                journal.corruptFrames.incrementAndGet();
                LOG.log(Level.WARNING, "journal " + journal.dir + ": segment " + segment + ": " + problem
                        + " at byte " + pos + "; skipping to byte " + limit);
            }
            pos = limit;
        }
    }

    /** Positions on the verified frame at {@code off}; false when all its records are before {@link #nextSeq}. */
    private boolean takeFrame(int off, int len) {
        byte[] b = buffer.array();
        long firstSeq = JournalFormat.getLong(b, off + 8);
        int count = JournalFormat.getInt(b, off + 16);
        long start = segment.baseLogical + pos;
        long end = start + LEN_CRC + len;
        long endSeq = firstSeq + count;
        pos += LEN_CRC + len;
        if (endSeq <= acked + 1) {
            journal.ackedLogical = Math.max(journal.ackedLogical, end);
        } else if (nextSeq == acked + 1) {
            journal.ackedLogical = Math.max(journal.ackedLogical, start);
        }
        if (endSeq <= nextSeq) {
            return false;
        }
        if (firstSeq > nextSeq) {
            long from = Math.max(nextSeq, maxDelivered + 1);
            if (firstSeq > from) {
                journal.missingRecords.addAndGet(firstSeq - from);
                LOG.log(Level.WARNING, "journal " + journal.dir + ": sequences " + from + " to " + (firstSeq - 1)
                        + " are in no frame; going on at " + firstSeq);
            }
            nextSeq = firstSeq;
        }
        recOff = off + FRAME_HEADER;
        for (long s = firstSeq; s < nextSeq; s++) {
            recOff += RECORD_HEADER + JournalFormat.getInt(b, recOff);
        }
        frameLeft = (int) (endSeq - nextSeq);
        remember(start, endSeq, end);
        return true;
    }

    /** Remembers a frame being delivered, for the backlog bytes after an acknowledgement. */
    private void remember(long start, long endSeq, long end) {
        if (ringSize > 0) {
            int last = (ringHead + ringSize - 1) % RING;
            if (end <= ringEnd[last]) {
                return;
            }
            if (ringSize == RING) {
                ringEndSeq[last] = endSeq;
                ringEnd[last] = end;
                return;
            }
        }
        int i = (ringHead + ringSize) % RING;
        ringStart[i] = start;
        ringEndSeq[i] = endSeq;
        ringEnd[i] = end;
        ringSize++;
    }

    /** Moves the read position forward to {@code target} (an acknowledgement after a rewind went past it). */
    private void skipTo(long target) {
        byte[] b = buffer.array();
        while (frameLeft > 0 && nextSeq < target) {
            recOff += RECORD_HEADER + JournalFormat.getInt(b, recOff);
            frameLeft--;
            nextSeq++;
        }
        if (nextSeq < target) {
            nextSeq = target;
        }
    }

    /** Deletes the sealed segments the cursor passed, oldest first, and syncs the directory. */
    private void deleteAcknowledged() throws IOException {
        Segment s = journal.head;
        boolean deleted = false;
        while (s.next != null && s.lastSeq <= acked) {
            if (s == segment) {
                moveTo(s.next);
            }
            try {
                Files.deleteIfExists(s.path);
            } catch (IOException e) {
                LOG.log(Level.WARNING, "journal " + journal.dir + ": cannot delete " + s + " (" + e
                        + "); trying again at the next acknowledgement");
                break;
            }
            journal.grow(-s.fileBytes());
            journal.segments.decrementAndGet();
            s = s.next;
            journal.head = s;
            journal.ackedLogical = Math.max(journal.ackedLogical, s.baseLogical);
            deleted = true;
        }
        if (deleted && sync != JournalSync.none) {
            try {
                journal.syncDirectory();
            } catch (IOException e) {
                cursorFailed = true;
                throw journal.fail("directory sync", e);
            }
        }
    }

    private void moveTo(Segment next) {
        closeChannel();
        segment = next;
        pos = 0;
        buffer.invalidate();
    }

    private void closeChannel() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // only read from
            }
            channel = null;
        }
    }

    /** Forces the cursor when its last write was not (interval), and closes. */
    void close() throws IOException {
        closeChannel();
        try {
            if (cursorUnsynced && !cursorFailed) {
                cursor.force();
                journal.cursorSyncs.incrementAndGet();
            }
        } finally {
            cursor.close();
        }
    }
}
