package dev.logrouter.core.pipeline;

import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;

/**
 * The {@code fieldsDropped} and {@code valuesTruncated} counters of a stage that writes events' name-value pairs
 * (a parse worker, the serial stage for the events it generates): after the stage handled an event, adds the
 * limit hits its {@link FieldTable} recorded and tags the event ({@link LogEvent#tagLimitHits()}). The tables count
 * per event, so the shared counters are touched only for events that hit a limit.
 *
 * <p>Threads: the stage's own thread.
 */
final class FieldLimitCounters {

    private final Counter fieldsDropped;
    private final Counter valuesTruncated;

    FieldLimitCounters(MetricGroup metrics) {
        this.fieldsDropped = metrics.counter("fieldsDropped", "Name-value pairs dropped because their event already "
                + "held pipeline.max-fields (the event is tagged .limit.max-fields).");
        this.valuesTruncated = metrics.counter("valuesTruncated", "Values cut to pipeline.max-field-length at a UTF-8 "
                + "character boundary (the event is tagged .limit.max-field-length).");
    }

    /** Counts and tags the limits {@code e}'s fields hit since it was cleared. */
    void count(LogEvent e) {
        FieldTable t = e.fields();
        int dropped = t.fieldsDropped();
        int cut = t.valuesTruncated();
        if ((dropped | cut) != 0) {
            hit(e, dropped, cut);
        }
    }

    private void hit(LogEvent e, int dropped, int cut) {
        if (dropped != 0) {
            fieldsDropped.add(dropped);
        }
        if (cut != 0) {
            valuesTruncated.add(cut);
        }
        e.tagLimitHits();
    }
}
