package dev.logrouter.sinks.file;

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

/**
 * {@code type: file}: lines written to files named by a template, like syslog-ng's {@code file()}.
 *
 * <p>Threads: immutable.
 */
public record FileSinkConfig(
        @Option(doc = "Unique sink name.", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "Path template, e.g. data/logs/${HOST}/messages.log. Substituted values cannot leave the "
                + "directory before the first macro: / \\ NUL and control bytes become _, and . or .. become _ "
                + "or __.", defaultValue = Option.REQUIRED)
        String path,
        @Option(doc = "Line template; the default is syslog-ng's file format.",
                defaultValue = "\"${DATE} ${HOST} ${MSGHDR}${MSG}\\n\"")
        String template,
        @Option(doc = "Most lines per batch before it is written (syslog-ng flush-lines).", defaultValue = "1000")
        Integer batchSize,
        @Option(doc = "syslog-ng name for batch-size; when given it wins over batch-size.", defaultValue = Option.NONE)
        Integer flushLines,
        @Option(doc = "Most bytes per batch before it is written.", defaultValue = "1MiB")
        ByteSize batchBytes,
        @Option(doc = "Longest a line waits in a batch while more keep coming; a batch is also written "
                + "whenever the ring has nothing more for the sink.", defaultValue = "250ms")
        TimeSpan flushTimeout,
        @Option(doc = SinkConfig.MAX_RETRIES_DOC, defaultValue = "-1")
        Integer maxRetries,
        @Option(doc = SinkConfig.DEAD_LETTER_DOC, defaultValue = Option.NONE)
        String deadLetter,
        @Option(doc = "never, batch (fsync after each batch) or interval (at most once per fsync-interval).",
                defaultValue = "never")
        FsyncPolicy fsync,
        @Option(doc = "With fsync: interval, the longest time between fsyncs.", defaultValue = "1s")
        TimeSpan fsyncInterval,
        @Option(doc = "Most files kept open; the least recently used is closed beyond it.", defaultValue = "256")
        Integer maxOpenFiles,
        @Option(doc = "A file not written for this long is closed (reopened on the next line).",
                defaultValue = "60s")
        TimeSpan idleClose,
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

    public FileSinkConfig {
        SinkConfig.checkMaxRetries(maxRetries);
        if (batchSize != null && batchSize < 1) {
            throw new IllegalArgumentException("batch-size must be >= 1, got " + batchSize);
        }
        if (flushLines != null && flushLines < 1) {
            throw new IllegalArgumentException("flush-lines must be >= 1, got " + flushLines);
        }
        if (maxOpenFiles != null && maxOpenFiles < 1) {
            throw new IllegalArgumentException("max-open-files must be >= 1, got " + maxOpenFiles);
        }
        if (path != null && path.isBlank()) {
            throw new IllegalArgumentException("path must not be empty");
        }
    }

    /** The line count of a batch: {@code flush-lines} when given, else {@code batch-size}. */
    @Override
    public FlushPolicy flushPolicy() {
        int lines = flushLines != null ? flushLines : batchSize;
        return new FlushPolicy(lines, batchBytes.bytes(), flushTimeout.nanos());
    }

    /**
     * The sink: {@link FileEncoder} (path and line, on the sink's thread) and {@link FileDelivery} (the files), put
     * together per {@code buffer}.
     */
    @Override
    public Sink create(SinkContext ctx) {
        SinkEncoder encoder = encoder(ctx);
        FileDelivery delivery = new FileDelivery(this, ctx.clock(), ctx.metrics(), ctx.deadLetters());
        int lines = flushLines != null ? flushLines : batchSize;
        return SinkBuffers.create(buffer, encoder, delivery, journal, maxBacklog, lines, batchBytes.bytes(),
                drainTimeout, overflow, ctx);
    }

    /** The {@link FileEncoder}: renders the path and the line; opens nothing. */
    @Override
    public SinkEncoder encoder(SinkContext ctx) {
        return new FileEncoder(this, ctx.zone());
    }
}
