package dev.logrouter.sinks.elasticsearch;

import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.SyslogNames;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.JsonStringEscaper;
import dev.logrouter.core.template.Template;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;

/**
 * Writes an event as the sink's built-in JSON document. {@code syslog} names:
 * <pre>{"@timestamp":"2026-11-22T10:00:00.123+01:00","host":"h","program":"sshd","pid":42,"msgid":"ID7",
 *  "severity":"notice","facility":"auth","message":"…","tags":["…"], …name-value pairs…}</pre>
 * {@code ecs} names: {@code @timestamp}, {@code host.name}, {@code process.name}, {@code process.pid},
 * {@code log.syslog.procid}, {@code log.syslog.msgid}, {@code log.syslog.priority},
 * {@code log.syslog.severity.code/name}, {@code log.syslog.facility.code/name}, {@code message}, {@code tags}.
 *
 * <ul>
 *   <li>{@code @timestamp} is the event's own time with milliseconds, in its own offset;</li>
 *   <li>an unset header field is left out; a PID of digits is a number ({@code pid} / {@code process.pid}), any
 *       other PROCID a string ({@code procid} / {@code log.syslog.procid});</li>
 *   <li>every name-value pair follows as a string, under its own name with a leading dot made {@code _}
 *       ({@code .SDATA.meta.seq} → {@code "_SDATA.meta.seq"}, which Elasticsearch reads as nested objects), and one
 *       more {@code _} before a name Elasticsearch keeps for itself ({@code .id} → {@code "__id"}); a pair
 *       whose name is a built-in name, or the object one lies in ({@code host} with {@code ecs}'s
 *       {@code host.name}), is left out (the header wins). Names that clash otherwise ({@code a} and {@code a.b},
 *       {@code host.ip} beside {@code syslog}'s {@code host}) are left to the index mapping, which refuses the
 *       document: it is dead-lettered with the reason.</li>
 * </ul>
 *
 * <p>Allocates nothing per document: constant text is pre-encoded, values are escaped straight into the record.
 *
 * <p>Threads: one instance per sink, used on the sink's thread.
 */
final class DocumentWriter {

    private static final byte[][] SYSLOG_NAMES = names("@timestamp", "host", "program", "pid", "procid", "msgid",
            "severity", "facility", "message", "tags");
    private static final byte[][] ECS_NAMES = names("@timestamp", "host.name", "process.name", "process.pid",
            "log.syslog.procid", "log.syslog.msgid", "log.syslog.priority", "log.syslog.severity.code",
            "log.syslog.severity.name", "log.syslog.facility.code", "log.syslog.facility.name", "message", "tags");

    /** Elasticsearch's metadata fields: a document may not hold them, so a pair named so gets one more {@code _}. */
    private static final byte[][] METADATA = names("_id", "_index", "_source", "_routing", "_version", "_seq_no",
            "_primary_term", "_ignored", "_ignored_source", "_field_names", "_doc_count", "_tier", "_type",
            "_data_stream_timestamp", "_nested_path", "_feature", "_tsid", "_meta");

    // the document's constant text, encoded once (ByteBuilder.append(String) encodes on every call)
    private static final byte[] TIMESTAMP = ascii("{\"@timestamp\":\"");
    private static final byte[] HOST = ascii(",\"host\":\"");
    private static final byte[] PROGRAM = ascii(",\"program\":\"");
    private static final byte[] PID = ascii(",\"pid\":");
    private static final byte[] PROCID = ascii(",\"procid\":\"");
    private static final byte[] MSGID = ascii(",\"msgid\":\"");
    private static final byte[] SEVERITY = ascii(",\"severity\":\"");
    private static final byte[] FACILITY = ascii("\",\"facility\":\"");
    private static final byte[] ECS_HOST = ascii(",\"host.name\":\"");
    private static final byte[] ECS_PROGRAM = ascii(",\"process.name\":\"");
    private static final byte[] ECS_PID = ascii(",\"process.pid\":");
    private static final byte[] ECS_PROCID = ascii(",\"log.syslog.procid\":\"");
    private static final byte[] ECS_MSGID = ascii(",\"log.syslog.msgid\":\"");
    private static final byte[] ECS_PRIORITY = ascii(",\"log.syslog.priority\":");
    private static final byte[] ECS_SEVERITY_CODE = ascii(",\"log.syslog.severity.code\":");
    private static final byte[] ECS_SEVERITY_NAME = ascii(",\"log.syslog.severity.name\":\"");
    private static final byte[] ECS_FACILITY_CODE = ascii("\",\"log.syslog.facility.code\":");
    private static final byte[] ECS_FACILITY_NAME = ascii(",\"log.syslog.facility.name\":\"");
    private static final byte[] MESSAGE = ascii(",\"message\":\"");
    private static final byte[] TAGS = ascii(",\"tags\":[");
    private static final byte[] PAIR_START = ascii(",\"");
    private static final byte[] PAIR_MIDDLE = ascii("\":\"");

    private final boolean ecs;
    private final byte[][] builtIn;
    private final Template timestamp;

