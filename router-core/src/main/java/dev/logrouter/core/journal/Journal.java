package dev.logrouter.core.journal;

import dev.logrouter.core.sink.JournalSpace;
import dev.logrouter.core.util.Clock;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * A sink's crash-safe journal (durable buffer): a directory of segment files holding records, each with a sequence
 * number (0 for the first record of a new journal, never reused), written by one {@link JournalWriter} (the sink's
 * thread appends records and commits them, one frame per commit) and read by one {@link JournalReader} (the
 * delivery thread polls committed records after its cursor and acknowledges what the destination took, which
 * deletes the segments passed). The byte layout, what each {@link JournalSync} mode survives and the recovery
 * rules are in docs/journal.md.
 *
 * <p>{@link #open} recovers: it reads the cursor, finds the segments, reads only the footers of sealed ones and
 * scans the newest, truncates a damaged tail and quarantines unusable segments ({@link JournalRecovery}); it always
 * starts unless the directory itself cannot be read or written. It takes an exclusive lock ({@code journal.lock}):
 * one journal per directory, one process.
 *
 * <p>"Committed" ({@link #committedSeq}) means written to the file (visible to the reader, survives {@code kill
 * -9}); "durable" ({@link #durableSeq}) means forced to stable storage. An {@code IOException} from a write or a
 * force of any journal file is never retried: the journal marks itself failed ({@link #failure()}) and appends,
 * commits and acknowledgements throw {@link JournalFailedException}; the owner decides (the sink turns DEGRADED).
 *
 * <p>Threads: {@link #open} and {@link #close} on the owner's thread, {@link #close} only once the writer and the
 * reader threads stopped using the journal. {@link #writer()} belongs to one thread, {@link #reader()} to one other
 * (or the same) thread. Every statistics getter reads volatile or atomic fields and may be called from any thread.
 * The journal owns its files and channels.
 */
public final class Journal implements AutoCloseable {

    private static final Logger LOG = System.getLogger(Journal.class.getName());
    private static final Pattern CURSOR_NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}");
    static final String LOCK_FILE = "journal.lock";
    private static final Set<StandardOpenOption> DIR = Set.of(StandardOpenOption.READ);
    private static final Set<StandardOpenOption> LOCK = Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE);
    static final Set<StandardOpenOption> CREATE_SEGMENT = Set.of(StandardOpenOption.WRITE,
            StandardOpenOption.CREATE_NEW);

    final Path dir;
    final String cursorName;
    final JournalConfig config;
    final Clock clock;
    final JournalFiles files;

    final AtomicLong sizeOnDisk = new AtomicLong();
    /** The router-wide journal limit this journal's size counts towards. */
    final JournalSpace space;
    final AtomicLong segments = new AtomicLong();
    final AtomicLong syncs = new AtomicLong();
    final AtomicLong cursorSyncs = new AtomicLong();
    final AtomicLong recoveredBytes = new AtomicLong();
    final AtomicLong corruptFrames = new AtomicLong();
    final AtomicLong quarantinedSegments = new AtomicLong();
    final AtomicLong cursorResets = new AtomicLong();
    final AtomicLong missingRecords = new AtomicLong();

    /** Last committed sequence (-1: none); written by the writer after the bytes and segment links. */
    volatile long committedSeq;
    /** Last sequence forced to stable storage (-1: none known). */
    volatile long durableSeq;
    /** Logical offset of the end of the committed frames. */
    volatile long committedLogical;
    /** Last acknowledged sequence (-1: none); written by the reader. */
    volatile long ackedSeq;
    /** Logical offset from which frames hold unacknowledged records (exact to the frame once polled). */
    volatile long ackedLogical;
    /** The oldest segment; moved by the reader when it deletes segments. */
    volatile Segment head;

    private volatile IOException failure;
    private final FileChannel lockChannel;
    private final JournalWriter writer;
    private final JournalReader reader;
    private boolean closed;
    /** Whether the cursor file existed when {@link #open} began. */
    private boolean cursorExisted;

    /**
     * Opens (creating it when absent) the journal in {@code dir} with real files and the system clock.
     *
     * @param cursorName the reader's name: its cursor is {@code <cursorName>.cursor}
     */
    public static Journal open(Path dir, String cursorName, JournalConfig config) throws IOException {
        return open(dir, cursorName, config, Clock.SYSTEM, JournalFiles.DEFAULT);
    }

    /**
     * Opens (creating it when absent) the journal in {@code dir}, recovering what a crash left.
     *
     * @param cursorName the reader's name: its cursor is {@code <cursorName>.cursor}
     * @param clock      for {@link JournalSync#interval}
     * @param files      how files are opened (tests wrap channels)
     * @throws IOException when the directory cannot be created, listed or written (a truncation, a rename, the new
     *                     cursor or segment), a force fails, or another journal holds it
     */
    public static Journal open(Path dir, String cursorName, JournalConfig config, Clock clock, JournalFiles files)
            throws IOException {
        return open(dir, cursorName, config, clock, files, JournalSpace.defaults());
    }

    /**
     * As {@link #open(Path, String, JournalConfig, Clock, JournalFiles)}, counting its size in {@code space}, whose
     * {@code max-size} (across journals) refuses appends as this journal's own does.
     */
    public static Journal open(Path dir, String cursorName, JournalConfig config, Clock clock, JournalFiles files,
                               JournalSpace space) throws IOException {
        if (!CURSOR_NAME.matcher(cursorName).matches()) {
            throw new IllegalArgumentException("cursor name must be letters, digits, '.', '_' or '-' (not first '.'),"
                    + " at most 100: " + cursorName);
        }
        Files.createDirectories(dir);
        return new Journal(dir, cursorName, config, clock, files, space);
    }

    private Journal(Path dir, String cursorName, JournalConfig config, Clock clock, JournalFiles files,
                    JournalSpace space) throws IOException {
        this.dir = dir;
        this.space = space;
        this.cursorName = cursorName;
        this.config = config;
        this.clock = clock;
        this.files = files;
        this.lockChannel = lock();
        List<AutoCloseable> opened = new ArrayList<>();
        opened.add(lockChannel);
        try {
            boolean sync = config.sync() != JournalSync.none;
            CursorFile cursor = openCursor();
            opened.add(cursor);
            JournalRecovery rec = new JournalRecovery(dir, files);
            try {
                rec.run();
            } finally {
                if (rec.tailChannel != null) {
                    opened.add(rec.tailChannel);
                }
            }
            recoveredBytes.set(rec.recoveredBytes);
            corruptFrames.set(rec.corruptFrames);
            quarantinedSegments.set(rec.quarantined);
            boolean changed = rec.changed;

            // the acknowledged position
            long oldest = !rec.sealed.isEmpty() ? rec.sealed.get(0).firstSeq()
                    : rec.tail != null ? rec.tail.firstSeq() : -1;
            long acked;
            if (cursor.valid()) {
                acked = cursor.loadedAckedSeq();
            } else {
                acked = oldest >= 0 ? oldest - 1 : -1;
                if (cursorExisted || oldest >= 0) {
                    cursorResets.incrementAndGet();
                    LOG.log(Level.WARNING, "journal " + dir + ": cursor " + cursorName + " has no valid slot; "
                            + "delivering again from the oldest segment (sequence " + (acked + 1) + ")");
                }
            }

            // the next sequence: after what is on disk, and never one the cursor passed
            long nextSeq = rec.tail != null ? rec.tailNextSeq
                    : !rec.sealed.isEmpty() ? rec.sealed.get(rec.sealed.size() - 1).lastSeq() + 1 : 0;
            nextSeq = Math.max(nextSeq, acked + 1);

            List<JournalRecovery.Found> sealed = new ArrayList<>(rec.sealed);
            FileChannel activeChannel = null;
            JournalRecovery.Found active = null;
            if (rec.tail != null && rec.tailNextSeq == nextSeq) {
                active = rec.tail;
                activeChannel = rec.tailChannel;
            } else if (rec.tail != null) {
                // the cursor passed every record of the tail (they were lost after their acknowledgement was
                // written): nothing in it is needed, and the next sequence must not be reused
                rec.tailChannel.close();
                Files.delete(rec.tail.path());
                changed = true;
            }
            if (active == null) {
                Path p = dir.resolve(JournalFormat.segmentName(nextSeq));
                activeChannel = files.open(p, CREATE_SEGMENT);
                opened.add(activeChannel);
                active = new JournalRecovery.Found(nextSeq, p, 0, -1);
                changed = true;
            }

            // link the segments; delete the sealed ones the cursor passed (made durable first)
            if (cursor.valid() && sync && !sealed.isEmpty() && sealed.get(0).lastSeq() <= acked) {
                cursor.force();
                cursorSyncs.incrementAndGet();
            }
            long base = 0;
            Segment first = null;
            Segment prev = null;
            for (JournalRecovery.Found f : sealed) {
                if (f.lastSeq() <= acked) {
                    Files.deleteIfExists(f.path());
                    changed = true;
                    continue;
                }
                Segment s = new Segment(f.firstSeq(), f.path(), base, f.dataBytes());
                s.lastSeq = f.lastSeq();
                base += f.dataBytes();
                if (prev != null) {
                    prev.next = s;
                } else {
                    first = s;
                }
                prev = s;
            }
            Segment activeSegment = new Segment(active.firstSeq(), active.path(), base, active.dataBytes());
            if (prev != null) {
                prev.next = activeSegment;
            } else {
                first = activeSegment;
            }
            head = first;
            long size = 0;
            long count = 0;
            for (Segment s = first; s != null; s = s.next) {
                size += s.fileBytes();
                count++;
            }
            sizeOnDisk.set(size);
            segments.set(count);

            if (acked + 1 < first.firstSeq) {
                long missing = first.firstSeq - (acked + 1);
                missingRecords.addAndGet(missing);
                LOG.log(Level.WARNING, "journal " + dir + ": " + missing + " unacknowledged records (sequences "
                        + (acked + 1) + " to " + (first.firstSeq - 1) + ") are in no segment");
                acked = first.firstSeq - 1;
            }
            if (!cursor.valid()) {
                cursor.write(acked, sync);
                if (sync) {
                    cursorSyncs.incrementAndGet();
                }
                changed |= !cursorExisted;
            }
            if (sync) {
                activeChannel.force(false);
                syncs.incrementAndGet();
                if (changed) {
                    syncDirectory();
                }
            }
            committedSeq = nextSeq - 1;
            durableSeq = sync ? nextSeq - 1 : -1;
            committedLogical = activeSegment.baseLogical + activeSegment.dataBytes;
            ackedSeq = acked;
            Segment start = first;
            for (Segment s = first; s != null && s.firstSeq <= acked + 1; s = s.next) {
                start = s;
            }
            // exact when everything is acknowledged; else refined as the reader passes the cursor's frames
            ackedLogical = acked >= nextSeq - 1 ? committedLogical : start.baseLogical;

            boolean diskShort = false;
            long reserve = config.freeDiskReserve().bytes();
            if (reserve > 0) {
                long usable = files.usableSpace(dir);
                if (usable < reserve) {
                    diskShort = true;
                    LOG.log(Level.WARNING, "journal " + dir + ": " + usable + " bytes usable, below the free-disk "
                            + "reserve of " + reserve + "; appends are refused until space is freed");
                }
            }
            writer = new JournalWriter(this, activeSegment, activeChannel, nextSeq, diskShort);
            reader = new JournalReader(this, cursor, start, acked);
            space.add(sizeOnDisk.get()); // counted only once the open cannot fail any more
            if (rec.recoveredBytes > 0 || rec.quarantined > 0) {
                LOG.log(Level.INFO, "journal " + dir + ": recovered; next sequence " + nextSeq + ", acknowledged "
                        + acked + ", " + count + " segments");
            }
        } catch (IOException | RuntimeException e) {
            for (int i = opened.size() - 1; i >= 0; i--) {
                try {
                    opened.get(i).close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    private CursorFile openCursor() throws IOException {
        Path path = dir.resolve(cursorName + CursorFile.SUFFIX);
        cursorExisted = Files.exists(path, LinkOption.NOFOLLOW_LINKS);
        try {
            return CursorFile.open(files, path);
        } catch (IOException e) {
            if (!cursorExisted) {
                throw e;
            }
            Path target = path.resolveSibling(path.getFileName() + JournalFormat.CORRUPT_SUFFIX);
            LOG.log(Level.WARNING, "journal " + dir + ": cursor " + path.getFileName() + " unreadable (" + e
                    + "); renamed to " + target.getFileName());
            Files.move(path, target, StandardCopyOption.REPLACE_EXISTING);
            return CursorFile.open(files, path);
        }
    }

    private FileChannel lock() throws IOException {
        FileChannel ch = files.open(dir.resolve(LOCK_FILE), LOCK);
        try {
            FileLock lock = ch.tryLock();
            if (lock == null) {
                throw new IOException("journal " + dir + " is in use by another process (" + LOCK_FILE + ")");
            }
            return ch;
        } catch (OverlappingFileLockException e) {
            ch.close();
            throw new IOException("journal " + dir + " is already open in this process", e);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** Forces the directory (after a create, rename or delete). */
    void syncDirectory() throws IOException {
        try (FileChannel d = files.open(dir, DIR)) {
            d.force(true);
        }
    }

    /** Marks the journal failed (the first cause wins) and returns the exception to throw. */
    JournalFailedException fail(String what, IOException e) {
        synchronized (this) {
            if (failure == null) {
                failure = e;
                LOG.log(Level.ERROR, "journal " + dir + ": " + what + " failed; the journal stops writing: " + e);
            }
        }
        return failedException();
    }

    /** The exception appends, commits and acknowledgements throw once failed. */
    JournalFailedException failedException() {
        return new JournalFailedException("journal " + dir + " failed", failure);
    }

    /** The writer: append and commit on one thread (the sink's). */
    public JournalWriter writer() {
        return writer;
    }

    /** The reader: poll and acknowledge on one thread (the delivery thread). */
    public JournalReader reader() {
        return reader;
    }

    public Path directory() {
        return dir;
    }

    public JournalConfig config() {
        return config;
    }

    /** Whether a write or force failed: the journal writes no more (see {@link JournalFailedException}). */
    public boolean failed() {
        return failure != null;
    }

    /** The first write or force error, or null while the journal is healthy. */
    public IOException failure() {
        return failure;
    }

    /** The last committed sequence (written to the file, visible to the reader), -1 when none. */
    public long committedSeq() {
        return committedSeq;
    }

    /**
     * The last sequence known to be on stable storage (forced by this journal, or found at an open that forced
     * it): -1 when none, and always -1 with {@link JournalSync#none}.
     */
    public long durableSeq() {
        return durableSeq;
    }

    /** The last acknowledged sequence, -1 when none. */
    public long acknowledgedSeq() {
        return ackedSeq;
    }

    /** Committed records not yet acknowledged (sequences lost to damage included until the reader passes them). */
    public long backlogRecords() {
        return Math.max(0, committedSeq - ackedSeq);
    }

    /**
     * Bytes of the committed frames (headers included, footers not) from the frame holding the oldest
     * unacknowledged record to the end: exact to the frame once the reader polled past the cursor after an open
     * (or when everything is acknowledged); until then counted from the start of the cursor's segment.
     */
    public long backlogBytes() {
        return Math.max(0, committedLogical - ackedLogical);
    }

    /** Segment files, the active one included. */
    public long segments() {
        return segments.get();
    }

    /** Bytes of segment files on disk (what {@code max-size} limits). */
    /** The segment files grew (or, negative, shrank) by {@code delta} bytes. */
    void grow(long delta) {
        sizeOnDisk.addAndGet(delta);
        space.add(delta);
    }

    public long sizeOnDisk() {
        return sizeOnDisk.get();
    }

    /** Forces of segment files. */
    public long syncs() {
        return syncs.get();
    }

    /** Forces of the cursor file. */
    public long cursorSyncs() {
        return cursorSyncs.get();
    }

    /** Bytes cut from a damaged tail at open. */
    public long recoveredBytes() {
        return recoveredBytes.get();
    }

    /** Bad frames: the one a tail scan stopped at (per open), and each one the reader skipped. */
    public long corruptFrames() {
        return corruptFrames.get();
    }

    /** Segments renamed to {@code .corrupt} at open. */
    public long quarantinedSegments() {
        return quarantinedSegments.get();
    }

    /**
     * Opens that found no valid cursor slot where one was expected (a cursor file, or segments): delivery starts
     * again from the oldest segment.
     */
    public long cursorResets() {
        return cursorResets.get();
    }

    /** Sequences skipped because no segment holds them (quarantined segments, skipped bad frames). */
    public long missingRecords() {
        return missingRecords.get();
    }

    /**
     * Closes the files: forces what is committed but not yet forced (unless {@code sync: none} or failed). Records
     * appended but not committed are discarded. Idempotent.
     */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        space.add(-sizeOnDisk.get()); // no longer counted towards the router-wide limit
        IOException first = null;
        for (AutoCloseable c : new AutoCloseable[] {writer::close, reader::close, lockChannel}) {
            try {
                c.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public String toString() {
        return "Journal[" + dir + ", cursor " + cursorName + "]";
    }
}
