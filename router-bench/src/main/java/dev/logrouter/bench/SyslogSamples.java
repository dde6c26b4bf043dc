package dev.logrouter.bench;

import dev.logrouter.core.event.LogEvent;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Fixed syslog frames shared by the JMH benchmarks: realistic headers padded with log-like text to an exact
 * size, so that every kind costs the same to copy and only the header differs.
 *
 * <p>Each method returns a fresh array owned by the caller. Built once in a benchmark's setup, never on the
 * measured path. Threads: stateless, any thread.
 */
public final class SyslogSamples {

    /** BSD header, as a Linux host's syslog() call sends it. */
    public static final String RFC3164 = "rfc3164";
    /** RFC 5424 header with one SD element, no escapes. */
    public static final String RFC5424 = "rfc5424";
    /** RFC 5424 header with two SD elements whose values contain escapes (the frame body of an octet-counted frame). */
    public static final String RFC5424_OCTET_SD = "rfc5424-octet-sd";
    /** Cisco IOS: sequence number, unsynced clock marker, millisecond BSD stamp, {@code %FACILITY-SEV-MNEMONIC}. */
    public static final String CISCO = "cisco";

    /** Default size of a frame body in the benchmarks. */
    public static final int DEFAULT_SIZE = 400;

    /** Sender address the benchmarks put in {@link LogEvent#setPeer}. */
    public static final byte[] PEER = ascii("10.0.0.1");
    /** Source name the benchmarks put in {@link LogEvent#setSource}. */
    public static final byte[] SOURCE_NAME = ascii("s_net");
    /** Receive time: a few seconds after the frames' stamps (2025-11-22T07:00:05Z). */
    public static final long RECEIVED_MILLIS = Instant.parse("2025-11-22T07:00:05.250Z").toEpochMilli();

    private static final String FILLER = " GET /api/v1/orders/84412?expand=items,customer HTTP/1.1 status=200"
            + " bytes=15324 duration_ms=42 user=alice client=10.20.30.40 ua=\"curl/8.5.0\""
            + " trace=4bf92f3577b34da6a3ce929d0e0e4736";

    private SyslogSamples() {
    }

    /** The header part (everything up to MSG) of a kind, then some message text. */
    private static String start(String kind) {
        switch (kind) {
            case RFC3164:
                return "<13>Nov 22 07:00:00 host1 app[1234]: request served";
            case RFC5424:
                return "<165>1 2025-11-22T07:00:00.123456+01:00 host1.example.com app 1234 ID47"
                        + " [exampleSDID@32473 iut=\"3\" eventSource=\"Application\" eventID=\"1011\"]"
                        + " request served";
            case RFC5424_OCTET_SD:
                return "<165>1 2025-11-22T07:00:00.123Z host1.example.com app 1234 ID47"
                        + " [exampleSDID@32473 iut=\"3\" eventSource=\"App \\\"main\\\"\" eventID=\"1011\"]"
                        + "[origin@32473 ip=\"10.0.0.1\" path=\"C:\\\\logs\\\\app [1\\]\" software=\"app\"]"
                        + " request served";
            case CISCO:
                return "<189>123: *Mar  1 18:46:11.315: %SYS-5-CONFIG_I: Configured from console by vty0 (10.0.0.1)";
            default:
                throw new IllegalArgumentException("unknown message kind: " + kind
                        + " (rfc3164, rfc5424, rfc5424-octet-sd, cisco)");
        }
    }

    /**
     * A frame body of exactly {@code size} bytes: the kind's header and text, padded with {@link #FILLER} text.
     * No trailing LF (the framing adds it).
     */
    public static byte[] frame(String kind, int size) {
        StringBuilder sb = new StringBuilder(start(kind));
        if (sb.length() > size) {
            throw new IllegalArgumentException(kind + " needs at least " + sb.length() + " bytes, got " + size);
        }
        while (sb.length() < size) {
            sb.append(FILLER, 0, Math.min(FILLER.length(), size - sb.length()));
        }
        return ascii(sb.toString());
    }

    /** The format hint the production source would give: RFC 3164 for a network() source, RFC 5424 for syslog(). */
    public static byte formatHint(String kind) {
        return RFC3164.equals(kind) || CISCO.equals(kind) ? LogEvent.FORMAT_RFC3164 : LogEvent.FORMAT_RFC5424;
    }

    /** Fills a cleared event with what a TCP source would set before the parser runs. */
    public static void receive(LogEvent e, byte[] raw, byte formatHint) {
        e.clear();
        e.setRaw(raw, 0, raw.length);
        e.setPeer(PEER, 0, PEER.length);
        e.setReceivedMillis(RECEIVED_MILLIS);
        e.setSource(1, SOURCE_NAME, formatHint, 1L);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
