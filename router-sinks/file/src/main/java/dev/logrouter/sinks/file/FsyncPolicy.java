package dev.logrouter.sinks.file;

/**
 * When the file sink asks the kernel to put written data on disk ({@code fsync}).
 *
 * <p>Threads: immutable.
 */
public enum FsyncPolicy {
    /** Never: the page cache decides (as syslog-ng does by default); a power loss may lose recent lines. */
    never,
    /** After every flushed batch: durable, slowest. */
    batch,
    /** At most once per {@code fsync-interval}, at a flush. */
    interval
}
