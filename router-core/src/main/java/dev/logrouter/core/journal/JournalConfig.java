package dev.logrouter.core.journal;

import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;

/**
 * The options of one journal (a sink's durable buffer): a sink's {@code journal:} map, with {@code buffer: journal}.
 *
 * <p>Threads: immutable, any thread.
 */
public record JournalConfig(
        @Option(doc = "Directory of this sink's journal (segment files, cursor, lock); default <journal.dir>/<sink name>, "
                + "that is data/journal/<sink name>. "
                + "One sink per directory.", defaultValue = Option.NONE)
        String dir,
        @Option(doc = "Size at which a segment file is sealed and a new one started; a commit larger than it gets "
                + "a segment of its own. Between 4KiB and 1GiB.", defaultValue = "64MiB")
        ByteSize segmentSize,
        @Option(doc = "Most bytes of segment files this journal keeps on disk; an append that would pass it is "
                + "refused, and the sink holds the ring (overflow block), until delivered segments are deleted.",
                defaultValue = "10GiB")
        ByteSize maxSize,
        @Option(doc = "Free space the journal leaves on its file store: checked at start and whenever a segment "
                + "would be added; below it appends are refused and the sink holds the ring. 0 turns the check off.",
                defaultValue = "1GiB")
        ByteSize freeDiskReserve,
        @Option(doc = "When written records are forced to disk: none (survives kill -9, not a power loss), batch "
                + "(every commit), interval (at most once per sync-interval).", defaultValue = "interval")
        JournalSync sync,
        @Option(doc = "With sync: interval, the longest committed records wait for their fsync.", defaultValue = "1s")
        TimeSpan syncInterval) {

    /** The smallest segment-size accepted. */
    public static final long MIN_SEGMENT_SIZE = 4096;
    /** The largest segment-size accepted. */
    public static final long MAX_SEGMENT_SIZE = 1L << 30;

    /** Checks the options; null means "not given yet" (the loader builds records once before filling defaults). */
    public JournalConfig {
        if (segmentSize != null && (segmentSize.bytes() < MIN_SEGMENT_SIZE || segmentSize.bytes() > MAX_SEGMENT_SIZE)) {
            throw new IllegalArgumentException("segment-size must be between 4KiB and 1GiB, got " + segmentSize);
        }
        if (maxSize != null && segmentSize != null && maxSize.bytes() < 2 * segmentSize.bytes()) {
            // the active segment is never deleted: with less, a full active segment could never be sealed and freed
            throw new IllegalArgumentException("max-size must be at least twice segment-size (" + segmentSize.bytes()
                    + " bytes), got " + maxSize);
        }
        if (freeDiskReserve != null && freeDiskReserve.bytes() < 0) {
            throw new IllegalArgumentException("free-disk-reserve must be >= 0 (0 turns the check off)");
        }
        if (syncInterval != null && syncInterval.nanos() <= 0) {
            throw new IllegalArgumentException("sync-interval must be positive, got " + syncInterval);
        }
    }

    /** The defaults: 64 MiB segments, 10 GiB at most, 1 GiB reserve, sync interval, every 1 s. */
    public static JournalConfig defaults() {
        return new JournalConfig(null, new ByteSize(64L << 20), new ByteSize(10L << 30), new ByteSize(1L << 30),
                JournalSync.interval, new TimeSpan(1_000_000_000L));
    }

    public JournalConfig withDir(String directory) {
        return new JournalConfig(directory, segmentSize, maxSize, freeDiskReserve, sync, syncInterval);
    }

    /** The journal directory: {@code dir}, or {@code data/journal/<sink>}. */
    public java.nio.file.Path directory(String sinkName) {
        return directory(sinkName, java.nio.file.Path.of("data/journal"));
    }

    /** The journal directory: {@code dir}, or {@code <base>/<sink>} (base: the router's {@code journal.dir}). */
    public java.nio.file.Path directory(String sinkName, java.nio.file.Path base) {
        return dir != null ? java.nio.file.Path.of(dir) : base.resolve(sinkName);
    }

    public JournalConfig withSegmentSize(long bytes) {
        return new JournalConfig(dir, new ByteSize(bytes), maxSize, freeDiskReserve, sync, syncInterval);
    }

    public JournalConfig withMaxSize(long bytes) {
        return new JournalConfig(dir, segmentSize, new ByteSize(bytes), freeDiskReserve, sync, syncInterval);
    }

    public JournalConfig withFreeDiskReserve(long bytes) {
        return new JournalConfig(dir, segmentSize, maxSize, new ByteSize(bytes), sync, syncInterval);
    }

    public JournalConfig withSync(JournalSync policy) {
        return new JournalConfig(dir, segmentSize, maxSize, freeDiskReserve, policy, syncInterval);
    }

    public JournalConfig withSyncInterval(long nanos) {
        return new JournalConfig(dir, segmentSize, maxSize, freeDiskReserve, sync, new TimeSpan(nanos));
    }
}
