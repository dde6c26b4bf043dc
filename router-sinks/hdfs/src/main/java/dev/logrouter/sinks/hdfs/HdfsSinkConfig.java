package dev.logrouter.sinks.hdfs;

import dev.logrouter.core.journal.Buffer;
import dev.logrouter.core.journal.JournalConfig;
import dev.logrouter.core.journal.Overflow;
import dev.logrouter.core.journal.SinkBuffers;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.sink.FlushPolicy;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.sink.SinkConfig;
import dev.logrouter.core.sink.SinkContext;
import dev.logrouter.core.sink.SinkEncoder;
import dev.logrouter.core.template.Template;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;

/**
 * {@code type: hdfs}: lines written to rolling part files in HDFS through the Hadoop FileSystem API; a batch counts
 * as written only once {@code hflush} (or {@code hsync}) returned for every file it touched (with
 * {@code buffer: journal}: once journaled, and the journal's batches are delivered the same way).
 *
 * <p>Threads: immutable.
 */
public record HdfsSinkConfig(
        @Option(doc = "Unique sink name.", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "The file system, hdfs://namenode:port (or hdfs://nameservice with an HA config-dir).",
                defaultValue = Option.REQUIRED)
        String uri,
        @Option(doc = "Absolute path template, e.g. /logs/${HOST}/${YEAR}${MONTH}${DAY}.log. Each rendered path is "
                + "written as numbered parts: /logs/web1/20261122-00000.log, -00001 after a roll. Substituted values "
                + "cannot leave the directory before the first macro: / \\ : NUL and control bytes become _, and . or "
                + ".. become _ or __.", defaultValue = Option.REQUIRED)
        String path,
        @Option(doc = "Line template; the default is syslog-ng's file format.",
                defaultValue = "\"${DATE} ${HOST} ${MSGHDR}${MSG}\\n\"")
        String template,
        @Option(doc = "Most lines per batch: one write and one hflush per file per batch.", defaultValue = "5000")
        Integer batchSize,
        @Option(doc = "Most bytes per batch.", defaultValue = "4MiB")
        ByteSize batchBytes,
        @Option(doc = "Longest a line waits in a batch before the batch is written and flushed.",
                defaultValue = "1s")
        TimeSpan flushTimeout,
        @Option(doc = SinkConfig.MAX_RETRIES_DOC, defaultValue = "-1")
        Integer maxRetries,
        @Option(doc = SinkConfig.DEAD_LETTER_DOC + " A given-up batch is one dead letter per part file, its lines "
                + "uncompressed.", defaultValue = Option.NONE)
        String deadLetter,
        @Option(doc = "The durability point of a batch: hflush (every DataNode of the pipeline has it in memory; new "
                + "readers see it) or hsync (also on the DataNodes' disks).", defaultValue = "hflush")
        HdfsSync sync,
        @Option(doc = "A part is completed (renamed) once it holds this many bytes (after compression) and the next "
                + "line starts a new part.", defaultValue = "128MiB")
        ByteSize rollSize,
        @Option(doc = "A part is completed once it has been open this long; absent: no time-based roll.",
                defaultValue = Option.NONE)
        TimeSpan rollInterval,
        @Option(doc = "A part not written for this long is completed (the next line starts a new part).",
                defaultValue = "60s")
        TimeSpan idleClose,
        @Option(doc = "Suffix of a part while it is written; removed by a rename when the part is completed.",
                defaultValue = "\".tmp\"")
        String inProgressSuffix,
        @Option(doc = "Most parts open at once; the least recently used is completed beyond it.", defaultValue = "64")
        Integer maxOpenFiles,
        @Option(doc = "none or gzip. gzip writes each batch as one gzip member (readable after every hflush; "
                + "zcat reads the concatenation) and the part name gets .gz.", defaultValue = "none")
        HdfsCompression compression,
        @Option(doc = "A Hadoop configuration directory: its core-site.xml and hdfs-site.xml are read (HA name "
                + "services, Kerberos, client tuning).", defaultValue = Option.NONE)
        String configDir,
        @Option(doc = "Any other Hadoop property, e.g. dfs.replication; wins over config-dir. Unless config-dir or "
                + "this sets it, the sink sets dfs.client-write-packet-size to 1048576 (Hadoop: 65536).",
                defaultValue = "{}")
        Map<String, String> properties,
        @Option(doc = "The HDFS user to act as with simple authentication (like HADOOP_USER_NAME); absent: the "
                + "process' user, or the Kerberos login.", defaultValue = Option.NONE)
        String user,
        @Option(doc = SinkBuffers.BUFFER_DOC, defaultValue = "memory")
        Buffer buffer,
        @Option(doc = SinkBuffers.JOURNAL_DOC, defaultValue = "{}")
        JournalConfig journal,
        @Option(doc = SinkBuffers.DRAIN_TIMEOUT_DOC, defaultValue = "5s")
        TimeSpan drainTimeout,
        @Option(doc = SinkBuffers.OVERFLOW_DOC, defaultValue = "block")
        Overflow overflow,
        @Option(doc = SinkBuffers.MAX_BACKLOG_DOC, defaultValue = Option.NONE)
        ByteSize maxBacklog) implements SinkConfig {

    public HdfsSinkConfig {
        SinkConfig.checkMaxRetries(maxRetries);
        if (uri != null) {
            try {
                URI u = new URI(uri);
                if (!"hdfs".equals(u.getScheme()) || u.getAuthority() == null) {
                    throw new IllegalArgumentException("uri must be hdfs://namenode:port or hdfs://nameservice, "
                            + "got '" + uri + "'");
                }
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("uri: " + e.getMessage(), e);
            }
        }
        if (path != null && !path.startsWith("/")) {
            throw new IllegalArgumentException("path must be absolute (start with /), got '" + path + "'");
        }
        if (batchSize != null && batchSize < 1) {
            throw new IllegalArgumentException("batch-size must be >= 1, got " + batchSize);
        }
        if (maxOpenFiles != null && maxOpenFiles < 1) {
            throw new IllegalArgumentException("max-open-files must be >= 1, got " + maxOpenFiles);
        }
        if (rollSize != null && rollSize.bytes() < 1) {
            throw new IllegalArgumentException("roll-size must be at least 1 byte");
        }
        if (rollInterval != null && rollInterval.nanos() == 0) {
            throw new IllegalArgumentException("roll-interval must be more than 0 (leave it out for no time roll)");
        }
        if (inProgressSuffix != null && (inProgressSuffix.isEmpty() || inProgressSuffix.contains("/")
                || inProgressSuffix.contains(":"))) {
            throw new IllegalArgumentException("in-progress-suffix must be non-empty, without / or :, got '"
                    + inProgressSuffix + "'");
        }
        Template.checkOption("path", path);
        Template.checkOption("template", template);
    }

    /**
     * A batch ends at {@code batch-size} lines, {@code batch-bytes} or {@code flush-timeout}, not whenever the ring
     * runs dry: each batch costs an hflush round trip to the DataNodes per file.
     */
    @Override
    public FlushPolicy flushPolicy() {
        return new FlushPolicy(batchSize, batchBytes.bytes(), flushTimeout.nanos(), false);
    }

    /**
     * The encoder (path and line templates) and the delivery (part files), joined by {@code buffer}: with
     * {@code memory} an {@link HdfsMemorySink} (lines rendered straight into their file's buffer); with
     * {@code journal} the journal's records, and the delivery thread sends batches of up to {@code batch-size} lines
     * or {@code batch-bytes}.
     */
    @Override
    public Sink create(SinkContext ctx) {
        HdfsEncoder encoder = new HdfsEncoder(path, template, ctx.zone());
        HdfsDelivery delivery = new HdfsDelivery(this, ctx);
        if (buffer == Buffer.memory) {
            return new HdfsMemorySink(encoder, delivery);
        }
        return SinkBuffers.create(buffer, encoder, delivery, journal, maxBacklog, batchSize, batchBytes.bytes(),
                drainTimeout, overflow, ctx);
    }

    /** The {@link HdfsEncoder}: the path and line templates; no file system client is made. */
    @Override
    public SinkEncoder encoder(SinkContext ctx) {
        return new HdfsEncoder(path, template, ctx.zone());
    }
}
