package dev.logrouter.core.parse.syslog;

import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;

import java.nio.charset.StandardCharsets;

/**
 * RFC 3164 ("BSD", legacy) header parser, as syslog-ng's {@code network()} source applies it. A sequence of
 * optional steps, each with syslog-ng's fallback:
 * <ol>
 *   <li>{@code <PRI>} (absent: 13; a non-digit inside is the only hard error);</li>
 *   <li>a Cisco sequence number {@code NNN: } ({@code .SDATA.meta.sequenceId}), then spaces;</li>
 *   <li>a Cisco clock marker {@code *} / {@code .} ({@code .SDATA.timeQuality.isSynced} 0 / 1);</li>
 *   <li>a timestamp ({@link SyslogTimestampScanner#scanLegacy}). With one: spaces; the AIX prefix
 *       {@code Message forwarded from HOST:}; a {@code last message repeated} line ends the header; otherwise the
 *       next token is HOST if a space follows it ({@link SyslogBytes#scanHostname}), then spaces, then the tag;
 *       with {@link LogEvent#FORMAT_NO_HOSTNAME} (local sources, as syslog-ng's {@code no-hostname}) the tag follows
 *       the stamp directly.
 *       Without one: receive time, no hostname, the tag right away;</li>
 *   <li>the tag {@code PROGRAM[PID]: } ({@link SyslogBytes#parseProgram}); the rest is MSG.</li>
 * </ol>
 * HOST is the sender's address unless the message names one.
 *
 * <p>Threads: a parse worker thread; one instance per worker, not thread-safe.
 */
final class Rfc3164Parser {

    private static final byte[] AIX_FORWARDED = bytes("Message forwarded from ");
    private static final byte[] LAST_REPEATED = bytes("last message repeated");
    private static final byte[] SEQUENCE_ID = bytes(".SDATA.meta.sequenceId");
    private static final int META_LEN = 4;
    private static final byte[] IS_SYNCED = bytes(".SDATA.timeQuality.isSynced");
    private static final int TIME_QUALITY_LEN = 11;
    private static final byte[] ZERO_ONE = bytes("01");

    private final SyslogTimestampScanner timestamp;
    private final StampResolver stamps;
    private final int[] pri = new int[1];

    Rfc3164Parser(SyslogTimestampScanner timestamp, StampResolver stamps) {
        this.timestamp = timestamp;
        this.stamps = stamps;
    }

    /**
     * Parses {@code b[start, end)} into {@code e}.
     *
     * @return false on a hard error (malformed PRI); nothing useful is set then
     */
    boolean parse(LogEvent e, byte[] b, int start, int end) {
        int p = SyslogBytes.scanPri(b, start, end, pri);
        if (p < 0) {
            return false;
        }
        e.setPri(pri[0]);
        e.setHostFromPeer();
        FieldTable fields = e.fields();

        p = ciscoSequence(fields, b, p, end);
        while (p < end && b[p] == ' ') {
            p++;
        }
        if (p < end && (b[p] == '*' || b[p] == '.')) {
            fields.set(IS_SYNCED, 0, IS_SYNCED.length, ZERO_ONE, b[p] == '*' ? 0 : 1, 1, TIME_QUALITY_LEN);
            p++;
        }

        int q = timestamp.scanLegacy(b, p, end);
        if (q >= 0) {
            stamps.setScanned(e, timestamp);
            p = q;
            while (p < end && b[p] == ' ') {
                p++;
            }
            boolean hostFound = false;
            if (SyslogBytes.startsWith(b, p, end, AIX_FORWARDED)) {
                p += AIX_FORWARDED.length;
                int hostStart = p;
                while (p < end && b[p] != ':') {
                    p++;
                }
                e.setField(LogEvent.HOST, hostStart, p - hostStart);
                hostFound = true;
                while (p < end && (b[p] == ' ' || b[p] == ':')) {
                    p++;
                }
            }
            // syslog-ng wants at least one byte after the phrase before treating the line as a repeat notice
            boolean repeated = end - p > LAST_REPEATED.length && SyslogBytes.startsWith(b, p, end, LAST_REPEATED);
            if (!repeated) {
                if (!hostFound && !e.noHostname()) {
                    int hostEnd = SyslogBytes.scanHostname(b, p, end);
                    if (hostEnd >= 0) {
                        e.setField(LogEvent.HOST, p, hostEnd - p);
                        p = hostEnd;
                    }
                    while (p < end && b[p] == ' ') {
                        p++;
                    }
                }
                p = SyslogBytes.parseProgram(e, b, p, end);
            }
        } else {
            stamps.setReceiveTime(e);
            p = SyslogBytes.parseProgram(e, b, p, end);
        }
        e.setField(LogEvent.MSG, p, end - p);
        return true;
    }

    /** {@code digits: } (digits may be empty, as in syslog-ng) → sequence id; returns the position of the space. */
    private static int ciscoSequence(FieldTable fields, byte[] b, int p, int end) {
        int i = p;
        while (i < end && b[i] != ':') {
            if (!SyslogBytes.isDigit(b[i])) {
                return p;
            }
            i++;
        }
        if (i + 1 >= end || b[i + 1] != ' ') {
            return p;
        }
        fields.set(SEQUENCE_ID, 0, SEQUENCE_ID.length, b, p, i - p, META_LEN);
        return i + 1;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
