package dev.logrouter.sinks.file;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.OpenFiles;
import dev.logrouter.core.sink.SinkDelivery;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.PathKey;
import dev.logrouter.core.template.Template;
import dev.logrouter.core.template.ValueEscaper;
import dev.logrouter.core.util.Clock;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The delivery half of the file sink: each record ({@link FileEncoder}: a rendered path and a line) is appended to
 * its file's buffer; a flush writes each buffer with one {@code write} per file and fsyncs per policy. Files stay
 * open in an LRU cache of {@code max-open-files} ({@link OpenFiles}), are closed after {@code idle-close}, and their
 * directories are created on demand.
 *
 * <p>Finding a record's file allocates nothing: the record's path is compared in place with the last one (consecutive
 * records mostly share a file); a different path is looked up by its bytes in the {@link OpenFiles} cache (no template
 * rendered: the encoder escaped the values already). Only a path not open yet costs a key, a String and a
 * {@link Path}. The
 * line is copied once, from the record into its file's buffer.
 *
 * <p>Path safety: every value substituted into the path was escaped by the encoder
 * ({@link dev.logrouter.core.template.PathValueEscaper}), so it stays inside one path component; the base directory
 * is the path template's text before its first macro, and a path that still normalises outside it (only possible
 * through the literal text, or a journal written under another {@code path}) is refused when the file is opened,
 * counted ({@code rejectedPaths}) and its lines go to {@code <base>/invalid-path.log} instead; so does a path the
 * file system refuses (name too long, a file where a directory should be, no permission). When even
 * {@code invalid-path.log} cannot be opened (an unwritable base directory, a full disk), {@link #add} throws and is
 * retried.
 *
 * <p>Threads: one thread calls every method: the sink's thread ({@code sink-<name>}) with {@code buffer: memory}, the
 * journaled sink's delivery thread ({@code deliver-<name>}) with {@code buffer: journal}. The {@code openFiles} gauge
 * is read from any thread.
 */
final class FileDelivery implements SinkDelivery {

    /** Where lines go whose path is refused, inside the base directory. */
    static final String INVALID_PATH_FILE = "invalid-path.log";

    private static final byte[] NO_PREFIX = new byte[0];

    private final FileSinkConfig cfg;
    private final Path baseDir;
    private final Clock clock;
    private final DeadLetterFile deadLetters;

    private final OpenFiles<OpenFile> files;
    /** The path of the last record and its file (null: none, or it was closed). */
    private final ByteBuilder lastPath = new ByteBuilder(256);
    private OpenFile last;
    private final List<OpenFile> dirty = new ArrayList<>();
    private long lastSyncNanos;
    private long lastSweepNanos;

    private final Counter opened;
    private final Counter closedIdle;
    private final Counter reopened;
    private final Counter evicted;
    private final Counter fsyncs;
    private final Counter rejectedPaths;

    /**
     * @param deadLetters where a record that is not a file-sink record goes (a journal written by another sink type)
     */
    FileDelivery(FileSinkConfig cfg, Clock clock, MetricGroup metrics, DeadLetterFile deadLetters) {
        this.cfg = cfg;
        // the records' paths are escaped already: the cache renders them unchanged. No path is one NUL byte (it
        // cannot be opened): the key of invalid-path.log cannot be taken by another path
        this.files = new OpenFiles<>(Template.compile("${MSG}", ZoneOffset.UTC), ValueEscaper.NONE, new byte[] {0});
        this.baseDir = baseDirectory(cfg.path());
        this.clock = clock;
        this.deadLetters = deadLetters;
        // nanoTime has an arbitrary origin (it may be negative): intervals count from the sink's start
        this.lastSyncNanos = clock.nanoTime();
        this.lastSweepNanos = this.lastSyncNanos;
        this.opened = metrics.counter("filesOpened", "Files opened (or reopened after an idle close).");
        this.closedIdle = metrics.counter("filesClosedIdle", "Files closed after idle-close without writes.");
        this.reopened = metrics.counter("filesReopened", "Files closed by an operator's reopen (SIGUSR1, JMX reopen, "
                + "logrouter reopen) to be opened again under their path by the next line.");
        this.evicted = metrics.counter("filesEvicted", "Files closed because max-open-files was reached.");
        this.fsyncs = metrics.counter("fsyncs", "fsync calls.");
        this.rejectedPaths = metrics.counter("rejectedPaths",
                "Events whose rendered path fell outside the base directory; written to invalid-path.log.");
        metrics.gauge("openFiles", "Files open now.", files::size);
    }

    /** The directory part of the template before its first macro: rendered paths must stay inside it. */
    static Path baseDirectory(String pathTemplate) {
        return Path.of(Template.literalDirectory(pathTemplate)).toAbsolutePath().normalize();
    }

    /** Appends the record's line to its file's buffer, opening the file first when it is not open. */
    @Override
    public void add(byte[] record, int off, int len) throws IOException {
        int pathLen = len < 2 ? -1 : FileEncoder.pathLength(record, off);
        if (pathLen < 0 || pathLen > len - 2) {
            deadLetters.write(null, "not a file-sink record (" + len + " bytes)", null, record, off, len);
            return;
        }
        OpenFile f = fileFor(record, off + 2, pathLen);
        int line = off + 2 + pathLen;
        f.buffer.append(record, line, off + len - line);
        if (!f.dirty) {
            f.dirty = true;
            dirty.add(f);
        }
    }

    private OpenFile fileFor(byte[] record, int pathOff, int pathLen) throws IOException {
        if (last != null && lastPath.contentEquals(record, pathOff, pathLen)) {
            return last;
        }
        OpenFile f;
        if (pathLen == 0) {
            f = rejected(); // longer than a record holds: no file system takes it
        } else {
            f = files.find(NO_PREFIX, record, pathOff, pathLen);
            if (f == null) {
                f = open(files.probe().copy(), files.rendered());
                files.remember(f);
            }
        }
        lastPath.reset();
        lastPath.append(record, pathOff, pathLen);
        last = f;
        return f;
    }

    private OpenFile open(PathKey key, String rendered) throws IOException {
        Path p;
        try {
            p = Path.of(rendered).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            return rejected();
        }
        if (!p.startsWith(baseDir) || p.equals(baseDir)) {
            return rejected();
        }
        try {
            return openAt(key, p);
        } catch (FileSystemException e) {
            // this path can never be written (name too long, a file where a directory should be, no
            // permission): the line goes to invalid-path.log; if that fails too, the error propagates
            // and is retried (a sink-wide problem such as a full disk)
            return rejected();
        }
    }

    /** The shared file for lines whose path was refused. */
    private OpenFile rejected() throws IOException {
        rejectedPaths.inc();
        OpenFile f = files.invalid();
        return f != null ? f : openAt(files.invalidKey().copy(), baseDir.resolve(INVALID_PATH_FILE));
    }

    private OpenFile openAt(PathKey key, Path p) throws IOException {
        Path parent = p.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        // room first: an eviction that fails (its lines could not be written) opens nothing
        files.evictBeyond(cfg.maxOpenFiles() - 1, eldest -> {
            closeFile(eldest);
            evicted.inc();
        });
        FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        OpenFile f = new OpenFile(key, p, ch);
        f.lastWriteNanos = clock.nanoTime();
        files.put(key, f);
        opened.inc();
        return f;
    }

    /**
     * Writes out, syncs per policy and closes the file, and only then drops it from the cache: a write or sync that
     * fails leaves it open, in the cache and with its lines pending, to be tried again (or given up with the batch).
     */
    private void closeFile(OpenFile f) throws IOException {
        if (f.dirty) {
            f.writeOut(); // a failure keeps the lines (and what part of them was written)
            dirty.remove(f);
        }
        if (f.unsynced && cfg.fsync() != FsyncPolicy.never) {
            f.channel.force(false);
            f.unsynced = false;
            fsyncs.inc();
        }
        files.remove(f.key, f);
        if (last == f) {
            last = null;
        }
        f.channel.close();
    }

    /** Writes each file's pending lines, then syncs per policy and closes idle files. */
    @Override
    public void flush() throws IOException {
        long now = clock.nanoTime();
        for (int i = 0; i < dirty.size(); i++) {
            OpenFile f = dirty.get(i);
            f.writeOut();
            f.lastWriteNanos = now;
        }
        dirty.clear();
        housekeeping(now);
    }

    /**
     * The caller gave the pending lines up (max-retries): each file's lines not yet written become one dead letter
     * (target: the file), and nothing is pending.
     */
    @Override
    public void deadLetterPending(DeadLetterFile letters, String reason) {
        for (int i = 0; i < dirty.size(); i++) {
            dirty.get(i).deadLetter(letters, reason);
        }
        dirty.clear();
    }

    /** Idle-time housekeeping: a due fsync (policy interval) and closing idle files. */
    @Override
    public void tick() throws IOException {
        housekeeping(clock.nanoTime());
    }

    private void housekeeping(long now) throws IOException {
        boolean sync = switch (cfg.fsync()) {
            case batch -> true;
            case interval -> now - lastSyncNanos >= cfg.fsyncInterval().nanos();
            default -> false;
        };
        if (sync) {
            for (OpenFile f : files.values()) {
                if (f.unsynced) {
                    f.channel.force(false);
                    f.unsynced = false;
                    fsyncs.inc();
                }
            }
            lastSyncNanos = now;
        }
        if (now - lastSweepNanos >= Math.min(cfg.idleClose().nanos(), 1_000_000_000L)) {
            lastSweepNanos = now;
            closeIdle(now);
        }
    }

    private void closeIdle(long now) throws IOException {
        files.sweep(f -> !f.dirty && now - f.lastWriteNanos >= cfg.idleClose().nanos(), f -> {
            closeFile(f);
            closedIdle.inc();
        });
    }

    /**
     * The operator's reopen (SIGUSR1 after logrotate renamed the files): syncs (per policy) and closes every file;
     * the next line for a path creates or opens the file under that path again. Called with nothing pending.
     */
    @Override
    public void reopenFiles() throws IOException {
        int n = files.size();
        close();
        reopened.add(n);
    }

    /**
     * Syncs what was written (per policy) and closes every file. Pending lines are not written (the memory sink
     * flushed before; a journaled sink delivers them again after its next start).
     */
    @Override
    public void close() throws IOException {
        for (int i = 0; i < dirty.size(); i++) {
            dirty.get(i).discard();
        }
        dirty.clear();
        IOException first = null;
        for (OpenFile f : List.copyOf(files.values())) {
            try {
                closeFile(f);
            } catch (IOException e) {
                first = first == null ? e : first;
                try {
                    f.channel.close(); // the sink is closing: its files close whatever failed
                } catch (IOException ignored) {
                    // the first failure is the one reported
                }
            }
        }
        files.clear();
        last = null;
        if (first != null) {
            throw first;
        }
    }
}
