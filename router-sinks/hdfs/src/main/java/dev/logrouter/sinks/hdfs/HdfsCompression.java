package dev.logrouter.sinks.hdfs;

/**
 * How the HDFS sink encodes a part file.
 *
 * <p>Threads: immutable.
 */
public enum HdfsCompression {
    /** Lines as rendered. */
    none,
    /** One gzip member per batch and file ({@link GzipMembers}); the part name ends in {@code .gz}. */
    gzip
}
