package dev.logrouter.patterndb.correlate;

import dev.logrouter.core.event.FieldName;
import dev.logrouter.core.event.LogEvent;

/**
 * Where a {@code <value name="N">} is written: the header field N names ({@code HOST}, {@code PROGRAM}, {@code PID},
 * {@code MSGID}, {@code MESSAGE}/{@code MSG}; the bytes go to the event's auxiliary buffer) or the name-value table
 * entry N.
 *
 * <p>Threads: immutable; {@link #write} is called by the thread that owns the event.
 */
public final class ValueTarget {

    private final String name;
    private final int header;
    private final FieldName field;

    private ValueTarget(String name) {
        this.name = name;
        this.header = LogEvent.headerField(name);
        this.field = header < 0 ? FieldName.of(name) : null;
    }

    public static ValueTarget of(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a value needs a name");
        }
        return new ValueTarget(name);
    }

    public String name() {
        return name;
    }

    /** Sets the value (an empty value is set, not removed, as in syslog-ng). */
    public void write(LogEvent e, byte[] v, int off, int len) {
        if (header >= 0) {
            int at = e.auxAppend(v, off, len);
            e.setFieldIn(header, LogEvent.IN_AUX, at, len);
        } else {
            e.fields().set(field, v, off, len, 0);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
