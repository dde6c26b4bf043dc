package dev.logrouter.core.rewrite;

import dev.logrouter.core.event.FieldName;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.StructuredData;

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
    private final FieldName fieldName;
    private final int sdIdLength;

    private EventField(String name, int header) {
        this.name = name;
        this.header = header;
        this.fieldName = FieldName.of(name);
        this.sdIdLength = StructuredData.sdIdLength(fieldName.bytes());
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
        return new EventField(n, LogEvent.headerField(n));
    }

    /**
     * The current value, looked up once: returns the array holding it and puts its offset and length in
     * {@code span[0]} and {@code span[1]}; returns null when the field is unset.
     */
    byte[] read(LogEvent e, int[] span) {
        if (header >= 0) {
            if (!e.isFieldSet(header)) {
                return null;
            }
            span[0] = e.fieldOffset(header);
            span[1] = e.fieldLength(header);
            return e.fieldArray(header);
        }
        FieldTable t = e.fields();
        int i = t.indexOf(fieldName);
        if (i < 0) {
            return null;
        }
        span[0] = t.valueOffset(i);
        span[1] = t.valueLength(i);
        return t.data();
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
            e.fields().set(fieldName, src, off, len, sdIdLength);
        }
    }

    /** Removes the field; returns whether it was set. */
    boolean unset(LogEvent e) {
        if (header >= 0) {
            boolean was = e.isFieldSet(header);
            e.unsetField(header);
            return was;
        }
        return e.fields().unset(fieldName);
    }

    @Override
    public String toString() {
        return name;
    }
}
