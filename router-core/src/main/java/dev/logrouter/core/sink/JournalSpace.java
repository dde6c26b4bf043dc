package dev.logrouter.core.sink;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The router-wide journal settings every journaled sink shares (the top-level {@code journal:} section): the
 * directory a sink's journal goes to when it names none ({@code <dir>/<sink name>}), and {@code max-size}, the most
 * bytes all journals together keep on disk, with the running total.
 *
 * <p>Threads: the total is updated by each journal's writer and reader threads; any thread reads it.
 */
public final class JournalSpace {

    private final Path baseDir;
    private final long maxTotal;
    private final AtomicLong used = new AtomicLong();
    private final java.util.Map<Path, String> claimed = new java.util.HashMap<>();
    private long minTotal;

    /** @param maxTotal the most bytes of all journals together; 0 for no limit */
    public JournalSpace(Path baseDir, long maxTotal) {
        if (maxTotal < 0) {
            throw new IllegalArgumentException("max-size must be >= 0 (0: no limit)");
        }
        this.baseDir = baseDir;
        this.maxTotal = maxTotal;
    }

    /** {@code data/journal}, no limit across journals. */
    public static JournalSpace defaults() {
        return new JournalSpace(Path.of("data/journal"), 0);
    }

    public Path baseDir() {
        return baseDir;
    }

    /** The limit across journals; 0 for none. */
    public long maxTotal() {
        return maxTotal;
    }

    /** Bytes of all open journals' segment files. */
    public long used() {
        return used.get();
    }

    /** Whether growing by {@code bytes} would pass {@link #maxTotal}. */
    public boolean wouldExceed(long bytes) {
        return maxTotal > 0 && used.get() + bytes > maxTotal;
    }

    /**
     * Claims {@code dir} for {@code sink}'s journal, which needs at least {@code minBytes} to work (two segments: the
     * active one is never deleted).
     *
     * @throws IllegalArgumentException another sink of this router claimed it, or {@code max-size} cannot hold every
     *                                  claimed journal's minimum (appends would be refused for good)
     */
    public synchronized void claim(Path dir, String sink, long minBytes) {
        Path key = dir.toAbsolutePath().normalize();
        String other = claimed.putIfAbsent(key, sink);
        if (other != null && !other.equals(sink)) {
            throw new IllegalArgumentException("sinks " + other + " and " + sink + " both keep their journal in "
                    + key + ": give each its own journal.dir");
        }
        if (other == null) {
            minTotal += minBytes;
        }
        if (maxTotal > 0 && minTotal > maxTotal) {
            throw new IllegalArgumentException("journal.max-size (" + maxTotal + " bytes) is less than the journaled "
                    + "sinks need together (" + minTotal + " bytes: twice each one's segment-size)");
        }
    }

    /** How many sinks claimed a journal directory. */
    public synchronized int journals() {
        return claimed.size();
    }

    /** A journal's size changed by {@code delta} bytes. */
    public void add(long delta) {
        used.addAndGet(delta);
    }
}
