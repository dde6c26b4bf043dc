package dev.logrouter.core.event;

/**
 * A field resolved once from its name, for the steps that read and write fields by name (rewrite rules,
 * PatternDB captures and values): one of the header
 * fields {@code HOST}, {@code PROGRAM}, {@code PID}, {@code MSGID}, {@code MSG} (or {@code MESSAGE}), or any
 * other name, which is a field of the event's name-value table ({@code .SDATA.id.param}, {@code .json.user},
 * {@code my_field}). A header field is written by copying the new value into the event's auxiliary buffer
 * and pointing the field at it; a name-value field is set in the table (a {@code .SDATA.} name keeps its
 * SD-ID, up to the next dot, so that {@code ${SDATA}} still serialises it: a new parameter joins the first element
 * of its SD-ID, one that is there keeps its element; see {@link StructuredData}).
 *
 * <p>Threads: immutable; the event passed in belongs to the calling thread.
 */
public final class EventField {

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
    public static EventField of(String name) {
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
    public byte[] read(LogEvent e, int[] span) {
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
     * Sets the field to {@code len} bytes of {@code src} (an empty value is set, not removed). {@code src} may
     * be the event's raw frame (captures); a value rendered from the event's own fields goes through a scratch
     * buffer first, since writing may grow the event's other buffers.
     */
    public void set(LogEvent e, byte[] src, int off, int len) {
        if (header >= 0) {
            e.setFieldCopy(header, src, off, len);
        } else {
            FieldTable t = e.fields();
            int tag = sdIdLength;
            if (sdIdLength > 0) { // structured data: a param that is there stays in its element
                int i = t.indexOf(fieldName);
                if (i >= 0) {
                    tag = t.tag(i);
                }
            }
            t.set(fieldName, src, off, len, tag);
        }
    }

    /** Removes the field; returns whether it was set. */
    public boolean unset(LogEvent e) {
        if (header >= 0) {
            boolean was = e.isFieldSet(header);
            e.unsetField(header);
            return was;
        }
        return e.fields().unset(fieldName);
    }

    /** The name as given (without {@code ${}}). */
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }
}
