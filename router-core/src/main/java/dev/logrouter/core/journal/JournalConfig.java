package dev.logrouter.core.journal;

import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;

/**
 * The options of one journal (a sink's durable buffer). Not yet part of any sink's configuration: a later step
 * embeds it.
 *
 * <p>Threads: immutable, any thread.
 */
public record JournalConfig(
        @Option(doc = "Size at which a segment file is sealed and a new one started; a commit larger than it gets "
                + "a segment of its own. Between 4KiB and 1GiB.", defaultValue = "64MiB")
        ByteSize segmentSize,
        @Option(doc = "Most bytes of segment files this journal keeps on disk; an append that would pass it is "
                + "refused (JournalFullException) until acknowledgements delete segments.", defaultValue = "10GiB")
        ByteSize maxSize,
        @Option(doc = "Free space the journal leaves on its file store: checked at start and whenever a segment "
                + "would be added; below it appends are refused (JournalFullException). 0 turns the check off.",
                defaultValue = "1GiB")
        ByteSize freeDiskReserve,
        @Option(doc = "When written records are forced to disk: none (survives kill -9, not a power loss), batch "
                + "(every commit), interval (at most once per sync-interval).", defaultValue = "batch")
        JournalSync sync,
        @Option(doc = "With sync: interval, the longest committed records wait for their fsync.", defaultValue = "1s")
        TimeSpan syncInterval) {

    /** The smallest segment-size accepted. */
    public static final long MIN_SEGMENT_SIZE = 4096;
    /** The largest segment-size accepted. */
    public static final long MAX_SEGMENT_SIZE = 1L << 30;

    public JournalConfig {
        if (segmentSize == null || segmentSize.bytes() < MIN_SEGMENT_SIZE || segmentSize.bytes() > MAX_SEGMENT_SIZE) {
            throw new IllegalArgumentException("segment-size must be between 4KiB and 1GiB, got " + segmentSize);
        }
        if (maxSize == null || maxSize.bytes() < segmentSize.bytes()) {
            throw new IllegalArgumentException("max-size must be at least segment-size (" + segmentSize.bytes()
                    + " bytes), got " + maxSize);
        }
        if (freeDiskReserve == null) {
            throw new IllegalArgumentException("free-disk-reserve must be given (0 turns the check off)");
        }
        if (sync == null) {
            throw new IllegalArgumentException("sync must be none, batch or interval");
        }
        if (syncInterval == null || syncInterval.nanos() <= 0) {
            throw new IllegalArgumentException("sync-interval must be positive, got " + syncInterval);
        }
    }

    /** The defaults: 64 MiB segments, 10 GiB at most, 1 GiB reserve, sync batch, interval 1 s. */
    public static JournalConfig defaults() {
        return new JournalConfig(new ByteSize(64L << 20), new ByteSize(10L << 30), new ByteSize(1L << 30),
                JournalSync.batch, new TimeSpan(1_000_000_000L));
    }

    public JournalConfig withSegmentSize(long bytes) {
        return new JournalConfig(new ByteSize(bytes), maxSize, freeDiskReserve, sync, syncInterval);
    }

    public JournalConfig withMaxSize(long bytes) {
        return new JournalConfig(segmentSize, new ByteSize(bytes), freeDiskReserve, sync, syncInterval);
    }

    public JournalConfig withFreeDiskReserve(long bytes) {
        return new JournalConfig(segmentSize, maxSize, new ByteSize(bytes), sync, syncInterval);
    }

    public JournalConfig withSync(JournalSync policy) {
        return new JournalConfig(segmentSize, maxSize, freeDiskReserve, policy, syncInterval);
    }

    public JournalConfig withSyncInterval(long nanos) {
        return new JournalConfig(segmentSize, maxSize, freeDiskReserve, sync, new TimeSpan(nanos));
    }
}
