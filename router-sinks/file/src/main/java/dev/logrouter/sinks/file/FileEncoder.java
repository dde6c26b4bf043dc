package dev.logrouter.sinks.file;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.sink.SinkEncoder;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.PathValueEscaper;
import dev.logrouter.core.template.Template;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The encoder half of the file sink: one event to one record holding the file it goes to and the line, both
 * rendered here, in a framing {@link FileDelivery} reads back (and a journal keeps across restarts, so the record
 * names its file by path, never by an open file):
 * <pre>
 *   byte 0..1    P, the path length, u16 big-endian; 0 when the path rendered empty or longer than 65535 bytes
 *                (no file system takes it): the delivery refuses it like any unwritable path (invalid-path.log)
 *   bytes 2..P+1 the rendered path, as the path template rendered it: every substituted value went through
 *                {@link PathValueEscaper} (one path component: a hostile HOST of ../../etc is .._.._etc)
 *   the rest     the line, as the line template rendered it (its bytes exactly: the line is not a path)
 * </pre>
 * The path is only rendered here; whether it stays inside the base directory and can be opened is decided by the
 * delivery when it opens the file (the same check for a record read back from a journal written under another
 * configuration). Nothing is allocated per event: both templates render straight into {@code out}.
 *
 * <p>Threads: the sink's thread ({@code sink-<name>}); its compiled templates keep scratch state.
 */
final class FileEncoder implements SinkEncoder {

    /** Longest path a record holds; a longer one is written as length 0 (refused by the delivery). */
    static final int MAX_PATH = 0xFFFF;

    private final Template pathTemplate;
    private final Template lineTemplate;

    FileEncoder(FileSinkConfig cfg, ZoneId zone) {
        this.pathTemplate = Template.compile(cfg.path(), zone);
        this.lineTemplate = Template.compile(cfg.template(), zone);
    }

    @Override
    public void encode(LogEvent event, ByteBuilder out) {
        int at = out.length();
        out.append((byte) 0).append((byte) 0);
        pathTemplate.render(event, out, PathValueEscaper.INSTANCE);
        int n = out.length() - at - 2;
        if (n > MAX_PATH) {
            out.setLength(at + 2);
            n = 0;
        }
        byte[] a = out.array();
        a[at] = (byte) (n >>> 8);
        a[at + 1] = (byte) n;
        lineTemplate.render(event, out);
    }

    /** The path length of a record starting at {@code off}. */
    static int pathLength(byte[] record, int off) {
        return ((record[off] & 0xFF) << 8) | (record[off + 1] & 0xFF);
    }

    /** The line: the record less its path and the path's length. */
    @Override
    public int payloadLength(byte[] record, int off, int len) {
        int path = (record[off] & 0xFF) << 8 | (record[off + 1] & 0xFF);
        return Math.max(0, len - 2 - path);
    }

    /** {@code path}: the file (as rendered, before the delivery checks it), {@code line}: the line. */
    @Override
    public Map<String, String> describe(byte[] record, int off, int len) {
        int path = pathLength(record, off);
        Map<String, String> parts = new LinkedHashMap<>();
        parts.put("path", new String(record, off + 2, path, StandardCharsets.UTF_8));
        parts.put("line", new String(record, off + 2 + path, len - 2 - path, StandardCharsets.UTF_8));
        return parts;
    }
}