    DocumentWriter(boolean ecs, ZoneId zone) {
        this.ecs = ecs;
        this.builtIn = ecs ? ECS_NAMES : SYSLOG_NAMES;
        this.timestamp = Template.compile("${YEAR}-${MONTH}-${DAY}T${HOUR}:${MIN}:${SEC}.${MSEC}${TZOFFSET}", zone);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[][] names(String... names) {
        byte[][] b = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            b[i] = names[i].getBytes(StandardCharsets.US_ASCII);
        }
        return b;
    }

    /** Appends {@code e}'s document to {@code out}; allocates nothing (every constant is pre-encoded). */
    void write(LogEvent e, ByteBuilder out) {
        out.append(TIMESTAMP);
        timestamp.render(e, out);
        out.append((byte) '"');
        field(e, LogEvent.HOST, ecs ? ECS_HOST : HOST, out);
        field(e, LogEvent.PROGRAM, ecs ? ECS_PROGRAM : PROGRAM, out);
        pid(e, out);
        field(e, LogEvent.MSGID, ecs ? ECS_MSGID : MSGID, out);
        if (ecs) {
            out.append(ECS_PRIORITY).appendDecimal(e.pri());
            out.append(ECS_SEVERITY_CODE).appendDecimal(e.severity());
            out.append(ECS_SEVERITY_NAME).append(SyslogNames.severity(e.severity()));
            out.append(ECS_FACILITY_CODE).appendDecimal(e.facility());
            out.append(ECS_FACILITY_NAME).append(SyslogNames.facility(e.facility()));
        } else {
            out.append(SEVERITY).append(SyslogNames.severity(e.severity()));
            out.append(FACILITY).append(SyslogNames.facility(e.facility()));
        }
        out.append((byte) '"');
        field(e, LogEvent.MSG, MESSAGE, out);
        if (e.tagCount() > 0) {
            out.append(TAGS);
            for (int i = 0; i < e.tagCount(); i++) {
                if (i > 0) {
                    out.append((byte) ',');
                }
                byte[] t = Tags.name(e.tagAt(i));
                out.append((byte) '"');
                JsonStringEscaper.escape(out, t, 0, t.length);
                out.append((byte) '"');
            }
            out.append((byte) ']');
        }
        pairs(e.fields(), out);
        out.append((byte) '}');
    }

    /** Appends {@code ,"name":"value"} when the header field is set; {@code key} is {@code ,"name":"}. */
    private static void field(LogEvent e, int field, byte[] key, ByteBuilder out) {
        if (!e.isFieldSet(field)) {
            return;
        }
        out.append(key);
        JsonStringEscaper.escape(out, e.fieldArray(field), e.fieldOffset(field), e.fieldLength(field));
        out.append((byte) '"');
    }

    private void pid(LogEvent e, ByteBuilder out) {
        if (!e.isFieldSet(LogEvent.PID) || e.fieldLength(LogEvent.PID) == 0) {
            return;
        }
        byte[] b = e.fieldArray(LogEvent.PID);
        int off = e.fieldOffset(LogEvent.PID);
        int len = e.fieldLength(LogEvent.PID);
        boolean digits = len <= 18;
        for (int i = 0; i < len && digits; i++) {
            digits = b[off + i] >= '0' && b[off + i] <= '9';
        }
        if (digits) {
            out.append(ecs ? ECS_PID : PID).append(b, off, len);
        } else {
            field(e, LogEvent.PID, ecs ? ECS_PROCID : PROCID, out);
        }
    }

    private void pairs(FieldTable t, ByteBuilder out) {
        byte[] d = t.data();
        for (int i = 0; i < t.size(); i++) {
            int nOff = t.nameOffset(i);
            int nLen = t.nameLength(i);
            if (nLen == 0 || isBuiltIn(d, nOff, nLen)) {
                continue;
            }
            out.append(PAIR_START);
            if (d[nOff] == '.') {
                out.append((byte) '_');
                if (isMetadata(d, nOff, nLen)) {
                    out.append((byte) '_');
                }
                nOff++;
                nLen--;
            } else if (isMetadata(d, nOff, nLen)) {
                out.append((byte) '_');
            }
            JsonStringEscaper.escape(out, d, nOff, nLen);
            out.append(PAIR_MIDDLE);
            JsonStringEscaper.escape(out, d, t.valueOffset(i), t.valueLength(i));
            out.append((byte) '"');
        }
    }

    /** Whether the name's first segment, read with its first byte as {@code _}, is a metadata field. */
    private static boolean isMetadata(byte[] d, int off, int len) {
        if (d[off] != '.' && d[off] != '_') {
            return false;
        }
        int seg = 1;
        while (seg < len && d[off + seg] != '.') {
            seg++;
        }
        for (byte[] m : METADATA) {
            if (m.length == seg && java.util.Arrays.equals(m, 1, seg, d, off + 1, off + seg)) {
                return true;
            }
        }
        return false;
    }

    /** A built-in name, or the object one lies in ({@code host} for {@code host.name}): the header wins. */
    private boolean isBuiltIn(byte[] d, int off, int len) {
        for (byte[] n : builtIn) {
            if ((n.length == len || (n.length > len && n[len] == '.'))
                    && java.util.Arrays.equals(n, 0, len, d, off, off + len)) {
                return true;
            }
        }
        return false;
    }
}
