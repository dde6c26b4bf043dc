package dev.logrouter.sinks.hdfs;

import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.PathKey;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;

/**
 * One rendered path of the HDFS sink: its current part file (if any) and the lines appended since the last
 * successful hflush. The lines stay in {@link #buffer} until the hflush that made them durable returned, so a
 * failed write can be redone in full in a new part.
 *
 * <p>States: no part ({@code tmp == null}); a part open for writing ({@code out != null}); a part whose writer failed
 * ({@code broken}: it must be recovered — lease, cut back to {@link #acked} bytes — and renamed before anything else
 * happens); a part closed but not yet renamed ({@code out == null && tmp != null && !broken}).
 *
 * <p>Threads: owned by the delivery's thread (the sink's, or a journaled sink's delivery thread).
 */
final class PartFile {

    final PathKey key;
    /** The rendered path, before the part number is added. */
    final String rendered;
    final ByteBuilder buffer = new ByteBuilder(64 * 1024);
    boolean dirty;
    /** The number the next part of this path gets; -1 until the directory has been listed. */
    int nextPart = -1;

    FSDataOutputStream out;
    /** The current part's in-progress name and final name, or null without a part. */
    Path tmp;
    Path fin;
    /** Bytes of the current part made durable by a returned hflush/hsync: its length after a recovery. */
    long acked;
    boolean broken;
    long openedNanos;
    long lastWriteNanos;

    PartFile(PathKey key, String rendered) {
        this.key = key;
        this.rendered = rendered;
    }

    void opened(FSDataOutputStream out, Path tmp, Path fin, long now) {
        this.out = out;
        this.tmp = tmp;
        this.fin = fin;
        this.acked = 0;
        this.broken = false;
        this.openedNanos = now;
        this.lastWriteNanos = now;
    }

    /** The part is complete (renamed, or deleted when empty): the next line starts a new one. */
    void completed() {
        out = null;
        tmp = null;
        fin = null;
        acked = 0;
        broken = false;
    }
}
