package dev.logrouter.sinks.file;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.OpenFiles;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.template.PathKey;
import dev.logrouter.core.template.PathValueEscaper;
import dev.logrouter.core.template.Template;
import dev.logrouter.core.util.Clock;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes each event as a line (the line template) to the file its path template names. Lines are
 * buffered per file and written with one {@code write} per file per batch; files stay open in an LRU
 * cache of {@code max-open-files}, are closed after {@code idle-close}, and their directories are
 * created on demand.
 *
 * <p>Path safety: every value substituted into the path goes through {@link PathValueEscaper}, so it
 * stays inside one path component; the base directory is the template's text before its first macro,
 * and a rendered path that still normalises outside it (only possible through the literal text) is
 * refused, counted and written to {@code <base>/invalid-path.log} instead.
 *
 * <p>Threads: every method runs on the sink's own thread.
 */
public final class FileSink implements Sink {

    /** Where lines go whose rendered path is refused, inside the base directory. */
    static final String INVALID_PATH_FILE = "invalid-path.log";

    private final FileSinkConfig cfg;
    private final Template lineTemplate;
    private final Path baseDir;
    private final Clock clock;

    private final OpenFiles<OpenFile> files;
    private final List<OpenFile> dirty = new ArrayList<>();
    private long lastSyncNanos;
    private long lastSweepNanos;

    private final Counter opened;
    private final Counter closedIdle;
    private final Counter evicted;
    private final Counter fsyncs;
    private final Counter rejectedPaths;

    public FileSink(FileSinkConfig cfg, ZoneId zone, Clock clock, MetricGroup metrics) {
        this.cfg = cfg;
        // no rendered path is a NUL byte: the key of invalid-path.log cannot be taken by another path
        this.files = new OpenFiles<>(Template.compile(cfg.path(), zone), PathValueEscaper.INSTANCE, new byte[] {0});
        this.lineTemplate = Template.compile(cfg.template(), zone);
        this.baseDir = baseDirectory(cfg.path());
        this.clock = clock;
        // nanoTime has an arbitrary origin (it may be negative): intervals count from the sink's start
        this.lastSyncNanos = clock.nanoTime();
        this.lastSweepNanos = this.lastSyncNanos;
        this.opened = metrics.counter("filesOpened", "Files opened (or reopened after an idle close).");
        this.closedIdle = metrics.counter("filesClosedIdle", "Files closed after idle-close without writes.");
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

    @Override
    public long append(LogEvent event) throws IOException {
        OpenFile f = fileFor(event);
        int before = f.buffer.length();
        lineTemplate.render(event, f.buffer);
        if (!f.dirty) {
            f.dirty = true;
            dirty.add(f);
        }
        return f.buffer.length() - before;
    }

    private OpenFile fileFor(LogEvent event) throws IOException {
        OpenFile f = files.find(event);
        if (f == null) {
            f = open(files.probe().copy(), files.rendered());
            files.remember(f);
        }
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
            // and the sink handler retries (a sink-wide problem such as a full disk)
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
     * fails leaves it open, in the cache and with its lines in the batch, to be tried again (or given up with the
     * batch).
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
        f.channel.close();
    }

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
     * The handler gave the batch up (max-retries): each file's lines not yet written become one dead letter (target:
     * the file), and the batch is empty.
     */
    @Override
    public void deadLetterBatch(DeadLetterFile deadLetters, String reason) {
        for (int i = 0; i < dirty.size(); i++) {
            dirty.get(i).deadLetter(deadLetters, reason);
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

    @Override
    public void close() throws IOException {
        IOException first = null;
        try {
            flush();
        } catch (IOException e) {
            first = e;
        }
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
        if (first != null) {
            throw first;
        }
    }
}
