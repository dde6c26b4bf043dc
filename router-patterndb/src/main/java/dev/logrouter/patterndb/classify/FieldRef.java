package dev.logrouter.patterndb.classify;

import dev.logrouter.core.event.FieldName;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.StructuredData;

/**
 * Where a value name resolved at load time is written in an event: one of the header fields ({@code HOST},
 * {@code PROGRAM}, {@code PID}, {@code MSGID}, {@code MSG}/{@code MESSAGE}: copied into the event's auxiliary
 * buffer and pointed at) or an entry of the name-value table (a {@code .SDATA.} name keeps its SD-ID length as
 * the entry tag).
 *
 * <p>Threads: immutable; the event written belongs to the calling thread.
 */
public final class FieldRef {

    private final String name;
    private final int header;
    private final FieldName fieldName;
    private final int sdIdLength;

    private FieldRef(String name) {
        this.name = name;
        this.header = LogEvent.headerField(name);
        this.fieldName = FieldName.of(name);
        this.sdIdLength = StructuredData.sdIdLength(fieldName.bytes());
    }

    public static FieldRef of(String name) {
        return new FieldRef(name);
    }

    public String name() {
        return name;
    }

    /** Sets the field to {@code len} bytes of {@code src} (which may be one of the event's own arrays). */
    public void set(LogEvent e, byte[] src, int off, int len) {
        if (header >= 0) {
            int at = e.auxAppend(src, off, len);
            e.setFieldIn(header, LogEvent.IN_AUX, at, len);
        } else {
            e.fields().set(fieldName, src, off, len, sdIdLength);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
