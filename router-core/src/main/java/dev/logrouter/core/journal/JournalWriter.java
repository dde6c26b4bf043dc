package dev.logrouter.core.journal;

import static dev.logrouter.core.journal.JournalFormat.FOOTER;
import static dev.logrouter.core.journal.JournalFormat.FRAME_HEADER;
import static dev.logrouter.core.journal.JournalFormat.LEN_CRC;
import static dev.logrouter.core.journal.JournalFormat.MAX_FRAME;
import static dev.logrouter.core.journal.JournalFormat.RECORD_HEADER;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * The writing side of a {@link Journal}: {@link #append} copies encoded records into one pending frame,
 * {@link #commit} writes that frame with a single positional {@code FileChannel.write} (group commit) and forces
 * it as {@link JournalSync} says. A frame never spans segments: when it does not fit in the active segment (with
 * room left for the footer), the segment is sealed with its footer first and a new one started, named by the
 * frame's first sequence; a frame larger than {@code segment-size} gets a segment of its own.
 *
 * <p>Limits, checked at {@link #append}: the journal's {@code max-size} (bytes of segments on disk, counting the
 * footer the active segment will get) and the {@code free-disk-reserve} of its file store, asked at open and
 * whenever the pending frame would start a new segment ({@link JournalFiles#usableSpace}; and at every append while
 * below the reserve). Both throw {@link JournalFullException}.
 *
 * <p>Failure: an {@code IOException} from a write or a force is never retried on the same file: the journal is
 * failed ({@link Journal#failure()}), {@link #commit} throws {@link JournalFailedException}, and so do every later
 * append, commit and sync; the pending records are lost with it. The records of the failing commit may or may not
 * be in the file; a reopened journal finds what is there.
 *
 * <p>Threads: one thread (the sink's) calls every method.
 */
public final class JournalWriter {

    private static final Logger LOG = System.getLogger(JournalWriter.class.getName());
    private static final int INITIAL_PENDING = 64 * 1024;
    private static final int SHRINK_ABOVE = 8 << 20;

    private final Journal journal;
    private final long segmentSize;
    private final long maxSize;
    private final long reserve;
    private final JournalSync sync;
    private final long intervalNanos;
    private final CRC32C crc = new CRC32C();
    private final JournalFullException full;
    private final JournalFullException belowReserve;
    private final JournalFullException totalFull;

    private Segment active;
    private FileChannel channel;
    /** Direct: {@code [0, 20)} the frame header, filled at commit; then the records. */
    private ByteBuffer pending;
    private int pendingRecords;
    /** Sequence of the first pending record. */
    private long nextSeq;
    private long lastSyncNanos;
    private boolean unsynced;
    private boolean diskShort;
    /** The active segment whose roll passed the reserve check. */
    private Segment reserveCheckedFor;

    JournalWriter(Journal journal, Segment active, FileChannel channel, long nextSeq, boolean diskShort) {
        this.journal = journal;
        JournalConfig c = journal.config;
        this.segmentSize = c.segmentSize().bytes();
        this.maxSize = c.maxSize().bytes();
        this.reserve = c.freeDiskReserve().bytes();
        this.sync = c.sync();
        this.intervalNanos = c.syncInterval().nanos();
        this.active = active;
        this.channel = channel;
        this.nextSeq = nextSeq;
        this.diskShort = diskShort;
        this.lastSyncNanos = journal.clock.nanoTime();
        this.pending = ByteBuffer.allocateDirect(INITIAL_PENDING);
        this.pending.position(FRAME_HEADER);
        this.full = new JournalFullException(JournalFullException.Limit.MAX_SIZE, "journal " + journal.dir
                + " reached its max-size of " + maxSize + " bytes");
        this.belowReserve = new JournalFullException(JournalFullException.Limit.DISK_RESERVE, "journal " + journal.dir
                + ": less usable disk space than the free-disk-reserve of " + reserve + " bytes");
        this.totalFull = new JournalFullException(JournalFullException.Limit.TOTAL_SIZE, "the journals together "
                + "reached the router's journal.max-size of " + journal.space.maxTotal() + " bytes");
    }

    /**
     * Appends one record to the pending frame (copied: {@code b} may be reused at once).
     *
     * @return the record's sequence number
     * @throws JournalFullException   a limit is reached; nothing was appended, the pending records stay
     * @throws JournalFailedException the journal failed
     * @throws IllegalStateException  the pending frame would pass 1 GiB: commit first
     */
    public long append(byte[] b, int off, int len) throws JournalFullException, JournalFailedException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (journal.failed()) {
            throw journal.failedException();
        }
        long frame = (long) pending.position() + RECORD_HEADER + len;
        if (frame > MAX_FRAME) {
            throw new IllegalStateException("a commit holds at most " + MAX_FRAME + " bytes: commit first");
        }
        if (journal.sizeOnDisk.get() + frame + FOOTER > maxSize) {
            throw full;
        }
        if (journal.space.wouldExceed(frame + FOOTER)) {
            throw totalFull;
        }
        long used = active.dataBytes;
        boolean rolls = used > 0 && used + frame + FOOTER > segmentSize;
        if (reserve > 0 && (diskShort || (rolls && reserveCheckedFor != active))) {
            checkReserve(rolls);
        }
        if (pending.remaining() < RECORD_HEADER + len) {
            grow(RECORD_HEADER + len);
        }
        pending.putInt(len).put(b, off, len);
        return nextSeq + pendingRecords++;
    }

    /** Appends {@code b} whole. */
    public long append(byte[] b) throws JournalFullException, JournalFailedException {
        return append(b, 0, b.length);
    }

    /**
     * Writes the pending records as one frame (rolling to a new segment first when it does not fit), makes them
     * visible to the reader, and forces the file when the sync policy says so ({@code batch}: always;
     * {@code interval}: when the interval passed since the last force). Nothing pending: nothing is written.
     *
     * @return the last committed sequence (-1 when none ever was)
     * @throws JournalFailedException the write or the force failed now or before
     */
    public long commit() throws JournalFailedException {
        if (journal.failed()) {
            throw journal.failedException();
        }
        if (pendingRecords == 0) {
            return journal.committedSeq;
        }
        int frameLen = pending.position();
        pending.putInt(0, frameLen - LEN_CRC);
        pending.putLong(8, nextSeq);
        pending.putInt(16, pendingRecords);
        pending.limit(frameLen).position(LEN_CRC);
        crc.reset();
        crc.update(pending);
        pending.putInt(4, (int) crc.getValue());
        pending.position(0);
        if (active.dataBytes > 0 && active.dataBytes + frameLen + FOOTER > segmentSize) {
            try {
                roll();
            } catch (IOException e) {
                throw journal.fail("sealing " + active + " and starting the next segment", e);
            }
        }
        long at = active.dataBytes;
        try {
            while (pending.hasRemaining()) {
                channel.write(pending, at + pending.position());
            }
        } catch (IOException e) {
            throw journal.fail("writing " + active, e);
        }
        long end = at + frameLen;
        active.dataBytes = end;
        journal.grow(frameLen);
        journal.committedLogical = active.baseLogical + end;
        long last = nextSeq + pendingRecords - 1;
        nextSeq = last + 1;
        pendingRecords = 0;
        if (pending.capacity() > SHRINK_ABOVE) {
            pending = ByteBuffer.allocateDirect(INITIAL_PENDING);
        }
        pending.clear().position(FRAME_HEADER);
        journal.committedSeq = last;
        unsynced = true;
        if (sync == JournalSync.batch
                || sync == JournalSync.interval && journal.clock.nanoTime() - lastSyncNanos >= intervalNanos) {
            force();
        }
        return last;
    }

    /**
     * With {@code sync: interval}: forces what is committed but not yet forced when the interval passed since the
     * last force. The owner calls it when idle, so that a commit never waits longer than the interval.
     *
     * @return whether it forced
     */
    public boolean syncIfDue(long nowNanos) throws JournalFailedException {
        if (sync != JournalSync.interval || !unsynced || nowNanos - lastSyncNanos < intervalNanos) {
            return false;
        }
        if (journal.failed()) {
            throw journal.failedException();
        }
        force();
        return true;
    }

    /** Forces what is committed but not yet forced, whatever the policy (a clean stop). */
    public void sync() throws JournalFailedException {
        if (journal.failed()) {
            throw journal.failedException();
        }
        if (unsynced) {
            force();
        }
    }

    /** Records appended and not yet committed. */
    public int pendingRecords() {
        return pendingRecords;
    }

    /** Bytes the pending frame holds, its header included (0 when nothing is pending). */
    public int pendingBytes() {
        return pendingRecords == 0 ? 0 : pending.position();
    }

    /** The sequence the next appended record gets. */
    public long nextSequence() {
        return nextSeq + pendingRecords;
    }

    /** Whether the last check found less usable space than the free-disk reserve. */
    public boolean belowDiskReserve() {
        return diskShort;
    }

    private void force() throws JournalFailedException {
        try {
            channel.force(false);
        } catch (IOException e) {
            throw journal.fail("fsync of " + active, e);
        }
        journal.syncs.incrementAndGet();
        journal.durableSeq = nextSeq - 1;
        lastSyncNanos = journal.clock.nanoTime();
        unsynced = false;
    }

    /** Seals the active segment with its footer and starts the next one at {@link #nextSeq}. */
    private void roll() throws IOException {
        Segment old = active;
        long lastSeq = nextSeq - 1;
        writeFooter(channel, old.dataBytes, old.firstSeq, lastSeq, crc);
        journal.grow(FOOTER);
        if (sync != JournalSync.none) {
            channel.force(false);
            journal.syncs.incrementAndGet();
            journal.durableSeq = lastSeq;
            lastSyncNanos = journal.clock.nanoTime();
            unsynced = false;
        }
        FileChannel oldChannel = channel;
        channel = null;
        oldChannel.close();
        Path p = journal.dir.resolve(JournalFormat.segmentName(nextSeq));
        channel = journal.files.open(p, Journal.CREATE_SEGMENT);
        if (sync != JournalSync.none) {
            journal.syncDirectory();
        }
        Segment s = new Segment(nextSeq, p, old.baseLogical + old.dataBytes, 0);
        old.lastSeq = lastSeq;
        old.next = s;
        active = s;
        journal.segments.incrementAndGet();
    }

    /** Writes a segment's footer at {@code at}. */
    static void writeFooter(FileChannel ch, long at, long firstSeq, long lastSeq, CRC32C crc) throws IOException {
        byte[] f = new byte[FOOTER];
        JournalFormat.encodeFooter(f, firstSeq, lastSeq, crc);
        ByteBuffer b = ByteBuffer.wrap(f);
        while (b.hasRemaining()) {
            ch.write(b, at + b.position());
        }
    }

    private void checkReserve(boolean rolls) throws JournalFullException {
        long usable;
        try {
            usable = journal.files.usableSpace(journal.dir);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "journal " + journal.dir + ": cannot read the usable space (" + e
                    + "); appending anyway");
            usable = Long.MAX_VALUE;
        }
        if (usable < reserve) {
            if (!diskShort) {
                LOG.log(Level.WARNING, "journal " + journal.dir + ": " + usable + " bytes usable, below the "
                        + "free-disk-reserve of " + reserve + "; appends are refused until space is freed");
            }
            diskShort = true;
            throw belowReserve;
        }
        if (diskShort) {
            LOG.log(Level.INFO, "journal " + journal.dir + ": " + usable + " bytes usable again; appending");
        }
        diskShort = false;
        if (rolls) {
            reserveCheckedFor = active;
        }
    }

    private void grow(int need) {
        long cap = Math.max(2L * pending.capacity(), (long) pending.position() + need);
        ByteBuffer b = ByteBuffer.allocateDirect((int) Math.min(cap, MAX_FRAME));
        pending.flip();
        b.put(pending);
        pending = b;
    }

    /** Forces what is unsynced (unless {@code none} or failed) and closes the active segment. */
    void close() throws IOException {
        if (channel == null) {
            return;
        }
        try {
            if (!journal.failed() && unsynced && sync != JournalSync.none) {
                force();
            }
        } finally {
            channel.close();
            channel = null;
        }
    }
}
