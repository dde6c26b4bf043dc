package dev.logrouter.core.parse.syslog;

import dev.logrouter.core.event.LogEvent;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Replaces an unparsable frame with the message syslog-ng emits in its place: PRI 43 (syslog.err), HOST the
 * sender, PROGRAM {@code syslog-ng}, PID this JVM's pid, SDATA {@code [meta sequenceId="N"]} (N counts these
 * messages per source, from 1, as syslog-ng does), MSG {@code Error processing log message: } followed by the frame with
 * {@code >@<} inserted one byte before the position where the scan stopped (nothing inserted when it stopped at
 * offset 0, e.g. a malformed PRI), the receive time as stamp, and {@link LogEvent#FLAG_PARSE_ERROR}.
 *
 * <p>A rare path: it may allocate.
 *
 * <p>Threads: any parse worker thread (the counter is shared and atomic).
 */
final class ParseErrorMessage {

    /** Replacement messages numbered per source, as syslog-ng numbers them (rare path). */
    private static final ConcurrentHashMap<Integer, AtomicLong> SEQUENCES = new ConcurrentHashMap<>();
    private static final byte[] PID = Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PROGRAM = ascii("syslog-ng");
    private static final byte[] PREFIX = ascii("Error processing log message: ");
    private static final byte[] MARKER = ascii(">@<");
    private static final byte[] SEQUENCE_ID = ascii(".SDATA.meta.sequenceId");
    private static final int META_LEN = 4;
    /** PRI of the replacement: facility syslog (5), severity err (3). */
    static final int PRI = 43;

    private ParseErrorMessage() {
    }

    /**
     * Rewrites {@code e} as the replacement message for {@code raw[0, end)}.
     *
     * @param position where the scan stopped (0: no marker)
     */
    static void apply(LogEvent e, int end, int position, StampResolver stamps) {
        for (int field = LogEvent.HOST; field <= LogEvent.MSG; field++) {
            e.unsetField(field);
        }
        e.fields().clear();
        e.setPri(PRI);
        e.setHostFromPeer();
        e.setFieldCopy(LogEvent.PROGRAM, PROGRAM, 0, PROGRAM.length);
        e.setFieldCopy(LogEvent.PID, PID, 0, PID.length);
        byte[] seq = Long.toString(SEQUENCES.computeIfAbsent(e.sourceId(), k -> new AtomicLong()).incrementAndGet()).getBytes(StandardCharsets.US_ASCII);
        e.fields().set(SEQUENCE_ID, 0, SEQUENCE_ID.length, seq, 0, seq.length, META_LEN);

        byte[] raw = e.raw();
        int msgStart = e.auxAppend(PREFIX, 0, PREFIX.length);
        if (position > 0) {
            int mark = Math.min(position - 1, end);
            e.auxAppend(raw, 0, mark);
            e.auxAppend(MARKER, 0, MARKER.length);
            e.auxAppend(raw, mark, end - mark);
        } else {
            e.auxAppend(raw, 0, end);
        }
        e.setFieldIn(LogEvent.MSG, LogEvent.IN_AUX, msgStart, e.auxLength() - msgStart);
        stamps.setReceiveTime(e);
        e.addFlag(LogEvent.FLAG_PARSE_ERROR);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
