package dev.logrouter.netty.relay;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.sink.SinkEncoder;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.FormatSyslogRfc5424;
import dev.logrouter.core.template.Template;
import dev.logrouter.netty.relay.SyslogSinkConfig.Format;
import dev.logrouter.netty.relay.SyslogSinkConfig.Framing;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.Map;

/**
 * Writes one event as one framed syslog message: the format ({@code rfc5424}, {@code rfc3164} or {@code raw}) with
 * the body template in place of MSG, then the framing ({@code octet-counted}: {@code LEN SP MSG}; {@code lf}:
 * {@code MSG LF}; null: the message alone, for a datagram cut at the datagram limit and counted, or for RELP, whose
 * delivery frames each message). Nothing is allocated per event once the scratch buffer is warm; only octet counting
 * of a rendered message copies it (its length comes first).
 *
 * <p>Threads: keeps scratch state; belongs to the sink's thread.
 */
final class SyslogEncoder implements SinkEncoder {

    private final Format format;
    private final Framing framing;
    /** rfc5424 header writer (also for raw events without received bytes). */
    private final FormatSyslogRfc5424 rfc5424;
    /** rfc3164: the whole message; rfc5424 and raw: the body template, or null for MSG / the received bytes. */
    private final Template template;
    private final ByteBuilder scratch = new ByteBuilder(1024);
    /** UDP: the longest datagram (0: no limit). */
    private final int maxDatagram;
    private final Counter truncated;

    /**
     * @param framing     null for UDP and RELP: the message alone
     * @param fracDigits  rfc5424: digits of the timestamp's fraction, 0..6, or
     *                    {@link FormatSyslogRfc5424#FRAC_AS_RECEIVED} (as many as the stamp had)
     * @param maxDatagram with framing null: longer messages are cut to it and counted in {@code truncated}; 0: no
     *                    limit (RELP)
     */
    SyslogEncoder(Format format, Framing framing, String bodyTemplate, ZoneId zone, int fracDigits, int maxDatagram,
                  Counter truncated) {
        this.format = format;
        this.framing = framing;
        this.maxDatagram = framing == null ? maxDatagram : 0;
        this.truncated = truncated;
        this.rfc5424 = FormatSyslogRfc5424.forZone(zone, fracDigits);
        if (format == Format.rfc3164) {
            // syslog-ng's network() destination: "<PRI>" then the file format "DATE HOST MSGHDRMSG"
            this.template = Template.compile("<${PRI}>${DATE} ${HOST} ${MSGHDR}"
                    + (bodyTemplate != null ? bodyTemplate : "${MSG}"), zone);
        } else {
            this.template = bodyTemplate == null ? null : Template.compile(bodyTemplate, zone);
        }
    }

    /** Appends {@code e} as one framed message to {@code out}. */
    @Override
    public void encode(LogEvent e, ByteBuilder out) {
        if (maxDatagram > 0) {
            int start = out.length();
            message(e, out);
            if (out.length() - start > maxDatagram) {
                out.setLength(start + maxDatagram);
                truncated.inc();
            }
            return;
        }
        if (framing == Framing.octetCounted) {
            if (format == Format.raw && template == null && e.rawLength() > 0) {
                out.appendDecimal(e.rawLength()).append((byte) ' ').append(e.raw(), 0, e.rawLength());
                return;
            }
            scratch.reset();
            message(e, scratch);
            out.appendDecimal(scratch.length()).append((byte) ' ').append(scratch.array(), 0, scratch.length());
            return;
        }
        message(e, out);
        if (framing == Framing.lf) {
            out.append((byte) '\n');
        }
    }

    /** {@code frame}: the message as it goes on the wire, framing included. */
    @Override
    public Map<String, String> describe(byte[] record, int off, int len) {
        return Map.of("frame", new String(record, off, len, StandardCharsets.UTF_8));
    }

    /** The message without framing. */
    private void message(LogEvent e, ByteBuilder out) {
        switch (format) {
            case rfc3164 -> template.render(e, out);
            case raw -> {
                if (template != null) {
                    template.render(e, out);
                } else if (e.rawLength() > 0) {
                    out.append(e.raw(), 0, e.rawLength());
                } else { // made by PatternDB correlation: nothing was received
                    rfc5424.render(e, out);
                }
            }
            default -> {
                if (template == null) {
                    rfc5424.render(e, out);
                } else {
                    rfc5424.renderHeader(e, out);
                    int mark = out.length();
                    out.append((byte) ' ');
                    template.render(e, out);
                    if (out.length() == mark + 1) {
                        out.setLength(mark); // an empty body: no SP, as with an empty MSG
                    }
                }
            }
        }
    }
}
