package dev.logrouter.core.journal;

/**
 * When a journal forces what it wrote to stable storage ({@code FileChannel.force(false)}, fsync). Written data
 * always reaches the operating system before {@link JournalWriter#commit()} returns, so every mode survives the
 * router being killed ({@code kill -9}); only the synced part survives a power loss or a kernel crash.
 *
 * <p>Threads: immutable.
 */
public enum JournalSync {
    /**
     * Never: the page cache decides (syslog-ng's {@code reliable(yes)} disk-buffer). Survives {@code kill -9},
     * not a power loss. The cursor and the directory are never forced either.
     */
    none,
    /**
     * Every commit, before {@link JournalWriter#commit()} returns; every cursor write; the directory after each
     * create, rename and delete. Nothing whose commit returned is lost by a power loss.
     */
    batch,
    /**
     * At most once per {@code sync-interval}: at a commit that finds the interval passed, at
     * {@link JournalWriter#syncIfDue(long)} (called by the owner when idle) and at each segment roll. A power loss
     * loses at most the commits of the last interval. The cursor is forced at most once per interval and always
     * before a segment it passed is deleted; the directory as with {@link #batch}.
     */
    interval
}
