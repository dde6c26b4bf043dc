package dev.logrouter.core.sink;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.JsonStringEscaper;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * A sink's dead-letter destination (its {@code dead-letter} option): the items it can never write (a record too
 * large for the broker, a document the index mapping rejects) and the items the sink handler gave up on after
 * {@code max-retries}, as JSON lines, one per item,
 * {@code {"time":"…","sink":"…","target":"…","status":400,"reason":"…","key":"…","event":"…"}} (target only where
 * the item had one, status only where the server answered one), appended to a file
 * ({@code data/dead-letter/<sink>.jsonl} by default) and counted ({@code deadLettered}). Each line is written
 * and flushed to the operating system before {@link #write} returns. When the file itself cannot be written the
 * error is logged with the item's reason and counted ({@code deadLetterFailures}, and {@link #lostItems()}): the
 * item is then lost, and said to be.
 *
 * <p>Threads: the sink's thread (the file is opened on first use); {@link #lostItems()} too.
 */
public final class DeadLetterFile implements AutoCloseable {

    private static final Logger LOG = System.getLogger(DeadLetterFile.class.getName());

    private final String sink;
    private final Path path;
    private final ByteBuilder line = new ByteBuilder(1024);
    private final Counter written;
    private final Counter failures;
    private OutputStream out;
    /** Items lost because the file could not be written: only grows (the counter can be reset by an operator). */
    private long lostItems;

    /**
     * @param configuredPath the sink's {@code dead-letter} option; null: {@code data/dead-letter/<sink>.jsonl}
     */
    public DeadLetterFile(String sink, String configuredPath, MetricGroup metrics) {
        this.sink = sink;
        this.path = configuredPath != null ? Path.of(configuredPath) : Path.of("data", "dead-letter", sink + ".jsonl");
        this.written = metrics.counter("deadLettered", "Items this sink can never write, written to its dead-letter "
                + "file with the reason.");
        this.failures = metrics.counter("deadLetterFailures", "Dead letters that could not be written to the "
                + "dead-letter file (the item is lost; the error is logged).");
    }

    public Path path() {
        return path;
    }

    /**
     * Appends one dead letter.
     *
     * @param target where the item was going (topic, index, file), or null (left out)
     * @param reason why it can never be written
     * @param key    the item's key, or null
     * @param event  the item as the sink rendered it; when the file cannot be written the item is lost, counted
     *               ({@link #lostItems}) and logged
     */
    public void write(String target, String reason, byte[] key, byte[] event, int off, int len) {
        write(target, 0, reason, key, event, off, len);
    }

    /** Appends one dead letter with the status the server answered (left out when 0). */
    public void write(String target, int status, String reason, byte[] key, byte[] event, int off, int len) {
        line.reset();
        line.append("{\"time\":\"").append(Instant.now().toString()).append("\",\"sink\":\"");
        string(sink);
        line.append((byte) '"');
        if (target != null) {
            line.append(",\"target\":\"");
            string(target);
            line.append((byte) '"');
        }
        if (status != 0) {
            line.append(",\"status\":").appendDecimal(status);
        }
        line.append(",\"reason\":\"");
        string(reason);
        line.append((byte) '"');
        if (key != null) {
            line.append(",\"key\":\"");
            JsonStringEscaper.escape(line, key, 0, key.length);
            line.append((byte) '"');
        }
        line.append(",\"event\":\"");
        JsonStringEscaper.escape(line, event, off, len);
        line.append("\"}\n");
        try {
            if (out == null) {
                Path dir = path.toAbsolutePath().getParent();
                if (dir != null) {
                    Files.createDirectories(dir);
                }
                out = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
            out.write(line.array(), 0, line.length());
            out.flush();
            written.inc();
        } catch (IOException e) {
            failures.inc();
            lostItems++;
            LOG.log(Level.ERROR, "sink " + sink + ": cannot write dead letter to " + path + " (" + e
                    + "); item lost: " + reason);
            if (out != null) {
                try {
                    out.close(); // reopened for the next item: the file may have been moved or repaired
                } catch (IOException ignored) {
                    // the stream already failed
                }
                out = null;
            }
        }
    }

    /** Items lost so far because the file could not be written (never reset). The sink's thread. */
    public long lostItems() {
        return lostItems;
    }

    private void string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        JsonStringEscaper.escape(line, b, 0, b.length);
    }

    @Override
    public void close() throws IOException {
        if (out != null) {
            out.close();
            out = null;
        }
    }
}
