package dev.logrouter.sinks.hdfs;

/**
 * What the HDFS sink calls on each file at the end of a batch before the batch counts as written.
 *
 * <p>Threads: immutable.
 */
public enum HdfsSync {
    /** {@code hflush}: every DataNode in the write pipeline has the data; it survives the router, and new readers see it. */
    hflush,
    /** {@code hsync}: as hflush, and the DataNodes have forced it to disk (survives a power loss). */
    hsync
}
