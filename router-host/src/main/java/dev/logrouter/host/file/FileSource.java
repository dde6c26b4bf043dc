package dev.logrouter.host.file;

import com.lmax.disruptor.RingBuffer;
import dev.logrouter.core.event.FieldName;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.SyslogNames;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.source.RingClaim;
import dev.logrouter.core.source.Source;
import dev.logrouter.core.source.SourceContext;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tails the files {@code paths} match and publishes one message per line (or multi-line message) into the ring.
 *
 * <p>One thread, {@code file-<name>}, does everything: it scans the globs (at start, on a change the JDK's
 * WatchService reports, and every poll interval), reads the files in turn ({@code read-size} from each, so one busy
 * file does not starve the others), splits lines, publishes them in batches and waits while the ring has no room
 * (flow control: the files wait on disk), and writes the checkpoint.
 *
 * <p>A file is known by its device and inode, checked by a fingerprint of its first bytes. So:
 * <ul>
 *   <li>rename + create: the renamed file is the same file (read on to its end, under its new name when the globs
 *       match it, through the open channel when they do not); the new file at the old path is read once the old one
 *       reached its end;</li>
 *   <li>copytruncate: the shrunken (or rewritten) file is read again from 0; a new file with the fingerprint of the
 *       content before the truncation (the copy, when the globs match it) continues where the reading was;</li>
 *   <li>a deleted file, or one rotated out of the globs, stays open until it did not grow for {@code rotate-wait};</li>
 *   <li>an inode reused by another file is not mistaken for the old one (its fingerprint differs).</li>
 * </ul>
 *
 * <p>Checkpoints: each publish batch remembers its last ring sequence and the file offset after its last line; the
 * checkpoint offset of a file advances to that offset once {@link SourceContext#completedSequence()} passed the
 * sequence, i.e. every sink made those lines durable. A restart resumes there: after a clean stop nothing is read
 * twice, after a crash at most what was published after the last checkpoint.
 *
 * <p>Threads: the reader thread owns every file and all state; lifecycle calls come from the router's thread and
 * only set flags and wait; gauges read volatile copies.
 */
public final class FileSource implements Source {

    private static final Logger LOG = System.getLogger(FileSource.class.getName());
    private static final int MAX_BATCH = 256;
    private static final FieldName FILE_NAME = FieldName.of("FILE_NAME");
    private static final long TIMEOUT_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Bytes of a file's head that index it, and that a new file needs before it can be told a copy or not. */
    static final int HEAD_KEY = 64;

    private final FileSourceConfig cfg;
    private final RingBuffer<LogEvent> ring;
    private final LongSupplier completed;
    private final int sourceId;
    private final byte[] sourceName;
    private final byte hint;
    private final boolean raw;
    private final byte[] host;
    private final int pri;
    private final int maxLine;
    private final int unit; // bytes per code unit where lines are split: 1, or 2 for UTF-16
    private final boolean bigEndian;
    private final Charset charset; // null: UTF-8, passed through
    private final boolean latin1Input;
    private final FileSourceConfig.MultiLine multiLine;
    private final Matcher prefix;
    private final long multiLineTimeout;
    private final long rotateWait;
    private final long pollInterval;
    private final int maxOpen;
    /** Free slots a full ring must have again before reading resumes. */
    private final int resumeAt;
    private final List<Globs.Glob> globs = new ArrayList<>();
    private final List<Globs.Glob> excludes = new ArrayList<>();
    private final List<java.nio.file.PathMatcher> excludeNames = new ArrayList<>();
    private final Checkpoints checkpoints;

    private final List<TrackedFile> files = new ArrayList<>();
    private final Map<TrackedFile.Key, TrackedFile> byKey = new HashMap<>();
    private final Map<Path, TrackedFile> byPath = new HashMap<>();
    /**
     * Live files by the CRC-32C of their first {@link #HEAD_KEY} bytes: a new file that begins like one of them may
     * be a copy of it (copytruncate).
     */
    private final Map<Long, List<TrackedFile>> byHead = new HashMap<>();
    /** Files found while running, not identified yet, and copies held until their original was truncated. */
    private int undecided;
    /** Files whose content was truncated away, kept for a while: a copy of them continues them. */
    private final List<TrackedFile> retired = new ArrayList<>();
    private final Map<Path, WatchKey> watched = new HashMap<>();
    /**
     * Files renamed or deleted away from a path and not read to their end yet, by that path: a new file that appears
     * there (rename + create) is read after them, even when it appears a scan later.
     */
    private final Map<Path, TrackedFile> formerOwner = new HashMap<>();
    /** Open files, oldest opened first: where {@link #evict} looks for one to close. */
    private final java.util.ArrayDeque<TrackedFile> openOrder = new java.util.ArrayDeque<>();
    private final Fingerprint fingerprint = new Fingerprint();
    private WatchService watcher;
    private Map<TrackedFile.Key, Checkpoints.Entry> saved; // what the checkpoint file held at start
    /**
     * At start: entries no longer matched by their inode — the file at that inode was truncated (copytruncate), or the
     * entry is a truncated file's read content saved without an inode ({@code ino < 0}) — which a copy of that
     * content may claim by its fingerprint. Null once the start's scan is done.
     */
    private List<Checkpoints.Entry> unclaimed;
    /**
     * At start: the file that continues an entry found away from the entry's path (renamed, or a copy), by that path,
     * and the generations found after it; the file now at the path reads after them.
     */
    private Map<Path, TrackedFile> continuedAt;
    /** At start: when the checkpoint last saw the entry of each path in {@link #continuedAt} (epoch millis). */
    private Map<Path, Long> checkpointedAt;
    /** Checkpoint entries no file matched at start, kept (and saved) for {@link #LEFTOVER_MILLIS} since last seen. */
    private Map<TrackedFile.Key, Checkpoints.Entry> leftover = new HashMap<>();
    private static final long LEFTOVER_MILLIS = TimeUnit.HOURS.toMillis(24);
    private boolean firstStart;
    private boolean initialScan;
    private boolean scanRequested;
    private boolean checkpointDirty = true; // the first checkpoint is written even with no file yet
    private int openCount;
    private int roundRobin;

    private final byte[] chunk;
    private final ByteBuffer chunkBuffer;
    private final int[] stOff = new int[MAX_BATCH];
    private final int[] stLen = new int[MAX_BATCH];
    private final long[] stEnd = new long[MAX_BATCH];
    private int staged;
    private final LatinView latin = new LatinView();
    /** A line of an ISO-8859-1 file converted to UTF-8 (reused). */
    private final TrackedFile.ByteArray latin1 = new TrackedFile.ByteArray();

    private Thread thread;
    private volatile boolean stopReading;
    private volatile boolean closing;
    private volatile boolean forced;
    private final CountDownLatch readingStopped = new CountDownLatch(1);
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile int fileCount;
    private volatile int openGauge;
    private volatile long uncommittedGauge;

    private final Counter received;
    private final Counter bytes;
    private final Counter truncatedLines;
    private final Counter partialLines;
    private final Counter rotations;
    private final Counter truncations;
    private final Counter copiesFollowed;
    private final Counter deletedUnread;
    private final Counter ringFull;
    private final Counter readErrors;
    private final Counter checkpointWrites;
    private final Counter checkpointErrors;
    private final Counter evictions;

    FileSource(FileSourceConfig cfg, SourceContext ctx) {
        this.cfg = cfg;
        this.ring = ctx.ring();
        this.completed = ctx.completedSequence();
        this.sourceId = ctx.index();
        this.sourceName = cfg.name().getBytes(StandardCharsets.UTF_8);
        this.hint = cfg.format().hint();
        this.raw = cfg.format() == FileFormat.raw;
        this.host = (cfg.host() != null ? cfg.host() : localHostName()).getBytes(StandardCharsets.UTF_8);
        this.pri = SyslogNames.facilityNumber(cfg.facility()) * 8 + SyslogNames.severityNumber(cfg.severity());
        this.maxLine = (int) cfg.maxLineSize().bytes();
        Charset cs = Charset.forName(cfg.encoding());
        String csName = cs.name().toUpperCase(java.util.Locale.ROOT);
        this.unit = csName.startsWith("UTF-16") ? 2 : 1;
        this.bigEndian = !csName.equals("UTF-16LE");
        this.charset = cs.equals(StandardCharsets.UTF_8) || cs.equals(StandardCharsets.US_ASCII) ? null : cs;
        this.latin1Input = cs.equals(StandardCharsets.ISO_8859_1);
        this.multiLine = cfg.multiLine();
        this.prefix = cfg.multiLinePrefix() == null ? null : Pattern.compile(cfg.multiLinePrefix()).matcher("");
        this.multiLineTimeout = cfg.multiLineTimeout().nanos();
        this.rotateWait = cfg.rotateWait().nanos();
        this.pollInterval = cfg.pollInterval().nanos();
        this.maxOpen = cfg.maxOpenFiles();
        this.resumeAt = Math.max(1, ring.getBufferSize() / 4);
        for (String g : cfg.paths()) {
            globs.add(Globs.parse(g));
        }
        for (String g : cfg.exclude()) {
            if (g.contains("/")) {
                excludes.add(Globs.parse(g));
            } else { // a name pattern (*.gz): matched against file names in every directory
                excludeNames.add(FileSystems.getDefault().getPathMatcher("glob:" + g));
            }
        }
        this.checkpoints = new Checkpoints(Paths.get(cfg.checkpointDir()), cfg.name());
        this.chunk = new byte[(int) cfg.readSize().bytes()];
        this.chunkBuffer = ByteBuffer.wrap(chunk);
        var m = ctx.metrics();
        this.received = m.counter("received", "Messages (lines, or multi-line messages) published into the ring.");
        this.bytes = m.counter("bytes", "Bytes of the messages published.");
        this.truncatedLines = m.counter("truncatedLines", "Lines (or multi-line messages) longer than "
                + "max-line-size, cut to it (the rest of the line is skipped).");
        this.partialLines = m.counter("partialLines", "Last lines without a newline, delivered after "
                + "multi-line-timeout without growth or when their file was closed.");
        this.rotations = m.counter("rotations", "Files renamed, rotated out of the globs or deleted while tracked.");
        this.truncations = m.counter("truncations", "Files found shorter than what was read, or rewritten "
                + "(copytruncate): read again from their start.");
        this.copiesFollowed = m.counter("copiesFollowed", "Copies of truncated files (copytruncate) found under "
                + "the globs and read on from where their original was.");
        this.deletedUnread = m.counter("deletedUnread", "Bytes never read because their file was deleted or "
                + "rotated away while closed (max-open-files) or before it was read to its end.");
        this.ringFull = m.counter("ringFull", "Times reading waited because the ring had no room.");
        this.readErrors = m.counter("readErrors", "Errors reading a file or scanning a directory (each logged).");
        this.checkpointWrites = m.counter("checkpointWrites", "Checkpoint files written.");
        this.checkpointErrors = m.counter("checkpointErrors", "Checkpoint files that could not be written (each "
                + "logged; the next interval tries again).");
        this.evictions = m.counter("evictions", "Files closed to stay within max-open-files.");
        m.gauge("files", "Files tracked now.", () -> fileCount);
        m.gauge("openFiles", "Files open now.", () -> openGauge);
        m.gauge("uncommittedBatches", "Publish batches whose lines the sinks have not all made durable yet.",
                () -> uncommittedGauge);
        m.text("checkpointFile", "Where the read positions are kept.", () -> checkpoints.file().toString());
    }

    private static String localHostName() {
        try {
            String h = Files.readString(Paths.get("/proc/sys/kernel/hostname")).trim();
            if (!h.isEmpty()) {
                return h;
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    @Override
    public String name() {
        return cfg.name();
    }

    @Override
    public void start() throws IOException {
        List<Checkpoints.Entry> entries = checkpoints.load(); // an unreadable checkpoint fails the start
        firstStart = entries == null;
        saved = new HashMap<>();
        unclaimed = new ArrayList<>();
        continuedAt = new HashMap<>();
        checkpointedAt = new HashMap<>();
        if (entries != null) {
            for (Checkpoints.Entry e : entries) {
                if (e.ino() < 0) {
                    unclaimed.add(e); // read content of a truncated file: only a copy of it can continue it
                } else {
                    saved.put(new TrackedFile.Key(e.dev(), e.ino()), e);
                }
            }
        }
        Files.createDirectories(checkpoints.file().getParent());
        if (cfg.monitor() == FileSourceConfig.Monitor.inotify) {
            watcher = FileSystems.getDefault().newWatchService();
        }
        Thread t = new Thread(this::run, "file-" + cfg.name());
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    @Override
    public String boundAddress() {
        return String.join(",", cfg.paths());
    }

    // ------------------------------------------------------------------------------------------ the reader thread

    private void run() {
        try {
            initialScan = true;
            scan();
            initialScan = false;
            leftover = saved; // entries of files not found (yet): a mount or directory may appear later
            saved = null;
            unclaimed = null;
            continuedAt = null;
            checkpointedAt = null;
            checkpoint(); // at once: a crash before the first interval must not make the next start a first start
            long now = System.nanoTime();
            long scanEvery = watcher != null ? pollInterval * 10 : pollInterval;
            long nextScan = now + scanEvery;
            long lastScan = now;
            long nextRefresh = now + pollInterval;
            long nextCheckpoint = now + cfg.checkpointInterval().nanos();
            long nextTimeouts = now + TIMEOUT_CHECK_NANOS;
            while (!stopReading) {
                boolean read = readRound();
                boolean events = drainEvents(read ? -1 : Math.min(pollInterval, TIMEOUT_CHECK_NANOS));
                now = System.nanoTime();
                if (scanRequested || now - nextScan >= 0 || undecided > 0 && now - lastScan >= pollInterval) {
                    scanRequested = false;
                    scan();
                    lastScan = now;
                    nextScan = now + scanEvery;
                    nextRefresh = now + pollInterval;
                } else if (!read && (events || now - nextRefresh >= 0)) {
                    refreshOpen();
                    nextRefresh = now + pollInterval;
                }
                if (now - nextTimeouts >= 0) {
                    timeouts(now);
                    nextTimeouts = now + TIMEOUT_CHECK_NANOS;
                }
                if (now - nextCheckpoint >= 0) {
                    checkpoint();
                    nextCheckpoint = now + cfg.checkpointInterval().nanos();
                }
            }
        } catch (Throwable e) {
            readErrors.inc();
            LOG.log(Level.ERROR, "source " + cfg.name() + ": reader stopped: " + e, e);
        } finally {
            readingStopped.countDown();
        }
        try {
            while (!closing) { // the ring drains: advance the checkpoint as the sinks complete
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                checkpoint();
            }
            checkpoint();
        } catch (Throwable e) {
            LOG.log(Level.ERROR, "source " + cfg.name() + ": final checkpoint: " + e, e);
        } finally {
            for (TrackedFile f : files) {
                f.close();
            }
            if (watcher != null) {
                try {
                    watcher.close();
                } catch (IOException ignored) {
                    // closing
                }
            }
            closed.countDown();
        }
    }

    /** Reads one chunk from each file that may have more, in turn; true when anything was read. */
    private boolean readRound() {
        int n = files.size();
        boolean any = false;
        for (int k = 0; k < n && !stopReading; k++) {
            TrackedFile f = files.get((roundRobin + k) % n);
            if (!f.readable() || f.waiting()) {
                continue;
            }
            if (!f.isOpen() && !open(f)) {
                continue;
            }
            try {
                if (readChunk(f) > 0) {
                    any = true;
                }
            } catch (IOException e) {
                readErrors.inc();
                LOG.log(Level.WARNING, "source " + cfg.name() + ": reading " + f.path + ": " + e);
                f.atEof = true;
                f.size = f.readOffset;
            }
        }
        roundRobin = n == 0 ? 0 : (roundRobin + 1) % n;
        return any;
    }

    private int readChunk(TrackedFile f) throws IOException {
        long start = f.readOffset;
        chunkBuffer.clear();
        int got = f.channel.read(chunkBuffer, start);
        if (got > 0 && unit == 2 && (got & 1) == 1) {
            got--; // a code unit cut by a writer in progress: read again next time
        }
        if (got <= 0) {
            f.atEof = true;
            f.size = Math.max(f.size, start);
            return 0;
        }
        if (f.fpLength > 0 && start >= f.fpLength && fingerprint.of(f.channel, f.fpLength) != f.fp) {
            // truncated (copytruncate) and written again, maybe before this read: what was read may be the new
            // content, so it is dropped; the scan reads the file again from 0 and a copy continues the old content
            f.atEof = true;
            f.size = 0;
            scanRequested = true;
            return 0;
        }
        long now = System.nanoTime();
        f.readOffset = start + got;
        f.atEof = got < chunk.length;
        f.size = Math.max(f.size, f.readOffset);
        f.lastReadNanos = now;
        f.lastGrowthNanos = now;
        if (f.fpLength < Fingerprint.MAX && f.readOffset > f.fpLength) {
            updateFingerprint(f);
        }
        split(f, got, start);
        return got;
    }

    private void updateFingerprint(TrackedFile f) throws IOException {
        setHead(f, fingerprint.head(f.channel, (int) Math.min(Fingerprint.MAX, f.readOffset)));
    }

    /** Sets a file's head and fingerprint, and indexes it once it has {@link #HEAD_KEY} bytes. */
    private void setHead(TrackedFile f, byte[] head) {
        f.head = head;
        f.fpLength = head.length;
        f.fp = fingerprint.crc(head, head.length);
        if (f.headKey < 0 && head.length >= HEAD_KEY) {
            f.headKey = fingerprint.crc(head, HEAD_KEY);
            byHead.computeIfAbsent(f.headKey, k -> new ArrayList<>(1)).add(f);
        }
    }

    private void unindex(TrackedFile f) {
        if (f.headKey >= 0) {
            List<TrackedFile> l = byHead.get(f.headKey);
            if (l != null) {
                l.remove(f);
                if (l.isEmpty()) {
                    byHead.remove(f.headKey);
                }
            }
            f.headKey = -1;
        }
    }

    // ------------------------------------------------------------------------------------------ lines

    /** Splits {@code chunk[0, len)}, read at file offset {@code start}, into lines, and publishes them. */
    private void split(TrackedFile f, int len, long start) {
        int lineStart = 0;
        if (unit == 1) {
            for (int i = indexOfNewline(chunk, 0, len); i >= 0; i = indexOfNewline(chunk, i + 1, len)) {
                line(f, lineStart, i, start + i + 1);
                lineStart = i + 1;
            }
        } else {
            for (int i = 0; i + 1 < len; i += 2) {
                if (chunk[i + (bigEndian ? 1 : 0)] == '\n' && chunk[i + (bigEndian ? 0 : 1)] == 0) {
                    line(f, lineStart, i, start + i + 2);
                    lineStart = i + 2;
                }
            }
        }
        if (lineStart < len && !f.skipping) {
            f.partial.append(chunk, lineStart, len - lineStart);
            if (f.partial.length > maxLine * unit * 2 + 8) { // far past the limit in any encoding: cut now
                flushStaged(f);
                emit(f, f.partial.bytes, 0, f.partial.length, start + len, false);
                f.partial.clear();
                f.skipping = true;
            }
        }
        flushStaged(f);
    }

    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final long LOW_BITS = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;

    /** The index of the first {@code '\n'} in {@code b[from, to)}, or -1; eight bytes per step. */
    static int indexOfNewline(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long x = (long) LONGS.get(b, i) ^ NEWLINES;
            long found = (x - LOW_BITS) & ~x & HIGH_BITS;
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** A complete line: {@code chunk[from, to)} (to = where the newline is), ending at file offset {@code end}. */
    private void line(TrackedFile f, int from, int to, long end) {
        if (f.skipping) { // the rest of a line cut at max-line-size
            f.skipping = false;
            f.partial.clear();
            if (multiLine == FileSourceConfig.MultiLine.none) { // the checkpoint passes the rest with the cut part
                flushStaged(f);
                if (!f.inFlight.isEmpty()) {
                    f.inFlight.add(f.inFlight.lastSeq(), end);
                } else {
                    f.committedOffset = Math.max(f.committedOffset, end);
                    checkpointDirty = true;
                }
            }
            return;
        }
        if (f.partial.length > 0) {
            f.partial.append(chunk, from, to - from);
            flushStaged(f);
            emit(f, f.partial.bytes, 0, f.partial.length, end, false);
            f.partial.clear();
            return;
        }
        emit(f, chunk, from, to - from, end, charset == null && multiLine == FileSourceConfig.MultiLine.none);
    }

    /**
     * One line (without its newline) in the file's encoding: strips a CR, converts to UTF-8, cuts at max-line-size,
     * then stages it (in the chunk: published in a batch) or hands it to the multi-line assembly.
     */
    private void emit(TrackedFile f, byte[] b, int off, int len, long end, boolean inChunk) {
        if (unit == 1 && len > 0 && b[off + len - 1] == '\r') {
            len--;
        } else if (unit == 2 && len > 1 && b[off + len - (bigEndian ? 1 : 2)] == '\r'
                && b[off + len - (bigEndian ? 2 : 1)] == 0) {
            len -= 2;
        }
        if (latin1Input) { // the common legacy case: converted without a String
            latin1.clear();
            for (int i = off; i < off + len; i++) {
                int v = b[i] & 0xFF;
                if (v < 0x80) {
                    latin1.append((byte) v);
                } else {
                    latin1.append((byte) (0xC0 | v >> 6));
                    latin1.append((byte) (0x80 | v & 0x3F));
                }
            }
            b = latin1.bytes;
            off = 0;
            len = latin1.length;
            inChunk = false;
        } else if (charset != null) {
            byte[] utf8 = new String(b, off, len, charset).getBytes(StandardCharsets.UTF_8);
            b = utf8;
            off = 0;
            len = utf8.length;
            inChunk = false;
        }
        if (len > maxLine) {
            truncatedLines.inc();
            len = utf8Prefix(b, off, maxLine);
        }
        if (multiLine == FileSourceConfig.MultiLine.none) {
            if (inChunk) {
                stOff[staged] = off;
                stLen[staged] = len;
                stEnd[staged] = end;
                if (++staged == MAX_BATCH) {
                    flushStaged(f);
                }
            } else {
                flushStaged(f);
                publishOne(f, b, off, len, end);
            }
            return;
        }
        boolean continuation = f.hasPending && isContinuation(b, off, len);
        if (continuation) {
            if (f.pending.length + 1 + len <= maxLine) {
                f.pending.append((byte) '\n');
                f.pending.append(b, off, len);
            } else if (f.pending.length < maxLine) {
                truncatedLines.inc();
                f.pending.append((byte) '\n');
                f.pending.append(b, off, utf8Prefix(b, off, maxLine - f.pending.length));
            }
            f.pendingEnd = end;
            return;
        }
        if (f.hasPending) {
            publishOne(f, f.pending.bytes, 0, f.pending.length, f.pendingEnd);
        }
        f.pending.clear();
        f.pending.append(b, off, len);
        f.pendingEnd = end;
        f.hasPending = true;
    }

    private boolean isContinuation(byte[] b, int off, int len) {
        if (multiLine == FileSourceConfig.MultiLine.indented) {
            return len > 0 && (b[off] == ' ' || b[off] == '\t');
        }
        latin.set(b, off, len);
        return !prefix.reset(latin).lookingAt();
    }

    /** The longest prefix of at most {@code max} bytes that does not cut a UTF-8 sequence. */
    private static int utf8Prefix(byte[] b, int off, int max) {
        int n = max;
        while (n > 0 && (b[off + n] & 0xC0) == 0x80) {
            n--;
        }
        return n == 0 ? max : n;
    }

    // ------------------------------------------------------------------------------------------ publishing

    /** Publishes the lines staged from the chunk in batches of one claim each. */
    private void flushStaged(TrackedFile f) {
        int done = 0;
        while (done < staged) {
            int n = claimable(staged - done);
            if (n <= 0) {
                staged = 0; // forced stop: not published, not checkpointed, read again after the restart
                return;
            }
            long hi = RingClaim.tryClaim(ring, n);
            if (hi < 0) {
                continue;
            }
            long lo = hi - n + 1;
            long now = System.currentTimeMillis();
            long seq = lo;
            long sum = 0;
            try {
                for (; seq <= hi; seq++, done++) {
                    fill(ring.get(seq), f, chunk, stOff[done], stLen[done], now);
                    sum += stLen[done];
                }
            } finally {
                RingClaim.publish(ring, lo, hi, seq);
            }
            f.inFlight.add(hi, stEnd[done - 1]);
            received.add(n);
            bytes.add(sum);
        }
        staged = 0;
    }

    private void publishOne(TrackedFile f, byte[] b, int off, int len, long end) {
        while (true) {
            if (claimable(1) <= 0) {
                return;
            }
            long seq = RingClaim.tryClaim(ring, 1);
            if (seq < 0) {
                continue;
            }
            long filled = seq;
            try {
                fill(ring.get(seq), f, b, off, len, System.currentTimeMillis());
                filled = seq + 1;
            } finally {
                RingClaim.publish(ring, seq, seq, filled);
            }
            f.inFlight.add(seq, end);
            received.inc();
            bytes.add(len);
            return;
        }
    }

    /**
     * How many slots to claim for {@code wanted} messages, waiting while the ring is full; 0 on a forced stop. A full
     * ring is waited out until a quarter of it is free again, so that reading resumes with large batches instead of
     * waking for every few slots the stages free.
     */
    private int claimable(int wanted) {
        if (forced) {
            return 0; // nothing more is published: no offset may pass a line that was dropped
        }
        int n = RingClaim.size(ring, wanted, MAX_BATCH);
        if (n > 0) {
            return n;
        }
        ringFull.inc();
        long park = 50_000;
        while (!forced) {
            LockSupport.parkNanos(park);
            park = Math.min(park * 2, 1_000_000);
            if (ring.remainingCapacity() >= resumeAt) {
                return RingClaim.size(ring, wanted, MAX_BATCH);
            }
        }
        return 0;
    }

    private void fill(LogEvent e, TrackedFile f, byte[] b, int off, int len, long nowMillis) {
        e.clear();
        e.setRaw(b, off, len);
        e.setPeer(host, 0, host.length);
        e.setSource(sourceId, sourceName, hint, 0L);
        e.setReceivedMillis(nowMillis);
        e.fields().set(FILE_NAME, f.pathBytes, 0, f.pathBytes.length, 0);
        if (raw) {
            e.setFieldCopy(LogEvent.HOST, host, 0, host.length);
            e.setFieldCopy(LogEvent.PROGRAM, f.program, 0, f.program.length);
            e.setPri(pri);
        }
    }

    /** Delivers what waits for more: a multi-line message, a last line without newline, when the file is quiet. */
    private void timeouts(long now) {
        List<TrackedFile> done = null;
        for (TrackedFile f : files) {
            if ((f.hasPending || f.partial.length > 0) && now - f.lastGrowthNanos >= multiLineTimeout
                    && f.after == null) {
                deliverHeld(f, false);
            }
            if (f.isGone() && now - f.lastGrowthNanos >= rotateWait && now - f.goneSinceNanos >= rotateWait
                    && atEnd(f)) {
                if (done == null) {
                    done = new ArrayList<>();
                }
                done.add(f);
            }
        }
        if (done != null) {
            for (TrackedFile f : done) {
                finish(f);
            }
        }
        for (Iterator<TrackedFile> it = retired.iterator(); it.hasNext(); ) {
            TrackedFile r = it.next();
            if (now - r.goneSinceNanos >= rotateWait + 10 * pollInterval) { // no copy came: deliver what was read
                it.remove();
                deliverHeld(r, true);
            }
        }
    }

    /** Whether a file was read to its end (fstat when open). */
    private boolean atEnd(TrackedFile f) {
        if (!f.isOpen()) {
            return true;
        }
        try {
            long size = f.channel.size();
            if (size > f.readOffset) {
                f.atEof = false;
                f.size = size;
                return false;
            }
            return true;
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * Publishes a file's multi-line message in progress and its partial last line; {@code closing}: the file is done
     * (a line cut at max-line-size is over too).
     */
    private void deliverHeld(TrackedFile f, boolean closing) {
        if (f.hasPending) {
            publishOne(f, f.pending.bytes, 0, f.pending.length, f.pendingEnd);
            f.pending.clear();
            f.hasPending = false;
        }
        if (f.partial.length > 0 && !f.skipping) {
            partialLines.inc();
            emit(f, f.partial.bytes, 0, f.partial.length, f.readOffset, false);
            f.partial.clear();
            flushStaged(f);
            if (f.hasPending) {
                publishOne(f, f.pending.bytes, 0, f.pending.length, f.pendingEnd);
                f.pending.clear();
                f.hasPending = false;
            }
        }
        if (closing) {
            f.skipping = false;
        }
    }

    // ------------------------------------------------------------------------------------------ files

    private boolean open(TrackedFile f) {
        if (openCount >= maxOpen && !evict(f)) {
            return false;
        }
        FileChannel ch = null;
        try {
            ch = FileChannel.open(f.path, StandardOpenOption.READ);
            BasicFileAttributes a = Files.readAttributes(f.path, BasicFileAttributes.class);
            if (!TrackedFile.Key.of(a.fileKey()).equals(f.key)) { // replaced since the scan: the next scan sees it
                ch.close();
                f.atEof = true;
                f.size = f.readOffset;
                return false;
            }
            f.channel = ch;
            f.openFailed = false;
            openOrder.addLast(f);
            openCount++;
            openGauge = openCount;
            return true;
        } catch (IOException e) {
            if (ch != null) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // read-only
                }
            }
            if (!f.openFailed) {
                f.openFailed = true; // said once; retried at each scan that finds it grown
                readErrors.inc();
                LOG.log(Level.WARNING, "source " + cfg.name() + ": cannot open " + f.path + ": " + e);
            }
            f.atEof = true; // gone or unreadable: the next scan decides
            f.size = f.readOffset;
            return false;
        }
    }

    /**
     * Closes one open file to make room for {@code forFile}: the one opened longest ago among those not rotated
     * away or deleted (those must stay open to be read to their end).
     */
    private boolean evict(TrackedFile forFile) {
        for (int n = openOrder.size(); n > 0; n--) {
            TrackedFile f = openOrder.pollFirst();
            if (!f.isOpen()) {
                continue;
            }
            if (f.isGone() || f == forFile) {
                openOrder.addLast(f);
                continue;
            }
            closeChannel(f);
            evictions.inc();
            return true;
        }
        return false;
    }

    private void closeChannel(TrackedFile f) {
        if (f.isOpen()) {
            openOrder.remove(f);
            f.close();
            openCount--;
            openGauge = openCount;
        }
    }

    /** Learns the sizes of the open files (fstat): what grew is read next. */
    private void refreshOpen() {
        for (TrackedFile f : files) {
            if (f.isOpen()) {
                try {
                    long s = f.channel.size();
                    if (s > f.readOffset) {
                        f.atEof = false;
                    } else if (s < f.readOffset) {
                        scanRequested = true; // truncated: the scan decides what it is now
                    }
                    f.size = s;
                } catch (IOException e) {
                    readErrors.inc();
                }
            }
        }
    }

    /** A file rotated away or deleted, read to its end and quiet for rotate-wait: delivered in full, closed. */
    private void finish(TrackedFile f) {
        deliverHeld(f, true);
        closeChannel(f);
        forget(f);
    }

    private void forget(TrackedFile f) {
        files.remove(f);
        byKey.remove(f.key, f);
        byPath.remove(f.path, f);
        unindex(f);
        fileCount = files.size();
        checkpointDirty = true;
    }

    // ------------------------------------------------------------------------------------------ scanning

    private void scan() {
        Map<Path, BasicFileAttributes> found = new LinkedHashMap<>();
        for (Globs.Glob g : globs) {
            walk(g, found);
        }
        long now = System.nanoTime();
        Map<Path, TrackedFile> movedFrom = formerOwner;
        movedFrom.values().removeIf(t -> !t.isOpen() || t.atEof && t.readOffset >= t.size);
        Map<TrackedFile, Boolean> seen = new java.util.IdentityHashMap<>();
        List<Map.Entry<Path, BasicFileAttributes>> fresh = new ArrayList<>();
        for (Map.Entry<Path, BasicFileAttributes> en : found.entrySet()) {
            Path p = en.getKey();
            BasicFileAttributes a = en.getValue();
            TrackedFile.Key key;
            try {
                key = TrackedFile.Key.of(a.fileKey());
            } catch (RuntimeException e) {
                continue;
            }
            TrackedFile t = byKey.get(key);
            if (t == null || seen.containsKey(t)) { // new (a second hard link is not read twice)
                if (t == null) {
                    fresh.add(en);
                }
                continue;
            }
            seen.put(t, Boolean.TRUE);
            if (!t.path.equals(p)) { // renamed
                rotations.inc();
                movedFrom.put(t.path, t);
                byPath.remove(t.path, t);
                t.setPath(p);
                checkpointDirty = true;
            }
            byPath.put(p, t);
            t.goneSinceNanos = 0;
            t = checkContent(t, p, a, now);
            if (a.size() != t.size) {
                t.sizeChangedNanos = now;
            }
            if (a.size() > t.readOffset) {
                t.atEof = false;
            }
            t.size = a.size();
        }
        for (int i = files.size() - 1; i >= 0; i--) {
            TrackedFile t = files.get(i);
            if (seen.containsKey(t)) {
                continue;
            }
            if (!t.isGone()) {
                rotations.inc();
                t.goneSinceNanos = now;
                movedFrom.put(t.path, t);
                byPath.remove(t.path, t);
            }
            if (!t.isOpen()) { // cannot be read any more
                deletedUnread.add(Math.max(0, t.size - t.readOffset));
                deliverHeld(t, true);
                forget(t);
            }
        }
        if (initialScan && saved != null && !saved.isEmpty()) { // files known by inode before copies claim entries
            fresh.sort(java.util.Comparator.comparing(en -> saved.containsKey(keyOf(en.getValue())) ? 0 : 1));
        }
        for (Map.Entry<Path, BasicFileAttributes> en : fresh) {
            track(en.getKey(), en.getValue(), movedFrom.remove(en.getKey()), now);
        }
        if (initialScan && saved != null) {
            resolveAtStart(now);
        }
        int pendingDecisions = 0;
        for (int i = 0; i < files.size(); i++) {
            TrackedFile t = files.get(i);
            if (t.settling) {
                settle(t, now);
            }
            if (t.copyOf != null) {
                TrackedFile orig = t.copyOf;
                if (retired.contains(orig) && t.size >= orig.readOffset) { // the original was truncated
                    adopt(t, orig);
                    t = orig;
                } else if (t.isGone() || !retired.contains(orig) && now - t.heldSinceNanos >= rotateWait
                        || t.head.length < Fingerprint.MAX && t.sizeChangedNanos == now && !stillLike(t, orig)) {
                    t.copyOf = null; // the original outlived it, it went, or it grew unlike it: a file of its own
                }
            }
            if (t.settling || t.copyOf != null) {
                pendingDecisions++;
            }
        }
        undecided = pendingDecisions;
        fileCount = files.size();
    }

    /**
     * Checks that a known file still holds what was read of it; if it shrank below the read offset or its first
     * bytes changed (copytruncate, or a rewrite), it is read again from 0, and what was read of the old content
     * waits in {@link #retired} for a copy of it to continue.
     */
    private TrackedFile checkContent(TrackedFile t, Path p, BasicFileAttributes a, long now) {
        long modified = a.lastModifiedTime().toMillis();
        boolean shrank = a.size() < t.readOffset;
        boolean changed = modified != t.lastModified;
        t.lastModified = modified;
        if (!shrank && !(changed && t.fpLength > 0 && !fingerprintMatches(p, t))) {
            return t;
        }
        truncations.inc();
        TrackedFile fresh = new TrackedFile(t.key, p, t.program);
        fresh.channel = t.channel;
        t.channel = null;
        if (fresh.channel != null) {
            openOrder.remove(t);
            openOrder.addLast(fresh);
        }
        fresh.lastModified = modified;
        fresh.lastGrowthNanos = now;
        int i = files.indexOf(t);
        files.set(i, fresh);
        byKey.put(t.key, fresh);
        byPath.put(p, fresh);
        unindex(t);
        t.goneSinceNanos = now;
        retired.add(t);
        checkpointDirty = true;
        return fresh;
    }

    private boolean fingerprintMatches(Path p, TrackedFile t) {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            return fingerprint.of(ch, t.fpLength) == t.fp;
        } catch (IOException e) {
            return true; // unreadable now: judge it at the next scan
        }
    }

    private static TrackedFile.Key keyOf(BasicFileAttributes a) {
        try {
            return TrackedFile.Key.of(a.fileKey());
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Starts tracking a file the scan found: where to begin (checkpoint, copy of another, start-at, 0). */
    private void track(Path p, BasicFileAttributes a, TrackedFile previousAtPath, long now) {
        TrackedFile.Key key = TrackedFile.Key.of(a.fileKey());
        TrackedFile t = new TrackedFile(key, p, program(p));
        t.size = a.size();
        t.lastModified = a.lastModifiedTime().toMillis();
        t.lastGrowthNanos = now;
        long start = 0;
        if (initialScan && saved != null) {
            Checkpoints.Entry e = saved.remove(key);
            if (e != null && matches(e, p, a.size())) {
                start = e.offset() <= a.size() ? e.offset() : 0;
                t.fpLength = e.fpLength();
                t.fp = e.fp();
                continues(e, t);
            } else {
                Checkpoints.Entry copy = savedCopy(p, a.size());
                if (e != null) {
                    unclaimed.add(e); // truncated while stopped: a copy of what it held may still be found
                }
                if (copy != null) {
                    start = copy.offset();
                    t.fpLength = copy.fpLength();
                    t.fp = copy.fp();
                    continues(copy, t);
                } else if (firstStart && cfg.startAt() == FileSourceConfig.StartAt.end) {
                    start = a.size();
                }
            }
        } else if (!initialScan && leftover.containsKey(key) && matches(leftover.get(key), p, a.size())) {
            Checkpoints.Entry e = leftover.remove(key); // known before the start: where it was
            start = e.offset();
            t.fpLength = e.fpLength();
            t.fp = e.fp();
            checkpointDirty = true;
        } else if (!initialScan) {
            t.settling = true; // read once known not to be a copy in progress of a known file
            t.sizeChangedNanos = now;
            t.heldSinceNanos = now;
        }
        if (unit == 2) {
            start &= ~1L; // a code unit boundary
        }
        t.readOffset = start;
        t.committedOffset = start;
        if (previousAtPath != null && previousAtPath.isOpen()) {
            t.after = previousAtPath; // rename + create: the old file first, to its end
        }
        register(t);
    }

    private void register(TrackedFile t) {
        files.add(t);
        byKey.put(t.key, t);
        byPath.put(t.path, t);
        if (t.size > 0 && !t.settling) {
            loadHead(t);
        }
        fileCount = files.size();
        checkpointDirty = true;
    }

    /** Reads the head of a file found at start (its fingerprint, if the checkpoint gave one, must match). */
    private void loadHead(TrackedFile t) {
        try (FileChannel ch = FileChannel.open(t.path, StandardOpenOption.READ)) {
            byte[] head = fingerprint.head(ch, Fingerprint.MAX);
            if (t.fpLength == 0 || head.length >= t.fpLength && fingerprint.crc(head, t.fpLength) == t.fp) {
                setHead(t, head);
            }
        } catch (IOException e) {
            // gone meanwhile: the next scan sees it
        }
    }

    /**
     * Decides about a file found while running: a copy (in progress) of a known or truncated file is held until its
     * original was truncated; any other file is read from its start. A file shorter than {@link #HEAD_KEY} bytes
     * waits until it stopped growing for a poll interval (a copy being written grows on).
     */
    private void settle(TrackedFile t, long now) {
        byte[] head;
        try (FileChannel ch = FileChannel.open(t.path, StandardOpenOption.READ)) {
            head = fingerprint.head(ch, Fingerprint.MAX);
        } catch (IOException e) {
            t.settling = false; // gone (the next scan forgets it) or unreadable (open reports it)
            return;
        }
        if (head.length < HEAD_KEY && now - t.sizeChangedNanos < pollInterval) {
            return;
        }
        t.settling = false;
        TrackedFile orig = copyCandidate(t, head);
        t.head = head; // compared again as it grows while held; set for good once it is read
        if (orig != null) {
            t.copyOf = orig;
            t.heldSinceNanos = now;
        }
    }

    /** Whether a held file still begins like {@code orig} now that it grew (a header alike is not a copy). */
    private boolean stillLike(TrackedFile t, TrackedFile orig) {
        try (FileChannel ch = FileChannel.open(t.path, StandardOpenOption.READ)) {
            t.head = fingerprint.head(ch, Fingerprint.MAX);
            return sameStart(orig.head, t.head);
        } catch (IOException e) {
            return true;
        }
    }

    /** A retired or live file that begins with what {@code head} holds (or the reverse): {@code t} may copy it. */
    private TrackedFile copyCandidate(TrackedFile t, byte[] head) {
        for (TrackedFile r : retired) {
            if (sameStart(r.head, head)) {
                return r;
            }
        }
        if (head.length >= HEAD_KEY) {
            List<TrackedFile> live = byHead.get(fingerprint.crc(head, HEAD_KEY));
            if (live != null) {
                for (TrackedFile l : live) {
                    if (l != t && sameStart(l.head, head)) {
                        return l;
                    }
                }
            }
        }
        return null;
    }

    private static boolean sameStart(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        return n > 0 && n >= Math.min(HEAD_KEY, Math.max(a.length, b.length))
                && java.util.Arrays.equals(a, 0, n, b, 0, n);
    }

    /** Whether the file at {@code p} (of {@code size} bytes) has the fingerprint the entry saved, and its offset. */
    private boolean matches(Checkpoints.Entry e, Path p, long size) {
        return e.offset() <= size && (e.fpLength() == 0 || e.fpLength() <= size && crcOf(p, e.fpLength()) == e.fp());
    }

    /** A checkpoint entry (not matched by inode) of which the file is a copy. */
    private Checkpoints.Entry savedCopy(Path p, long size) {
        Checkpoints.Entry e = copyOf(unclaimed.iterator(), p, size);
        return e != null || saved.size() > 1000 ? e : copyOf(saved.values().iterator(), p, size);
    }

    private Checkpoints.Entry copyOf(Iterator<Checkpoints.Entry> it, Path p, long size) {
        while (it.hasNext()) {
            Checkpoints.Entry e = it.next();
            if (e.fpLength() >= 16 && e.fpLength() <= size && e.offset() <= size && crcOf(p, e.fpLength()) == e.fp()) {
                it.remove();
                return e;
            }
        }
        return null;
    }

    /** At start: {@code t} continues the entry {@code e}; when it is not at {@code e}'s path, the file there waits. */
    private void continues(Checkpoints.Entry e, TrackedFile t) {
        Path at = Path.of(e.path());
        if (!at.equals(t.path) && !continuedAt.containsKey(at)) {
            continuedAt.put(at, t);
            checkpointedAt.put(at, e.lastSeen());
        }
    }

    /** Compressed rotations (logrotate's compress) are not text: never read as a continuation. */
    private static final List<String> COMPRESSED = List.of(".gz", ".bz2", ".xz", ".zst", ".zip", ".lz4", ".z");

    /**
     * After the start's first scan: finishes what files rotated while the router was stopped had left unread. For
     * each checkpoint entry no file at a glob's path claimed, the entry's directory is searched for the file with its
     * device and inode (renamed, under any name) or, failing that, a copy of what it held (copytruncate: a rotated
     * name — the entry's name and a tail such as .1 or -20261207 — with the same fingerprint, at least as long as the
     * entry's offset), which is read on from the entry's offset; then for the generations rotated after it (rotated
     * names, modified since the checkpoint, not compressed, not tracked), read from their start, oldest first. The file now at the entry's path
     * reads after all of them. None of these match the globs: each is read to its end and then let go, as a file
     * rotated away while running.
     */
    private void resolveAtStart(long now) {
        List<Checkpoints.Entry> left = new ArrayList<>(unclaimed);
        left.addAll(saved.values());
        Map<Path, List<Map.Entry<Path, BasicFileAttributes>>> listed = new HashMap<>(); // one listing per directory
        for (Checkpoints.Entry e : left) {
            Path at = Path.of(e.path());
            Path parent = at.getParent();
            // only the paths this configuration tails: an entry of a file no longer configured (kept a day as a
            // leftover) is not read again from a directory search
            if (parent == null || !configured(at) || e.fpLength() == 0 || !Files.isDirectory(parent)) {
                continue;
            }
            List<Map.Entry<Path, BasicFileAttributes>> all = listed.computeIfAbsent(parent, this::siblings);
            List<Map.Entry<Path, BasicFileAttributes>> candidates = rotatedNames(all, at.getFileName().toString());
            TrackedFile first = null;
            for (Map.Entry<Path, BasicFileAttributes> c : all) { // the same inode, unchanged: renamed (any name)
                BasicFileAttributes a = c.getValue();
                TrackedFile.Key k = keyOf(a);
                if (e.ino() >= 0 && k != null && !byKey.containsKey(k) && k.equals(new TrackedFile.Key(e.dev(), e.ino()))
                        && matches(e, c.getKey(), a.size())) {
                    first = continueAway(e, c.getKey(), a, now);
                    break;
                }
            }
            for (int i = 0; first == null && i < candidates.size(); i++) { // a copy of its content
                Map.Entry<Path, BasicFileAttributes> c = candidates.get(i);
                long size = c.getValue().size();
                TrackedFile.Key k = keyOf(c.getValue());
                if (k != null && !byKey.containsKey(k) && e.fpLength() >= 16 && e.fpLength() <= size
                        && e.offset() <= size && crcOf(c.getKey(), e.fpLength()) == e.fp()) {
                    first = continueAway(e, c.getKey(), c.getValue(), now);
                }
            }
            if (first != null) {
                saved.remove(new TrackedFile.Key(e.dev(), e.ino()), e);
                unclaimed.remove(e);
                continues(e, first);
            }
        }
        for (Map.Entry<Path, TrackedFile> c : continuedAt.entrySet()) {
            Path at = c.getKey();
            TrackedFile first = c.getValue();
            TrackedFile atPath = byPath.get(at);
            TrackedFile prev = first;
            if (at.getParent() == null) {
                continue;
            }
            // the generations rotated after it while the router was stopped, oldest first: read from their start
            List<Map.Entry<Path, BasicFileAttributes>> gens = rotatedNames(
                    listed.computeIfAbsent(at.getParent(), this::siblings), at.getFileName().toString());
            gens.sort(java.util.Comparator.comparing(g -> g.getValue().lastModifiedTime()));
            for (Map.Entry<Path, BasicFileAttributes> g : gens) {
                BasicFileAttributes a = g.getValue();
                TrackedFile.Key k = keyOf(a);
                long modified = a.lastModifiedTime().toMillis();
                if (k == null || k.equals(first.key) || saved.containsKey(k) || modified < first.lastModified
                        || modified < checkpointedAt.get(at)) {
                    continue;
                }
                TrackedFile known = byKey.get(k);
                if (known == null) {
                    known = away(k, g.getKey(), a, at, 0, now); // outside the globs
                } else if (known == atPath || known.readOffset != 0 || known.after != null || waitsFor(prev, known)) {
                    continue; // tracked on its own account
                }
                if (prev.isOpen() || open(prev)) {
                    known.after = prev;
                }
                prev = known;
            }
            if (atPath != null && atPath != prev && atPath.after == null && !waitsFor(prev, atPath)
                    && (prev.isOpen() || open(prev))) {
                atPath.after = prev; // the file now at the path, after what the old ones left
            }
        }
    }

    /** Whether {@code t} already waits, through its chain of {@code after}, for {@code other} (no cycle is made). */
    private static boolean waitsFor(TrackedFile t, TrackedFile other) {
        int hops = 0;
        for (TrackedFile x = t; x != null && hops < 10_000; x = x.after, hops++) {
            if (x == other) {
                return true;
            }
        }
        return false;
    }

    /** Whether a glob of this configuration matches {@code p} and no exclude does. */
    private boolean configured(Path p) {
        for (Globs.Glob g : globs) {
            if (g.matches(p)) {
                return !excluded(p);
            }
        }
        return false;
    }

    /** A rotated name's tail after the original name: {@code .1}, {@code -20261207}, {@code .2026-12-07}, {@code _3}. */
    private static final java.util.regex.Pattern ROTATED_TAIL = java.util.regex.Pattern.compile("[._-].*\\d.*");

    /** Those of {@code files} named {@code name} + a rotation's tail ({@link #ROTATED_TAIL}). */
    private static List<Map.Entry<Path, BasicFileAttributes>> rotatedNames(List<Map.Entry<Path, BasicFileAttributes>> files,
                                                                       String name) {
        List<Map.Entry<Path, BasicFileAttributes>> out = new ArrayList<>();
        for (Map.Entry<Path, BasicFileAttributes> f : files) {
            String n = f.getKey().getFileName().toString();
            if (n.length() > name.length() && n.startsWith(name) && ROTATED_TAIL.matcher(n.substring(name.length()))
                    .matches()) {
                out.add(f);
            }
        }
        return out;
    }

    /** The regular files of {@code dir}, not excluded and not compressed (at most 10,000). */
    private List<Map.Entry<Path, BasicFileAttributes>> siblings(Path dir) {
        List<Map.Entry<Path, BasicFileAttributes>> out = new ArrayList<>();
        try (java.util.stream.Stream<Path> list = Files.list(dir)) {
            for (Iterator<Path> it = list.iterator(); it.hasNext() && out.size() < 10_000; ) {
                Path p = it.next();
                String lower = p.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
                if (excluded(p) || COMPRESSED.stream().anyMatch(lower::endsWith)) {
                    continue;
                }
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                    if (a.isRegularFile()) {
                        out.add(Map.entry(p, a));
                    }
                } catch (IOException e) {
                    // gone meanwhile
                }
            }
        } catch (IOException e) {
            readErrors.inc();
            LOG.log(Level.WARNING, "source " + cfg.name() + ": listing " + dir + " for rotated files: " + e);
        }
        return out;
    }

    /** Tracks the file at {@code p} (outside the globs) from the entry {@code e}'s offset, opened at once. */
    private TrackedFile continueAway(Checkpoints.Entry e, Path p, BasicFileAttributes a, long now) {
        TrackedFile t = away(keyOf(a), p, a, Path.of(e.path()), e.offset(), now);
        t.fpLength = e.fpLength();
        t.fp = e.fp();
        LOG.log(Level.INFO, "source " + cfg.name() + ": " + e.path() + " was rotated while stopped; reading on in " + p
                + " from offset " + e.offset());
        return t;
    }

    /**
     * Registers a file found away from the globs at start (a rotated generation), reading from {@code start}, as gone
     * (finished at its end), and opens it (a gone file that is not open is forgotten by the next scan).
     */
    private TrackedFile away(TrackedFile.Key key, Path p, BasicFileAttributes a, Path originalPath, long start,
                             long now) {
        TrackedFile t = new TrackedFile(key, p, program(originalPath));
        t.size = a.size();
        t.lastModified = a.lastModifiedTime().toMillis();
        t.lastGrowthNanos = now;
        t.goneSinceNanos = now;
        if (unit == 2) {
            start &= ~1L;
        }
        t.readOffset = start;
        t.committedOffset = start;
        rotations.inc();
        register(t);
        open(t);
        return t;
    }

    /** The copy {@code copy} continues the truncated {@code orig}: it takes over its positions and line state. */
    private void adopt(TrackedFile copy, TrackedFile orig) {
        retired.remove(orig);
        copiesFollowed.inc();
        orig.key = copy.key;
        orig.setPath(copy.path);
        orig.channel = copy.channel; // normally null: the copy was held, not read
        orig.size = copy.size;
        orig.lastModified = copy.lastModified;
        orig.goneSinceNanos = 0;
        orig.atEof = false;
        orig.copyOf = null;
        orig.sizeChangedNanos = copy.sizeChangedNanos;
        unindex(copy);
        setHead(orig, orig.head);
        int i = files.indexOf(copy);
        files.set(i, orig);
        byKey.put(orig.key, orig);
        byPath.put(orig.path, orig);
        checkpointDirty = true;
    }

    private long crcOf(Path p, int len) {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            return fingerprint.of(ch, len);
        } catch (IOException e) {
            return -2;
        }
    }

    private byte[] program(Path p) {
        String name = cfg.program() != null ? cfg.program() : p.getFileName().toString();
        return name.getBytes(StandardCharsets.UTF_8);
    }

    private void walk(Globs.Glob g, Map<Path, BasicFileAttributes> found) {
        Path base = g.base();
        if (!Files.isDirectory(base)) {
            watchNearestAncestor(base);
            return;
        }
        try {
            Files.walkFileTree(base, EnumSet.of(FileVisitOption.FOLLOW_LINKS), g.maxDepth(),
                    new SimpleFileVisitor<>() {
                        @Override
                        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                            watch(dir);
                            return FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                            if (attrs.isRegularFile() && g.matches(file) && !excluded(file)) {
                                found.putIfAbsent(file, attrs);
                            }
                            return FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFileFailed(Path file, IOException e) {
                            return FileVisitResult.CONTINUE; // deleted meanwhile, or unreadable
                        }
                    });
        } catch (IOException e) {
            readErrors.inc();
            LOG.log(Level.WARNING, "source " + cfg.name() + ": scanning " + base + ": " + e);
        }
    }

    private boolean excluded(Path p) {
        for (Globs.Glob x : excludes) {
            if (x.matches(p)) {
                return true;
            }
        }
        Path name = p.getFileName();
        for (java.nio.file.PathMatcher m : excludeNames) {
            if (m.matches(name)) {
                return true;
            }
        }
        return false;
    }

    private void watch(Path dir) {
        if (watcher == null || watched.containsKey(dir)) {
            return;
        }
        try {
            watched.put(dir, dir.register(watcher, StandardWatchEventKinds.ENTRY_CREATE,
                    StandardWatchEventKinds.ENTRY_DELETE, StandardWatchEventKinds.ENTRY_MODIFY));
        } catch (IOException | ClosedWatchServiceException e) {
            // too many watches (fs.inotify.max_user_watches), or gone: the periodic scan covers it
        }
    }

    private void watchNearestAncestor(Path p) {
        Path d = p.getParent();
        while (d != null && !Files.isDirectory(d)) {
            d = d.getParent();
        }
        if (d != null) {
            watch(d);
        }
    }

    /**
     * Takes the WatchService's events (waiting up to {@code waitNanos} for the first when it is not negative): a
     * created, deleted or renamed entry asks for a scan, a modification only wakes the reader. In poll mode,
     * waits. Returns whether any event came.
     */
    private boolean drainEvents(long waitNanos) throws InterruptedException {
        if (watcher == null) {
            if (waitNanos > 0) {
                LockSupport.parkNanos(waitNanos);
            }
            return false;
        }
        WatchKey k = waitNanos > 0 ? watcher.poll(waitNanos, TimeUnit.NANOSECONDS) : watcher.poll();
        boolean any = false;
        while (k != null) {
            any = true;
            for (WatchEvent<?> ev : k.pollEvents()) {
                if (ev.kind() != StandardWatchEventKinds.ENTRY_MODIFY) {
                    scanRequested = true;
                }
            }
            if (!k.reset()) {
                watched.values().remove(k);
                scanRequested = true;
            }
            k = watcher.poll();
        }
        return any;
    }

    // ------------------------------------------------------------------------------------------ checkpoint

    private void checkpoint() {
        long done = completed.getAsLong();
        long inFlight = 0;
        for (TrackedFile f : files) {
            if (f.advance(done)) {
                checkpointDirty = true;
            }
            inFlight += f.inFlight.size();
        }
        for (TrackedFile r : retired) {
            r.advance(done);
        }
        uncommittedGauge = inFlight;
        if (!checkpointDirty) {
            return;
        }
        long nowMillis = System.currentTimeMillis();
        List<Checkpoints.Entry> entries = new ArrayList<>(files.size());
        for (TrackedFile f : files) {
            if (f.copyOf == null && !f.settling) {
                entries.add(new Checkpoints.Entry(f.path.toString(), f.key.dev(), f.key.ino(), f.fpLength, f.fp,
                        f.committedOffset, nowMillis));
            } else if (f.copyOf != null && f.copyOf.fpLength > 0) {
                // a copy held for its original: after a restart it goes on where the original was
                TrackedFile o = f.copyOf;
                entries.add(new Checkpoints.Entry(f.path.toString(), f.key.dev(), f.key.ino(), o.fpLength, o.fp,
                        o.committedOffset, nowMillis));
            }
        }
        for (TrackedFile r : retired) {
            boolean held = false;
            for (TrackedFile f : files) {
                held |= f.copyOf == r;
            }
            if (!held && r.fpLength > 0) { // truncated, no copy yet: one found after a restart goes on from here
                entries.add(new Checkpoints.Entry(r.path.toString(), r.key.dev(), -1, r.fpLength, r.fp,
                        r.committedOffset, nowMillis));
            }
        }
        for (Iterator<Checkpoints.Entry> it = leftover.values().iterator(); it.hasNext(); ) {
            Checkpoints.Entry e = it.next();
            if (nowMillis - e.lastSeen() > LEFTOVER_MILLIS) {
                it.remove();
            } else {
                entries.add(e);
            }
        }
        try {
            checkpoints.save(entries);
            checkpointWrites.inc();
            checkpointDirty = false;
        } catch (IOException e) {
            checkpointErrors.inc();
            LOG.log(Level.WARNING, "source " + cfg.name() + ": writing " + checkpoints.file() + ": " + e);
        }
    }

    // ------------------------------------------------------------------------------------------ lifecycle

    @Override
    public void stopAccepting() {
        stopReading = true;
    }

    @Override
    public boolean awaitPublished(long timeout, TimeUnit unit) throws InterruptedException {
        stopReading = true;
        return thread == null || readingStopped.await(timeout, unit);
    }

    /** Writes the last checkpoint (after the ring drained: everything published is then durable) and closes. */
    @Override
    public synchronized void close() {
        stopReading = true;
        closing = true;
        Thread t = thread;
        if (t == null) {
            return;
        }
        try {
            if (!readingStopped.await(5, TimeUnit.SECONDS)) {
                forced = true; // a reader waiting for room in a ring that no longer drains
            }
            if (closed.await(30, TimeUnit.SECONDS)) {
                checkpoint(); // the reader has ended (the latch orders its writes before this): advance once more,
                              // so a close before the ring drained is followed by one that saves what it drained
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A byte array seen as Latin-1 characters, for the multi-line prefix regexp without a copy. */
    private static final class LatinView implements CharSequence {
        private byte[] b;
        private int off;
        private int len;

        void set(byte[] b, int off, int len) {
            this.b = b;
            this.off = off;
            this.len = len;
        }

        @Override
        public int length() {
            return len;
        }

        @Override
        public char charAt(int i) {
            return (char) (b[off + i] & 0xFF);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new String(b, off + start, end - start, StandardCharsets.ISO_8859_1);
        }

        @Override
        public String toString() {
            return new String(b, off, len, StandardCharsets.ISO_8859_1);
        }
    }
}
