package dev.logrouter.core.rewrite;

import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.StructuredData;

import java.nio.charset.StandardCharsets;

/**
 * The field a rewrite rule reads and writes, resolved once from its configured name: one of the header
 * fields {@code HOST}, {@code PROGRAM}, {@code PID}, {@code MSGID}, {@code MSG} (or {@code MESSAGE}), or any
 * other name, which is a field of the event's name-value table ({@code .SDATA.id.param}, {@code .json.user},
 * {@code my_field}). A header field is written by copying the new value into the event's auxiliary buffer
 * and pointing the field at it; a name-value field is set in the table (a {@code .SDATA.} name keeps its
 * SD-ID, up to the next dot, so that {@code ${SDATA}} still serialises it).
 *
 * <p>Threads: immutable; the event passed in belongs to the calling parse worker.
 */
final class EventField {

    private final String name;
    private final int header;
    private final byte[] nameBytes;
    private final int sdIdLength;

    private EventField(String name, int header) {
        this.name = name;
        this.header = header;
        this.nameBytes = name.getBytes(StandardCharsets.UTF_8);
        this.sdIdLength = sdIdLength(nameBytes);
    }

    /** Resolves a configured field name; throws {@link IllegalArgumentException} for an empty one. */
    static EventField of(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("field must name a field: HOST, PROGRAM, PID, MSGID, MSG or a "
                    + "name-value field such as .SDATA.meta.sequenceId");
        }
        String n = name;
        if (n.startsWith("${") && n.endsWith("}")) {
            n = n.substring(2, n.length() - 1);
        }
        int header = switch (n) {
            case "HOST" -> LogEvent.HOST;
            case "PROGRAM" -> LogEvent.PROGRAM;
            case "PID" -> LogEvent.PID;
            case "MSGID" -> LogEvent.MSGID;
            case "MSG", "MESSAGE" -> LogEvent.MSG;
            default -> -1;
        };
        return new EventField(n, header);
    }

    String name() {
        return name;
    }

    boolean isHeader() {
        return header >= 0;
    }

    /** The array holding the current value (see {@link #offset}, {@link #length}); null when the field is unset. */
    byte[] array(LogEvent e) {
        if (header >= 0) {
            return e.isFieldSet(header) ? e.fieldArray(header) : null;
        }
        FieldTable t = e.fields();
        return t.indexOf(nameBytes, 0, nameBytes.length) >= 0 ? t.data() : null;
    }

    int offset(LogEvent e) {
        if (header >= 0) {
            return e.fieldOffset(header);
        }
        FieldTable t = e.fields();
        int i = t.indexOf(nameBytes, 0, nameBytes.length);
        return i < 0 ? 0 : t.valueOffset(i);
    }

    int length(LogEvent e) {
        if (header >= 0) {
            return e.fieldLength(header);
        }
        FieldTable t = e.fields();
        int i = t.indexOf(nameBytes, 0, nameBytes.length);
        return i < 0 ? 0 : t.valueLength(i);
    }

    /**
     * Sets the field to {@code len} bytes of {@code src}. {@code src} must not be one of the event's own
     * buffers (render into a scratch buffer first): writing may grow them.
     */
    void set(LogEvent e, byte[] src, int off, int len) {
        if (header >= 0) {
            int at = e.auxAppend(src, off, len);
            e.setFieldIn(header, LogEvent.IN_AUX, at, len);
        } else {
            e.fields().set(nameBytes, 0, nameBytes.length, src, off, len, sdIdLength);
        }
    }

    /** Removes the field; returns whether it was set. */
    boolean unset(LogEvent e) {
        if (header >= 0) {
            boolean was = e.isFieldSet(header);
            e.unsetField(header);
            return was;
        }
        return e.fields().unset(nameBytes, 0, nameBytes.length);
    }

    /** For a {@code .SDATA.id.param} name, the SD-ID's length (the table entry's tag); 0 otherwise. */
    private static int sdIdLength(byte[] n) {
        byte[] p = StructuredData.PREFIX;
        if (n.length <= p.length) {
            return 0;
        }
        for (int i = 0; i < p.length; i++) {
            if (n[i] != p[i]) {
                return 0;
            }
        }
        int dot = p.length;
        while (dot < n.length && n[dot] != '.') {
            dot++;
        }
        return dot - p.length;
    }

    @Override
    public String toString() {
        return name;
    }
}
