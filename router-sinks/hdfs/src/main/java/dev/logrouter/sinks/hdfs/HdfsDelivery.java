package dev.logrouter.sinks.hdfs;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.OpenFiles;
import dev.logrouter.core.sink.SinkContext;
import dev.logrouter.core.sink.SinkDelivery;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.PathKey;
import dev.logrouter.core.template.PathValueEscaper;
import dev.logrouter.core.template.Template;
import dev.logrouter.core.template.ValueEscaper;
import dev.logrouter.core.util.Clock;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.fs.LeaseRecoverable;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.ipc.RemoteException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The delivery half of the HDFS sink: each record ({@link HdfsEncoder}: a relative path and a line) is decoded, the
 * part file of its path found (or opened) in the cache of open files, and the line added to that path's buffer; a
 * flush is one {@code write} and one {@code hflush} (or {@code hsync}) per path, and returns only when every one of
 * them returned. A record that cannot be decoded (not written by {@link HdfsEncoder}) is dead-lettered.
 *
 * <p>Parts: a path {@code /logs/web1/20261122.log} is written as {@code /logs/web1/20261122-00000.log.tmp} (the
 * in-progress suffix) and renamed to {@code 20261122-00000.log} when the part is complete: at {@code roll-size},
 * {@code roll-interval}, {@code idle-close}, when {@code max-open-files} needs its place, and at stop. The next part
 * of the same path takes the next number; numbers already in the directory are skipped.
 *
 * <p>Failures: a failed write, hflush or close (a lost DataNode, a NameNode restart) marks the part broken and the
 * flush throws, so its caller retries it with backoff (the sink handler holding the ring with {@code buffer: memory};
 * the journal's delivery thread with {@code buffer: journal}). Before the retry writes anything, the broken part is
 * recovered: its lease is recovered (the NameNode closes it), it is cut back ({@code truncate}) to the bytes
 * acknowledged by the last successful hflush, and renamed. Each step that is still in progress throws and is
 * retried. The retry then writes every path's unacknowledged lines into a new part. So every acknowledged line is
 * stored once and no line is stored twice or half.
 *
 * <p>Path safety: the encoder escaped the values substituted into the path ({@link PathValueEscaper#HDFS}), so they
 * stay one name; here the base directory is put back in front, and a path outside it (through the template's
 * literal text) or one HDFS refuses as a name is counted in {@code rejectedPaths} and its line goes to
 * {@code <base>/invalid-path.log} instead.
 *
 * <p>Threads: every method but {@link #abort()} runs on one thread: the sink's ({@code sink-<name>}) with
 * {@code buffer: memory}, the journal's delivery thread ({@code deliver-<name>}) with {@code buffer: journal};
 * {@link #abort()} from any thread; the metrics from any thread.
 */
final class HdfsDelivery implements SinkDelivery {

    private static final Logger LOG = System.getLogger(HdfsDelivery.class.getName());

    /** Where lines go whose rendered path is refused, inside the base directory. */
    static final String INVALID_PATH_FILE = "invalid-path.log";

    /** Errors of a path HDFS can never create (the NameNode names them; some arrive wrapped). */
    private static final Set<String> BAD_PATH_ERRORS = Set.of(
            InvalidPathException.class.getName(),
            ParentNotDirectoryException.class.getName(),
            "org.apache.hadoop.hdfs.protocol.FSLimitException$PathComponentTooLongException",
            "org.apache.hadoop.HadoopIllegalArgumentException");

    /** Errors of a create whose name another writer holds (still open or being recovered): the next number. */
    private static final Set<String> TAKEN_ERRORS = Set.of(
            "org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException",
            "org.apache.hadoop.hdfs.protocol.RecoveryInProgressException");

    /**
     * Hadoop client properties the sink sets unless config-dir or properties does. {@code dfs.client-write-packet-size}
     * 1 MiB instead of Hadoop's 64 KiB: a batch (up to batch-bytes) is written in one call, and the client's cost is
     * mostly per packet (allocating it, queueing it to its streamer thread, the DataNode's receive, checksum check,
     * disk write and ack), so a 2 MB batch costs 2 packets instead of 32 (measured: docs/performance.md, "HDFS end to
     * end"). The DataNode takes packets up to 16 MiB. {@code dfs.client.write.byte-array-manager.enabled} true
     * instead of false: the client then reuses its packet buffers (once a size was asked for 128 times within 10 s)
     * instead of allocating a new one per packet, which was 90 % of the router's heap allocation on this path, about
     * one byte per byte written (measured: docs/performance.md, "Allocation and GC on every path").
     */
    static final Map<String, String> CLIENT_DEFAULTS = Map.of("dfs.client-write-packet-size", "1048576",
            "dfs.client.write.byte-array-manager.enabled", "true");

    /** Most refused paths remembered (so that each costs the NameNode one refusal); forgotten all at once beyond. */
    private static final int MAX_REFUSED = 4096;

    private final HdfsSinkConfig cfg;
    private final String baseDir;
    private final Clock clock;
    private final DeadLetterFile deadLetters;
    private final URI uri;
    private final Configuration conf;
    private final GzipMembers gzip;
    private final String partExtension;
    private volatile FileSystem fs;
    private volatile boolean aborted;

    private final String invalidPath;
    private final PathKey invalidKey;
    private final Set<PathKey> refused = new HashSet<>();
    private final OpenFiles<PartFile> files;
    /** The path template's base directory: the literal text records leave out, put back before a lookup. */
    private final byte[] basePrefix;
    /** The last record's relative path and its file: consecutive records mostly share one (no lookup, no copy). */
    private final ByteBuilder lastPath = new ByteBuilder(256);
    private PartFile lastFile;
    private final List<PartFile> dirty = new ArrayList<>();
    private long lastSweepNanos;
    private int openStreams;

    private final Counter hflushes;
    private final Counter hsyncs;
    private final Counter storedBytes;
    private final Counter partsOpened;
    private final Counter partsCompleted;
    private final Counter rolls;
    private final Counter streamFailures;
    private final Counter recoveries;
    private final Counter truncatedBytes;
    private final Counter evicted;
    private final Counter closedIdle;
    private final Counter rejectedPaths;
    private final Counter housekeepingFailures;

    HdfsDelivery(HdfsSinkConfig cfg, SinkContext ctx) {
        this.cfg = cfg;
        this.baseDir = new Path(Template.literalDirectory(cfg.path())).toUri().getPath();
        this.invalidPath = (baseDir.equals("/") ? "" : baseDir) + "/" + INVALID_PATH_FILE;
        byte[] invalid = invalidPath.getBytes(StandardCharsets.UTF_8);
        // the base has no '$' (it ends before the first macro): literal text; a path equal to the invalid one
        // shares its parts
        String base = cfg.path().substring(0, HdfsEncoder.baseLength(cfg.path()));
        this.basePrefix = base.getBytes(StandardCharsets.UTF_8);
        // looked up by the record's path ({@code find(basePrefix, ...)}); the template is not rendered
        this.files = new OpenFiles<>(Template.compile(base + "${MSG}", ZoneOffset.UTC), ValueEscaper.NONE, invalid);
        this.invalidKey = files.invalidKey();
        this.clock = ctx.clock();
        this.deadLetters = ctx.deadLetters();
        this.uri = URI.create(cfg.uri());
        this.conf = hadoopConfiguration(cfg);
        this.gzip = cfg.compression() == HdfsCompression.gzip ? new GzipMembers() : null;
        this.partExtension = gzip != null ? ".gz" : "";
        this.lastSweepNanos = clock.nanoTime();
        MetricGroup metrics = ctx.metrics();
        this.hflushes = metrics.counter("hflushes", "hflush calls (one per file per batch with sync: hflush).");
        this.hsyncs = metrics.counter("hsyncs", "hsync calls (one per file per batch with sync: hsync).");
        this.storedBytes = metrics.counter("storedBytes", "Bytes written to HDFS and acknowledged (after compression).");
        this.partsOpened = metrics.counter("partsOpened", "Part files created.");
        this.partsCompleted = metrics.counter("partsCompleted",
                "Part files completed: renamed to their final name (or deleted when empty).");
        this.rolls = metrics.counter("rolls", "Parts completed because they reached roll-size or roll-interval.");
        this.streamFailures = metrics.counter("streamFailures",
                "Writes, hflushes or closes that failed; each part is then recovered and the batch written again.");
        this.recoveries = metrics.counter("recoveries",
                "Broken parts recovered (lease recovered, cut back to the acknowledged length, renamed).");
        this.truncatedBytes = metrics.counter("truncatedBytes",
                "Unacknowledged bytes cut from recovered parts (written again in a new part).");
        this.evicted = metrics.counter("filesEvicted", "Parts completed because max-open-files was reached.");
        this.closedIdle = metrics.counter("filesClosedIdle", "Parts completed after idle-close without writes.");
        this.rejectedPaths = metrics.counter("rejectedPaths",
                "Events whose rendered path was outside the base directory or refused by HDFS; written to "
                        + "invalid-path.log.");
        this.housekeepingFailures = metrics.counter("housekeepingFailures",
                "Rolls, renames and idle closes that failed after the batch was durable (tried again later).");
        metrics.gauge("openFiles", "Part files open for writing now.", () -> openStreams);
    }

    /**
     * The Hadoop configuration: Hadoop's defaults, then the sink's {@link #CLIENT_DEFAULTS} for the client properties
     * neither config-dir nor properties sets, then config-dir's core-site.xml and hdfs-site.xml, then properties.
     */
    static Configuration hadoopConfiguration(HdfsSinkConfig cfg) {
        Configuration conf = new Configuration();
        Configuration site = new Configuration(false); // config-dir's files alone: which keys they set
        if (cfg.configDir() != null) {
            java.nio.file.Path dir = java.nio.file.Path.of(cfg.configDir()).toAbsolutePath();
            if (!Files.isDirectory(dir)) {
                throw new IllegalArgumentException("sink " + cfg.name() + ": config-dir " + dir
                        + " is not a directory");
            }
            for (String file : List.of("core-site.xml", "hdfs-site.xml")) {
                java.nio.file.Path f = dir.resolve(file);
                if (Files.isRegularFile(f)) {
                    conf.addResource(new Path(f.toString()));
                    site.addResource(new Path(f.toString()));
                }
            }
        }
        CLIENT_DEFAULTS.forEach((key, value) -> {
            if (site.get(key) == null && !cfg.properties().containsKey(key)) {
                conf.set(key, value);
            }
        });
        cfg.properties().forEach(conf::set);
        return conf;
    }

    /** Connects the FileSystem client (no NameNode call yet: a NameNode that is down shows at the first write). */
    @Override
    public void start() throws IOException, InterruptedException {
        FileSystem f = cfg.user() == null ? FileSystem.newInstance(uri, conf)
                : FileSystem.newInstance(uri, conf, cfg.user());
        if (!(f instanceof LeaseRecoverable)) {
            f.close();
            throw new IOException(uri + " is a " + f.getClass().getSimpleName()
                    + ", which cannot recover a broken part's lease: the HDFS sink needs HDFS");
        }
        fs = f;
    }

    /**
     * Decodes the record and adds its line to its path's buffer (opening the path's part first when it has none).
     * Throws, adding nothing, when the part cannot be opened (the NameNode away): the caller adds the record again.
     */
    @Override
    public void add(byte[] record, int off, int len) throws IOException {
        int end = off + len;
        int p = off;
        int n = 0;
        for (int shift = 0; ; shift += 7) {
            if (p == end || shift > 28) {
                malformed(record, off, len);
                return;
            }
            byte b = record[p++];
            n |= (b & 0x7f) << shift;
            if (b >= 0) {
                break;
            }
        }
        if (n < 0 || n > end - p) {
            malformed(record, off, len);
            return;
        }
        lineBuffer(record, p, n).append(record, p + n, end - p - n);
    }

    /**
     * The buffer of pending lines of the relative path {@code rel[off, off + n)}, its part opened first when it has
     * none; the caller appends one line to it (rendered straight into it by {@link HdfsMemorySink}, copied from the
     * record by {@link #add}). Throws, the line not yet added, when the part cannot be opened.
     */
    ByteBuilder lineBuffer(byte[] rel, int off, int n) throws IOException {
        PartFile f = fileFor(rel, off, n);
        if (!f.dirty) {
            f.dirty = true;
            dirty.add(f);
        }
        return f.buffer;
    }

    /** A record not made by {@link HdfsEncoder} (its path length does not fit): it can never be written. */
    private void malformed(byte[] record, int off, int len) {
        deadLetters.write(null, "not an HDFS sink record (its path length does not fit its " + len + " bytes)",
                null, record, off, len);
    }

    /** The part file of the relative path {@code rel[off, off + n)}, ready for a write. */
    private PartFile fileFor(byte[] rel, int off, int n) throws IOException {
        PartFile f = lastFile != null && lastPath.contentEquals(rel, off, n) ? lastFile : null;
        if (f == null) {
            f = files.find(basePrefix, rel, off, n);
            if (f == null) {
                f = refused.contains(files.probe()) ? rejected() : added(files.probe());
                if (f.key.equals(invalidKey)) {
                    return f; // a refused path is counted for every line, not cached (and was just opened)
                }
                files.remember(f);
            }
            lastPath.reset();
            lastPath.append(rel, off, n);
            lastFile = f;
        }
        if (f.out == null || f.broken) {
            try {
                ensureOpen(f);
            } catch (IOException | IllegalArgumentException e) {
                if (f.key.equals(invalidKey) || f.dirty || f.tmp != null || !badPath(e)) {
                    throw e; // a sink-wide problem (NameNode away, no permission): retried with backoff
                }
                removed(f); // the path became impossible (e.g. a file now stands for its directory)
                refuse(f.key);
                return rejected();
            }
        }
        return f;
    }

    /** Drops {@code f} from the cache of open files (it is no longer found for its path). */
    private void removed(PartFile f) {
        files.remove(f.key, f);
        forget(f);
    }

    private void forget(PartFile f) {
        if (lastFile == f) {
            lastFile = null;
        }
    }

    /** A new path: its part opened, then added to the cache; refused when it leaves the base or HDFS refuses it. */
    private PartFile added(PathKey probe) throws IOException {
        PathKey key = probe.copy();
        String rendered = files.rendered();
        if (!inside(rendered)) {
            refuse(key);
            return rejected();
        }
        PartFile f = new PartFile(key, rendered);
        try {
            ensureOpen(f);
        } catch (IOException | IllegalArgumentException e) {
            if (!badPath(e)) {
                if (f.tmp != null) {
                    files.put(key, f); // a part was created: keep it, so that the retry recovers it
                }
                throw e;
            }
            refuse(key);
            return rejected();
        }
        return add(f);
    }

    private void refuse(PathKey key) {
        if (refused.size() >= MAX_REFUSED) {
            refused.clear();
        }
        refused.add(key);
    }

    /** Whether a rendered path normalises to a path inside the base directory. */
    private boolean inside(String rendered) {
        String p;
        try {
            p = new Path(rendered).toUri().getPath();
        } catch (IllegalArgumentException e) {
            return false;
        }
        return baseDir.equals("/") ? p.length() > 1 : p.startsWith(baseDir + "/");
    }

    private static boolean badPath(Exception e) {
        if (e instanceof IllegalArgumentException || e instanceof InvalidPathException
                || e instanceof ParentNotDirectoryException) {
            return true;
        }
        return e instanceof RemoteException r && BAD_PATH_ERRORS.contains(r.getClassName());
    }

    /** The shared path for lines whose path was refused; failing to open it is a sink-wide error. */
    private PartFile rejected() throws IOException {
        rejectedPaths.inc();
        PartFile f = files.invalid();
        if (f == null) {
            f = new PartFile(invalidKey, invalidPath);
            ensureOpen(f);
            return add(f);
        }
        ensureOpen(f);
        return f;
    }

    /**
     * Adds an opened path to the cache, then completes the least recently used beyond max-open-files. A completion
     * that fails leaves the cache one over (the next addition tries again) and never loses the new path's part.
     */
    private PartFile add(PartFile f) throws IOException {
        files.put(f.key, f);
        files.evictBeyond(cfg.maxOpenFiles(), eldest -> {
            forget(eldest);
            if (eldest.dirty) {
                writeOut(eldest, clock.nanoTime());
                dirty.remove(eldest);
            }
            complete(eldest);
            evicted.inc();
        });
        return f;
    }

    /** Makes {@code f} ready for a write: recovers a broken part, finishes a pending rename, opens a new part. */
    private void ensureOpen(PartFile f) throws IOException {
        if (f.broken) {
            recover(f);
        }
        if (f.out == null && f.tmp != null) {
            finish(f);
        }
        if (f.out == null) {
            openPart(f);
        }
    }

    private void openPart(PartFile f) throws IOException {
        if (f.nextPart < 0) {
            f.nextPart = firstFreePart(f.rendered);
        }
        while (true) {
            Path fin = new Path(partName(f.rendered, f.nextPart, partExtension));
            Path tmp = fin.suffix(cfg.inProgressSuffix());
            f.nextPart++;
            if (fs.exists(fin)) {
                continue; // another writer completed this number: the next one
            }
            FSDataOutputStream out;
            try {
                out = create(tmp);
            } catch (FileAlreadyExistsException e) {
                continue; // another writer (or a previous run) has it: the next number
            } catch (RemoteException e) {
                if (TAKEN_ERRORS.contains(e.getClassName())) {
                    continue;
                }
                throw e;
            }
            f.opened(out, tmp, fin, clock.nanoTime());
            openStreams++;
            partsOpened.inc();
            if (!out.hasCapability(cfg.sync() == HdfsSync.hsync ? StreamCapabilities.HSYNC : StreamCapabilities.HFLUSH)) {
                broken(f); // recovered (renamed empty: deleted) before anything else; the error repeats, retried
                throw new IOException(tmp + " cannot " + cfg.sync() + " (" + out.getWrappedStream().getClass()
                        .getSimpleName() + "): nothing written there could be acknowledged");
            }
            return;
        }
    }

    /**
     * Creates an in-progress part (and its parents), never over an existing file. On HDFS the part is replicated
     * even in an erasure-coded directory: a striped file can neither hflush nor be truncated.
     */
    private FSDataOutputStream create(Path tmp) throws IOException {
        if (fs instanceof DistributedFileSystem dfs) {
            return dfs.createFile(tmp).overwrite(false).recursive().replicate().build();
        }
        return fs.create(tmp, false);
    }

    /**
     * The name of part {@code part} of {@code rendered}: the number goes before the last extension of the file name
     * ({@code 20261122.log} → {@code 20261122-00003.log}), or at the end when there is none.
     */
    static String partName(String rendered, int part, String extension) {
        int at = numberAt(rendered);
        return rendered.substring(0, at) + String.format("-%05d", part) + rendered.substring(at) + extension;
    }

    /** Where the part number goes: before the last extension of the file name, or at its end. */
    private static int numberAt(String rendered) {
        int slash = rendered.lastIndexOf('/');
        int dot = rendered.lastIndexOf('.');
        return dot > slash + 1 ? dot : rendered.length();
    }

    /** One past the highest part number of {@code rendered} in its directory (complete or in progress), or 0. */
    private int firstFreePart(String rendered) throws IOException {
        int slash = rendered.lastIndexOf('/');
        int at = numberAt(rendered);
        String prefix = rendered.substring(slash + 1, at) + "-";
        String tail = rendered.substring(at) + partExtension;
        FileStatus[] children;
        try {
            children = fs.listStatus(new Path(rendered.substring(0, slash + 1)));
        } catch (FileNotFoundException e) {
            return 0;
        }
        int next = 0;
        for (FileStatus st : children) {
            String n = st.getPath().getName();
            if (n.endsWith(cfg.inProgressSuffix())) {
                n = n.substring(0, n.length() - cfg.inProgressSuffix().length());
            }
            if (n.length() > prefix.length() + tail.length() && n.startsWith(prefix) && n.endsWith(tail)) {
                String digits = n.substring(prefix.length(), n.length() - tail.length());
                if (digits.chars().allMatch(c -> c >= '0' && c <= '9') && digits.length() <= 9) {
                    next = Math.max(next, Integer.parseInt(digits) + 1);
                }
            }
        }
        return next;
    }

    /** Writes the lines buffered for {@code f} into its part and makes them durable; the buffer is kept on failure. */
    private void writeOut(PartFile f, long now) throws IOException {
        ensureOpen(f);
        byte[] bytes = f.buffer.array();
        int n = f.buffer.length();
        if (gzip != null) {
            ByteBuilder member = gzip.encode(bytes, n);
            bytes = member.array();
            n = member.length();
        }
        try {
            f.out.write(bytes, 0, n);
            if (cfg.sync() == HdfsSync.hsync) {
                f.out.hsync();
                hsyncs.inc();
            } else {
                f.out.hflush();
                hflushes.inc();
            }
        } catch (IOException | RuntimeException e) {
            broken(f);
            throw e instanceof IOException io ? io : new IOException(e);
        }
        f.acked = f.out.getPos();
        storedBytes.add(n);
        f.buffer.reset();
        f.dirty = false;
        f.lastWriteNanos = now;
    }

    private void broken(PartFile f) {
        f.broken = true;
        streamFailures.inc();
    }

    /** Closes the part and renames it; a part whose writer failed is recovered instead. Idempotent. */
    private void complete(PartFile f) throws IOException {
        if (f.broken) {
            recover(f);
            return;
        }
        if (f.out != null) {
            try {
                f.out.close();
            } catch (IOException e) {
                broken(f);
                throw e;
            }
            f.out = null;
            openStreams--;
        }
        if (f.tmp != null) {
            finish(f);
        }
    }

    /**
     * Recovers a part whose writer failed, in steps that are each retried until done: drop the stream, recover the
     * lease (the NameNode closes the file), cut it back to the acknowledged bytes, rename it. Throws while a step is
     * still in progress.
     */
    private void recover(PartFile f) throws IOException {
        if (f.out != null) {
            FSDataOutputStream out = f.out;
            f.out = null;
            openStreams--;
            try {
                out.close();
            } catch (IOException | RuntimeException ignored) {
                // the stream already failed; closing it only releases its lease in the client
            }
        }
        if (fs instanceof LeaseRecoverable lr) {
            try {
                if (!lr.isFileClosed(f.tmp) && !lr.recoverLease(f.tmp)) {
                    throw new IOException("recovering the lease of " + f.tmp + ": in progress");
                }
            } catch (FileNotFoundException e) {
                lostPart(f);
                return;
            }
        }
        long length;
        try {
            length = fs.getFileStatus(f.tmp).getLen();
        } catch (FileNotFoundException e) {
            lostPart(f);
            return;
        }
        if (length > f.acked) {
            truncatedBytes.add(length - f.acked);
            if (!fs.truncate(f.tmp, f.acked)) {
                throw new IOException("cutting " + f.tmp + " back to its " + f.acked + " acknowledged bytes: in progress");
            }
        } else if (length < f.acked) {
            LOG.log(Level.ERROR, "sink " + cfg.name() + ": " + f.tmp + " has " + length
                    + " bytes after recovery, " + f.acked + " were acknowledged");
        }
        f.broken = false;
        recoveries.inc();
        finish(f);
    }

    private void lostPart(PartFile f) {
        LOG.log(Level.ERROR, "sink " + cfg.name() + ": " + f.tmp + " vanished before its recovery");
        f.completed();
    }

    /** Renames a closed part to its final name (deletes it when it holds nothing). */
    private void finish(PartFile f) throws IOException {
        if (f.acked == 0) {
            fs.delete(f.tmp, false);
        } else {
            while (!fs.rename(f.tmp, f.fin)) {
                if (!fs.exists(f.tmp)) {
                    if (!fs.exists(f.fin)) {
                        throw new IOException("cannot rename " + f.tmp + " to " + f.fin + ": neither exists");
                    }
                    break; // an earlier rename went through but its answer was lost
                }
                if (!fs.exists(f.fin)) {
                    throw new IOException("cannot rename " + f.tmp + " to " + f.fin);
                }
                // another writer completed a part under this name meanwhile: take the next free number
                f.fin = new Path(partName(f.rendered, f.nextPart++, partExtension));
            }
        }
        f.completed();
        partsCompleted.inc();
    }

    /**
     * Writes each path's pending lines into its part (one gzip member each with compression) and hflushes (hsyncs)
     * it; returns once every one of them returned, then rolls and completes parts as due. A failure throws with the
     * paths not yet written still pending (the failed part is recovered before the next write).
     */
    @Override
    public void flush() throws IOException {
        long now = clock.nanoTime();
        writeDirty(now);
        tryHousekeeping(now);
    }

    /** Writes out every path with pending lines; one that fails stays pending with those not yet written. */
    private void writeDirty(long now) throws IOException {
        for (int i = dirty.size() - 1; i >= 0; i--) {
            writeOut(dirty.get(i), now);
            dirty.remove(i);
        }
    }

    /**
     * The caller gave the pending lines up (max-retries): each path's buffered lines (none of them acknowledged: a failed
     * write leaves the whole buffer) become one dead letter, uncompressed (target: the rendered path), and the batch
     * is empty. A broken part is still recovered (cut back to what was acknowledged) by the next write or tick.
     */
    @Override
    public void deadLetterPending(DeadLetterFile deadLetters, String reason) {
        for (PartFile f : dirty) {
            if (f.buffer.length() > 0) {
                deadLetters.write(f.rendered, reason, null, f.buffer.array(), 0, f.buffer.length());
            }
            f.buffer.reset();
            f.dirty = false;
        }
        dirty.clear();
    }

    /**
     * Idle time (the ring, or the journal, had nothing for about 100 ms): the pending lines are written and hflushed
     * now rather than when the batch's flush-timeout ends, so that the end of a burst is visible at once; then
     * time-based rolls and completing idle parts. The caller still counts the batch written only at its own
     * {@link #flush} (which then finds nothing to write). A write that fails keeps its lines pending for that flush,
     * which retries them as any failed flush (the part recovered first).
     */
    @Override
    public void tick() {
        long now = clock.nanoTime();
        if (!dirty.isEmpty()) {
            try {
                writeDirty(now);
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.DEBUG, () -> "sink " + cfg.name() + ": writing the idle batch: " + e
                        + "; the batch's flush retries it");
                return;
            }
        }
        tryHousekeeping(now);
    }

    /**
     * Rolls and idle closes happen after the batch is durable: one that fails (the NameNode away) must not hold the
     * batch back. The part stays as it is (or broken) and is tried again at the next flush or tick; a line for it
     * meanwhile waits for it.
     */
    private void tryHousekeeping(long now) {
        try {
            housekeeping(now);
        } catch (IOException | RuntimeException e) {
            housekeepingFailures.inc();
            LOG.log(Level.WARNING, "sink " + cfg.name() + ": completing parts: " + e + "; tried again later");
        }
    }

    private void housekeeping(long now) throws IOException {
        for (PartFile f : files.values()) {
            if (f.tmp != null && !f.dirty && (f.broken || f.out == null || rollDue(f, now))) {
                boolean roll = !f.broken && f.out != null;
                complete(f);
                if (roll) {
                    rolls.inc();
                }
            }
        }
        if (now - lastSweepNanos >= Math.min(cfg.idleClose().nanos(), 1_000_000_000L)) {
            lastSweepNanos = now;
            files.sweep(f -> !f.dirty && now - f.lastWriteNanos >= cfg.idleClose().nanos(), f -> {
                forget(f);
                boolean hadPart = f.tmp != null;
                complete(f);
                if (hadPart) {
                    closedIdle.inc();
                }
            });
        }
    }

    private boolean rollDue(PartFile f, long now) {
        return f.acked >= cfg.rollSize().bytes()
                || (cfg.rollInterval() != null && now - f.openedNanos >= cfg.rollInterval().nanos());
    }

    /** A forced stop: closing the client makes a call blocked on a NameNode or DataNode fail soon. */
    @Override
    public void abort() {
        aborted = true;
        FileSystem f = fs;
        if (f != null) {
            try {
                if (f instanceof DistributedFileSystem dfs) {
                    // abort, not close: a close would complete the parts with bytes no hflush acknowledged
                    dfs.getClient().closeAllFilesBeingWritten(true);
                }
                f.close();
            } catch (IOException e) {
                LOG.log(Level.WARNING, "sink " + cfg.name() + ": closing the HDFS client: " + e);
            }
        }
    }

    /**
     * Completes every part and closes the client; a failure is retried by the caller from where it was. Lines still
     * pending are not written (the memory sink flushed them before; a journal keeps them for the next start). After
     * {@link #abort} the parts are left as they are (their streams were aborted) and only the client is closed.
     */
    @Override
    public void close() throws IOException {
        if (!aborted) {
            for (PartFile f : files.values()) {
                complete(f);
            }
        }
        files.clear();
        lastFile = null;
        FileSystem f = fs;
        if (f != null) {
            try {
                f.close();
            } catch (IOException e) {
                if (!aborted) {
                    throw e;
                }
            }
        }
        if (gzip != null) {
            gzip.close();
        }
    }
}
