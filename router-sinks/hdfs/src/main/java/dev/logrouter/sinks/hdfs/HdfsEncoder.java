package dev.logrouter.sinks.hdfs;

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
 * The encoder half of the HDFS sink: one event to one record naming the file its line goes to and holding the line.
 * {@link HdfsDelivery} decodes it, finds (or opens) that path's part file and writes the line there.
 *
 * <p>Record format, byte by byte (self-contained: nothing refers to in-memory state, so a journal can hold it across
 * restarts):
 * <pre>
 *  bytes 0 .. k-1        n, the byte length of the relative path: unsigned LEB128 (7 bits per byte, the least
 *                        significant group first, the high bit set on every byte but the last); k = 1 for n &lt; 128,
 *                        2 for n &lt; 16384, at most 5
 *  bytes k .. k+n-1      the relative path (UTF-8): the path template rendered, values escaped by
 *                        PathValueEscaper.HDFS, without the template's literal text up to the last '/' before its
 *                        first macro (the base directory)
 *  bytes k+n .. the end  the line: the line template rendered (its line end included)
 * </pre>
 * With {@code path: /logs/${HOST}/${YEAR}.log} and HOST {@code web1}: {@code 0x0d "web1/2026.log" "Mar  1 … \n"}. The
 * delivery puts the base directory back in front (a restart with another base writes the journal's backlog there).
 * Escaping is today's path rule: a substituted value stays one name ({@code ../../etc} becomes {@code .._.._etc},
 * {@code fe80::1} becomes {@code fe80__1}, {@code a/b} becomes {@code a_b}); a path that leaves the base directory
 * through the template's own literal text is refused by the delivery ({@code rejectedPaths}).
 *
 * <p>Hot path: both templates render straight into the record, allocating nothing; only a relative path of 128 bytes
 * or more is moved once, to make room for its longer length prefix.
 *
 * <p>Threads: keeps scratch state (the templates'); belongs to the sink's thread ({@code sink-<name>}).
 */
final class HdfsEncoder implements SinkEncoder {

    /** The base directory (the path template's literal text the records leave out). */
    private final String base;
    /** The path template without its base directory: renders the relative path. */
    private final Template relativePath;
    private final Template line;

    /**
     * @param pathTemplate the sink's {@code path} (absolute)
     * @param lineTemplate the sink's {@code template}
     */
    HdfsEncoder(String pathTemplate, String lineTemplate, ZoneId zone) {
        // the base is literal text, rendered as is: the rest of the template renders the rest of the path
        this.base = pathTemplate.substring(0, baseLength(pathTemplate));
        this.relativePath = Template.compile(pathTemplate.substring(base.length()), zone);
        this.line = Template.compile(lineTemplate, zone);
    }

    /**
     * The length (in chars) of a path template's base directory as records leave it out: its literal text up to and
     * including the last {@code /} before the first macro ({@code /logs/} of {@code /logs/${HOST}/x.log}).
     */
    static int baseLength(String pathTemplate) {
        int macro = pathTemplate.indexOf('$');
        return pathTemplate.lastIndexOf('/', macro < 0 ? pathTemplate.length() - 1 : macro) + 1;
    }

    /** Appends {@code event}'s relative path (values escaped, without the base directory) to {@code out}. */
    void renderPath(LogEvent event, ByteBuilder out) {
        relativePath.render(event, out, PathValueEscaper.HDFS);
    }

    /** Appends {@code event}'s line (the line template, its line end included) to {@code out}. */
    void renderLine(LogEvent event, ByteBuilder out) {
        line.render(event, out);
    }

    @Override
    public void encode(LogEvent event, ByteBuilder out) {
        int start = out.length();
        out.append((byte) 0); // the length, for a path under 128 bytes
        renderPath(event, out);
        int n = out.length() - start - 1;
        if (n < 0x80) {
            out.array()[start] = (byte) n;
        } else {
            int k = 1;
            for (int v = n >>> 7; v != 0; v >>>= 7) {
                k++;
            }
            out.ensure(k - 1);
            byte[] a = out.array();
            System.arraycopy(a, start + 1, a, start + k, n);
            out.setLength(out.length() + k - 1);
            int v = n;
            for (int i = start; i < start + k - 1; i++) {
                a[i] = (byte) (v & 0x7f | 0x80);
                v >>>= 7;
            }
            a[start + k - 1] = (byte) v;
        }
        renderLine(event, out);
    }

    /** {@code path}: the file, base directory put back in front (before the delivery checks it); {@code line}. */
    @Override
    public Map<String, String> describe(byte[] record, int off, int len) {
        int p = off;
        int n = 0;
        for (int shift = 0; p < off + len && shift <= 28; shift += 7) {
            byte b = record[p++];
            n |= (b & 0x7f) << shift;
            if (b >= 0) {
                break;
            }
        }
        Map<String, String> parts = new LinkedHashMap<>();
        parts.put("path", base + new String(record, p, n, StandardCharsets.UTF_8));
        parts.put("line", new String(record, p + n, off + len - p - n, StandardCharsets.UTF_8));
        return parts;
    }

    /** The line: the record less its path and the path's length. */
    @Override
    public int payloadLength(byte[] record, int off, int len) {
        int p = off;
        int n = 0;
        for (int shift = 0; p < off + len && shift <= 28; shift += 7) {
            byte b = record[p++];
            n |= (b & 0x7f) << shift;
            if (b >= 0) {
                return Math.max(0, len - (p - off) - n);
            }
        }
        return len;
    }
}
