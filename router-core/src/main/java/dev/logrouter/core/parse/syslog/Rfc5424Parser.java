package dev.logrouter.core.parse.syslog;

import dev.logrouter.core.event.LogEvent;

/**
 * RFC 5424 header parser, as syslog-ng's {@code syslog()} source applies it: {@code <PRI>1 TIMESTAMP HOSTNAME
 * APP-NAME PROCID MSGID SD [MSG]}.
 *
 * <p>When the frame does not start with an optional {@code <PRI>} and VERSION {@code 1} the result is
 * {@link #NOT_RFC5424} and the caller re-parses it as RFC 3164 (no error). Like syslog-ng, a frame without PRI
 * but starting with {@code "1 "} is taken as RFC 5424 with the default PRI. NIL ({@code -}) fields stay unset
 * (TIMESTAMP: receive time, HOSTNAME: the sender); APP-NAME, PROCID and MSGID are cut to 48, 128 and 32 bytes; a
 * UTF-8 BOM at the start of MSG is dropped. Hard errors (bad TIMESTAMP such as lower-case {@code t}/{@code z},
 * HOSTNAME longer than 255 bytes or containing {@code [} or a non-IPv6 {@code :}, a missing separator, malformed
 * SD) return {@code ~position}, where position is the offset at which syslog-ng's scan stopped.
 *
 * <p>Threads: a parse worker thread; one instance per worker, not thread-safe.
 */
final class Rfc5424Parser {

    /** Parsed; every header field and the stamp are set. */
    static final int OK = 0;
    /** Not an RFC 5424 frame (no PRI, or VERSION other than 1): parse it as RFC 3164. */
    static final int NOT_RFC5424 = 1;

    static final int MAX_APP_NAME = 48;
    static final int MAX_PROCID = 128;
    static final int MAX_MSGID = 32;

    private final SyslogTimestampScanner timestamp;
    private final StampResolver stamps;
    private final StructuredDataParser structuredData = new StructuredDataParser();
    private final int[] pri = new int[1];

    Rfc5424Parser(SyslogTimestampScanner timestamp, StampResolver stamps) {
        this.timestamp = timestamp;
        this.stamps = stamps;
    }

    /**
     * Parses {@code b[start, end)} into {@code e}.
     *
     * @return {@link #OK}, {@link #NOT_RFC5424}, or {@code ~position} (negative) on a hard error
     */
    int parse(LogEvent e, byte[] b, int start, int end) {
        int p = SyslogBytes.scanPri(b, start, end, pri);
        if (p < 0) {
            return NOT_RFC5424;
        }
        int version = 0;
        while (p < end && b[p] != ' ') {
            if (!SyslogBytes.isDigit(b[p])) {
                return NOT_RFC5424;
            }
            version = Math.min(version * 10 + (b[p] - '0'), 1000);
            p++;
        }
        if (version != 1) {
            return NOT_RFC5424;
        }
        e.setPri(pri[0]);
        e.setHostFromPeer();
        if (p >= end) {
            return ~p;
        }
        p++;

        if (p < end && b[p] == '-') {
            stamps.setReceiveTime(e);
            p++;
        } else {
            int q = timestamp.scanIso(b, p, end);
            if (q < 0) {
                return ~p;
            }
            stamps.setScanned(e, timestamp);
            p = q;
        }
        if (p >= end || b[p] != ' ') {
            return ~p;
        }
        p++;

        int hostStart = p;
        int hostEnd = SyslogBytes.scanHostname(b, p, end);
        if (hostEnd < 0) {
            return ~(hostStart + 1);
        }
        if (hostEnd - hostStart != 1 || b[hostStart] != '-') {
            e.setField(LogEvent.HOST, hostStart, hostEnd - hostStart);
        }
        p = hostEnd + 1;

        p = column(e, LogEvent.PROGRAM, b, p, end, MAX_APP_NAME);
        if (p < 0) {
            return p;
        }
        p = column(e, LogEvent.PID, b, p, end, MAX_PROCID);
        if (p < 0) {
            return p;
        }
        p = column(e, LogEvent.MSGID, b, p, end, MAX_MSGID);
        if (p < 0) {
            return p;
        }

        p = structuredData.parse(e.fields(), b, p, end);
        if (p < 0) {
            return p;
        }
        if (p == end) {
            e.setField(LogEvent.MSG, end, 0);
            return OK;
        }
        if (b[p] != ' ') {
            return ~p;
        }
        p++;
        if (end - p >= 3 && b[p] == (byte) 0xEF && b[p + 1] == (byte) 0xBB && b[p + 2] == (byte) 0xBF) {
            p += 3;
        }
        e.setField(LogEvent.MSG, p, end - p);
        return OK;
    }

    /**
     * One space-terminated header column; {@code -} leaves the field unset, longer values are cut to {@code max}.
     *
     * @return the position after the terminating space, or {@code ~end} when no space follows
     */
    private static int column(LogEvent e, int field, byte[] b, int p, int end, int max) {
        int space = p;
        while (space < end && b[space] != ' ') {
            space++;
        }
        if (space >= end) {
            return ~end;
        }
        int len = space - p;
        if (len != 1 || b[p] != '-') {
            e.setField(field, p, Math.min(len, max));
        }
        return space + 1;
    }
}
