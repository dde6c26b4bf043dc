package dev.logrouter.patterndb;

import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;

import java.nio.charset.StandardCharsets;

/**
 * Formats an event as {@code pdbtool match} prints it (spec 10.3): one {@code NAME=VALUE} line per value, the
 * built-in values first ({@code HOST}, {@code MESSAGE}, {@code PROGRAM}, {@code PID}, {@code MSGID}, each only when
 * set and not empty), then the name-value table in insertion order (empty values included), then
 * {@code TAGS=} with the tag names comma separated in the order they were added, then an empty line.
 *
 * <p>The reference orders the table by its global value-handle numbering and the tags by tag id; both follow
 * first use, so orders can differ between the two while the sets are equal (the conformance tests compare sets).
 *
 * <p>Threads: stateless.
 */
public final class PdbOutput {

    private static final int[] BUILT_INS = {LogEvent.HOST, LogEvent.MSG, LogEvent.PROGRAM, LogEvent.PID,
            LogEvent.MSGID};
    private static final String[] BUILT_IN_NAMES = {"HOST", "MESSAGE", "PROGRAM", "PID", "MSGID"};

    private static final int UNKNOWN = dev.logrouter.patterndb.classify.Classifier.UNKNOWN_TAG;

    private PdbOutput() {
    }

    /** True when the event is an unmatched message (tag {@code .classifier.unknown}): pdbtool's exit code 1. */
    public static boolean isUnknown(LogEvent e) {
        return e.hasTag(UNKNOWN);
    }

    /** The event's lines, each ending in {@code \n}, plus the terminating empty line. */
    public static String format(LogEvent e) {
        StringBuilder sb = new StringBuilder(256);
        for (int k = 0; k < BUILT_INS.length; k++) {
            int f = BUILT_INS[k];
            if (e.fieldLength(f) > 0) {
                sb.append(BUILT_IN_NAMES[k]).append('=')
                        .append(new String(e.fieldArray(f), e.fieldOffset(f), e.fieldLength(f), StandardCharsets.UTF_8))
                        .append('\n');
            }
        }
        FieldTable t = e.fields();
        for (int i = 0; i < t.size(); i++) {
            sb.append(t.name(i)).append('=').append(t.value(i)).append('\n');
        }
        sb.append("TAGS=");
        for (int i = 0; i < e.tagCount(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(Tags.nameString(e.tagAt(i)));
        }
        sb.append("\n\n");
        return sb.toString();
    }
}
