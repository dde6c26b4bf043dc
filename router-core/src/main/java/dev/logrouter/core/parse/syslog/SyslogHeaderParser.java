package dev.logrouter.core.parse.syslog;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.parse.EventParser;

import java.time.ZoneId;

/**
 * Parses the syslog header of an event's raw frame the way syslog-ng 3.38 does, into the event's header fields
 * (HOST, PROGRAM, PID, MSGID, MSG as spans of the raw buffer), PRI, stamp and structured data
 * ({@code .SDATA.*} entries of {@link LogEvent#fields()}).
 *
 * <p>Dispatch on {@link LogEvent#formatHint()}: {@link LogEvent#FORMAT_RFC3164} (a {@code network()} source) runs
 * the RFC 3164 parser only; {@link LogEvent#FORMAT_RFC5424} and {@link LogEvent#FORMAT_AUTO} (a {@code syslog()}
 * source) run the RFC 5424 parser and fall back silently to RFC 3164 when the frame has no VERSION 1;
 * {@link LogEvent#FORMAT_JSON} (a {@code kafka} source reading what a {@code kafka} sink wrote) runs
 * {@link JsonEnvelopeParser} and falls back to the syslog parsers when the frame is not a JSON object;
 * {@link LogEvent#FORMAT_RAW} (a file or journal source) parses nothing: the frame is MSG, the source set the rest.
 * With {@link LogEvent#FORMAT_NO_HOSTNAME} (the unix sources) an RFC 3164 header is read without HOST. Trailing
 * {@code \n} and {@code \0} bytes are ignored. A hard error (malformed PRI or RFC 5424 header) turns the event into
 * syslog-ng's replacement message and flags it {@link LogEvent#FLAG_PARSE_ERROR}; {@link #parse} never throws on
 * bad input. The stamp is always set: the message's own, or the receive time ({@link LogEvent#receivedMillis()})
 * in {@code receiverZone}. Zone-less stamps are read in {@code receiverZone}; see {@link ReceiverZoneOffsets} for
 * the cost with region zones.
 *
 * <p>Expects a freshly cleared event filled by the source (raw bytes, peer, hint, receive time). Allocates nothing
 * per message except on the replacement-message path.
 *
 * <p>Threads: a parse worker thread; one instance per worker, not thread-safe.
 */
public final class SyslogHeaderParser implements EventParser {

    private final StampResolver stamps;
    private final Rfc3164Parser rfc3164;
    private final Rfc5424Parser rfc5424;
    private final JsonEnvelopeParser json;

    /**
     * @param receiverZone zone for zone-less timestamps, year guessing and the receive-time stamp
     */
    public SyslogHeaderParser(ZoneId receiverZone) {
        this.stamps = new StampResolver(new ReceiverZoneOffsets(receiverZone));
        SyslogTimestampScanner timestamp = new SyslogTimestampScanner();
        this.rfc3164 = new Rfc3164Parser(timestamp, stamps);
        this.rfc5424 = new Rfc5424Parser(timestamp, stamps);
        this.json = new JsonEnvelopeParser(stamps, timestamp);
    }

    @Override
    public void parse(LogEvent e) {
        byte[] b = e.raw();
        int end = e.rawLength();
        while (end > 0 && (b[end - 1] == '\n' || b[end - 1] == 0)) {
            end--;
        }
        if (e.formatHint() == LogEvent.FORMAT_JSON && json.parse(e, b, 0, end)) {
            return;
        }
        if (e.formatHint() == LogEvent.FORMAT_RAW) {
            e.setField(LogEvent.MSG, 0, end);
            if (!e.isStampSet()) {
                stamps.setReceiveTime(e);
            }
            return;
        }
        if (e.formatHint() != LogEvent.FORMAT_RFC3164) {
            int result = rfc5424.parse(e, b, 0, end);
            if (result == Rfc5424Parser.OK) {
                return;
            }
            if (result != Rfc5424Parser.NOT_RFC5424) {
                ParseErrorMessage.apply(e, end, ~result, stamps);
                return;
            }
        }
        if (!rfc3164.parse(e, b, 0, end)) {
            ParseErrorMessage.apply(e, end, 0, stamps);
        }
    }
}
