package dev.logrouter.bench.loadgen;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The syslog header flavours LoadGen can send, with their fixed-width timestamps.
 *
 * <p>Stateless and thread-safe. Each sender thread calls {@link #timestamp(long)} at most once per batch.
 */
public enum SyslogFormat {
    /** BSD syslog: {@code <13>Nov 22 07:22:00 host prog[pid]: msg}, LF framed over TCP. */
    RFC3164(DateTimeFormatter.ofPattern("MMM ppd HH:mm:ss", Locale.ENGLISH).withZone(ZoneId.systemDefault())),
    /** IETF syslog: {@code <13>1 2026-11-22T07:22:00.123Z host prog pid - - msg}, octet counted over TCP. */
    RFC5424(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC));

    private final DateTimeFormatter formatter;

    SyslogFormat(DateTimeFormatter formatter) {
        this.formatter = formatter;
    }

    /** Parses a {@code --format} value. */
    static SyslogFormat of(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "rfc3164", "3164", "bsd" -> RFC3164;
            case "rfc5424", "5424", "ietf" -> RFC5424;
            default -> throw new IllegalArgumentException("--format must be rfc3164 or rfc5424, got " + value);
        };
    }

    /** The timestamp for {@code epochMillis} as ASCII bytes; always the same length for one format. */
    byte[] timestamp(long epochMillis) {
        return formatter.format(Instant.ofEpochMilli(epochMillis)).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The message up to and including the timestamp's position: PRI, version, then the timestamp placeholder
     * follows; {@link #afterTimestamp(String, String, long)} is the rest of the header.
     */
    String beforeTimestamp() {
        return this == RFC3164 ? "<13>" : "<13>1 ";
    }

    /** Header text between the timestamp and the message body (MSG). */
    String afterTimestamp(String host, String program, long pid) {
        return this == RFC3164
                ? " " + host + " " + program + "[" + pid + "]: "
                : " " + host + " " + program + " " + pid + " - - ";
    }
}
