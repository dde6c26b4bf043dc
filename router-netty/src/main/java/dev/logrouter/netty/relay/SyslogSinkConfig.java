package dev.logrouter.netty.relay;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.journal.JournalConfig;
import dev.logrouter.core.journal.Buffer;
import dev.logrouter.core.journal.SinkBuffers;
import dev.logrouter.core.journal.Overflow;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.sink.FlushPolicy;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.sink.SinkConfig;
import dev.logrouter.core.sink.SinkContext;
import dev.logrouter.core.sink.SinkEncoder;
import dev.logrouter.core.template.FormatSyslogRfc5424;
import dev.logrouter.core.template.Template;
import dev.logrouter.netty.tls.ClientTls;
import dev.logrouter.netty.tls.TlsClientConfig;

import java.util.List;

/**
 * {@code type: syslog}: forwards events to other syslog servers (a relay), like syslog-ng's {@code network()} and
 * {@code syslog()} destinations and rsyslog's {@code omfwd}: over TCP, TLS or UDP, to the first live host of a list
 * (failover) or spread over all of them (round-robin), as RFC 5424, RFC 3164 or the bytes received; or over RELP
 * (rsyslog's {@code omrelp}), where a message counts as written once the receiver acknowledged it.
 *
 * <p>Threads: immutable.
 */
public record SyslogSinkConfig(
        @Option(doc = "Unique sink name.", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "Destinations as host:port ([v6]:port for IPv6 addresses). A DNS name is resolved at each "
                + "connect.", defaultValue = Option.REQUIRED)
        List<String> hosts,
        @Option(doc = "failover: every batch goes to the first live host in list order; after a failover the hosts "
                + "before the active one are tried again on their reconnect backoff, and the first that stays "
                + "connected for failback-after takes over. round-robin: connections to every host, batches spread "
                + "over the live ones; a host that connects again takes batches from then on.",
                defaultValue = "failover")
        Mode mode,
        @Option(doc = "With failover: how long a host before the active one (the primary) must stay reachable, "
                + "without a failure, before batches move back to it.",
                defaultValue = "60s")
        TimeSpan failbackAfter,
        @Option(doc = "tcp, tls (RFC 5425; needs tls:), udp (RFC 5426: one message per datagram) or relp (rsyslog's "
                + "Reliable Event Logging Protocol, as omrelp: a message counts as written once the receiver "
                + "answered rsp 200; with tls: RELP over TLS).", defaultValue = "tcp")
        Transport transport,
        @Option(doc = "TLS client options, with transport: tls, or with transport: relp for RELP over TLS.",
                defaultValue = Option.NONE)
        TlsClientConfig tls,
        @Option(doc = "rfc5424: <PRI>1 ISODATE HOST PROGRAM PID MSGID SDATA MSG, as $(format-syslog-rfc5424) but "
                + "with the timestamp's fraction of a second (see frac-digits); rfc3164: <PRI>DATE HOST PROGRAM[PID]: "
                + "MSG, as syslog-ng's network() destination writes it; raw: the bytes as received (no framing of the "
                + "sender's; a message made by PatternDB correlation has none and is written as rfc5424).",
                defaultValue = "rfc5424")
        Format format,
        @Option(doc = "rfc5424 (and raw messages written as rfc5424): digits of the timestamp's fraction of a second, "
                + "0..6 (syslog-ng's frac-digits(): the microseconds cut, or padded with zeros, to that many; 0 writes "
                + "whole seconds). Unset: as many as the message's stamp had (2026-11-22T22:14:15.003Z is written "
                + ".003; a stamp without a fraction, or the receive time, none; a journal entry 6).",
                defaultValue = Option.NONE)
        Integer fracDigits,
        @Option(doc = "octet-counted (LEN SP MSG, RFC 6587/5425) or lf (MSG LF). Default: octet-counted for rfc5424, "
                + "raw and tls, lf for rfc3164 over tcp. UDP has no framing: one message per datagram; RELP frames "
                + "each message itself (framing is ignored with transport: relp).",
                defaultValue = Option.NONE)
        Framing framing,
        @Option(doc = "Template of the message body, in place of MSG (the header is still written per format; with "
                + "raw the template replaces the whole message).", defaultValue = Option.NONE)
        String template,
        @Option(doc = "UDP: longest datagram; a longer message is cut to it and counted (truncated).",
                defaultValue = "65000")
        ByteSize maxDatagramSize,
        @Option(doc = "A connect (and TLS handshake) not done in this time fails and counts in connectFailures.",
                defaultValue = "10s")
        TimeSpan connectTimeout,
        @Option(doc = "A batch write not done in this time (the receiver stopped reading: its window stays full) "
                + "fails like a broken connection: the connection is closed, counted in writeFailures, and the batch "
                + "goes to the next live host. RELP: the longest wait for the next acknowledgement while messages "
                + "are unanswered.", defaultValue = "30s")
        TimeSpan writeTimeout,
        @Option(doc = "RELP: most messages sent and not yet acknowledged on a connection (librelp's and omrelp's "
                + "windowSize, 128); more are sent as acknowledgements come. After a reconnect at most this many "
                + "are sent twice. Must not exceed the receiver's limit (imrelp has none; a logrouter relp source's "
                + "max-window, 1024 by default).", defaultValue = "128")
        Integer window,
        @Option(doc = "First wait before a host that failed is tried again; doubled after each failure in a row.",
                defaultValue = "200ms")
        TimeSpan reconnectDelay,
        @Option(doc = "Longest wait between tries of a failed host (syslog-ng time-reopen).", defaultValue = "30s")
        @JsonAlias("time-reopen")
        TimeSpan reconnectDelayMax,
        @Option(doc = "Most messages per batch: a batch is written with one write and flush.", defaultValue = "1000")
        Integer batchSize,
        @Option(doc = "Most bytes per batch.", defaultValue = "1MiB")
        ByteSize batchBytes,
        @Option(doc = "Longest a message waits in a batch while more keep coming; a batch is also written whenever "
                + "the ring has nothing more for the sink.", defaultValue = "250ms")
        TimeSpan flushTimeout,
        @Option(doc = SinkConfig.MAX_RETRIES_DOC, defaultValue = "-1")
        Integer maxRetries,
        @Option(doc = SinkConfig.DEAD_LETTER_DOC, defaultValue = Option.NONE)
        String deadLetter,
        @Option(doc = SinkBuffers.BUFFER_DOC, defaultValue = "memory")
        Buffer buffer,
        @Option(doc = SinkBuffers.JOURNAL_DOC, defaultValue = "{}")
        JournalConfig journal,
        @Option(doc = SinkBuffers.DRAIN_TIMEOUT_DOC, defaultValue = "5s")
        TimeSpan drainTimeout,
        @Option(doc = SinkBuffers.OVERFLOW_DOC, defaultValue = "block")
        Overflow overflow,
        @Option(doc = SinkBuffers.MAX_BACKLOG_DOC, defaultValue = Option.NONE)
        ByteSize maxBacklog) implements SinkConfig {

    public SyslogSinkConfig {
        SinkConfig.checkMaxRetries(maxRetries);
        if (hosts != null) {
            if (hosts.isEmpty()) {
                throw new IllegalArgumentException("hosts must name at least one host:port");
            }
            for (String h : hosts) {
                Destination.parse(h);
            }
            hosts = List.copyOf(hosts);
        }
        if (transport != null) {
            if (transport == Transport.tls && tls == null) {
                throw new IllegalArgumentException("transport: tls needs a tls: map (ca-file, and cert-file/key-file "
                        + "for mutual TLS)");
            }
            if (transport != Transport.tls && transport != Transport.relp && tls != null) {
                throw new IllegalArgumentException("tls: is given but transport is " + transport + "; set transport: "
                        + "tls (or relp, for RELP over TLS)");
            }
            if (transport == Transport.udp && framing != null) {
                throw new IllegalArgumentException("framing does not apply to transport: udp (one message per "
                        + "datagram)");
            }
            if (transport == Transport.tls && framing == Framing.lf) {
                throw new IllegalArgumentException("framing: lf is not allowed with transport: tls (RFC 5425 "
                        + "requires octet counting)");
            }
        }
        if (maxDatagramSize != null && (maxDatagramSize.bytes() < 64 || maxDatagramSize.bytes() > 65_507)) {
            throw new IllegalArgumentException("max-datagram-size must be 64..65507 bytes, got "
                    + maxDatagramSize.bytes());
        }
        if (fracDigits != null && (fracDigits < 0 || fracDigits > LogEvent.MAX_FRAC_DIGITS)) {
            throw new IllegalArgumentException("frac-digits must be 0..6 (digits of the timestamp's fraction of a "
                    + "second; leave it out to keep as many as each message had), got " + fracDigits);
        }
        if (window != null && (window < 1 || window > 1 << 20)) {
            throw new IllegalArgumentException("window must be 1..1048576, got " + window);
        }
        if (batchSize != null && batchSize < 1) {
            throw new IllegalArgumentException("batch-size must be >= 1, got " + batchSize);
        }
        if (writeTimeout != null && writeTimeout.millis() < 1) {
            throw new IllegalArgumentException("write-timeout must be at least 1ms, got " + writeTimeout);
        }
        if (connectTimeout != null && connectTimeout.millis() < 1) {
            throw new IllegalArgumentException("connect-timeout must be at least 1ms");
        }
        if (reconnectDelay != null && reconnectDelay.millis() < 1) {
            throw new IllegalArgumentException("reconnect-delay must be at least 1ms");
        }
        if (reconnectDelay != null && reconnectDelayMax != null && reconnectDelayMax.nanos() < reconnectDelay.nanos()) {
            throw new IllegalArgumentException("reconnect-delay-max must be at least reconnect-delay");
        }
        if (failbackAfter != null && failbackAfter.millis() < 1) {
            throw new IllegalArgumentException("failback-after must be at least 1ms");
        }
        if (template != null) {
            Template.checkOption("template", template);
        }
    }

    /**
     * The framing in effect: the configured one, or the default for the format and transport; null for UDP (one
     * message per datagram) and RELP (the delivery wraps each message in a RELP frame).
     */
    public Framing effectiveFraming() {
        if (transport == Transport.udp || transport == Transport.relp) {
            return null;
        }
        if (framing != null) {
            return framing;
        }
        return format == Format.rfc3164 && transport == Transport.tcp ? Framing.lf : Framing.octetCounted;
    }

    @Override
    public FlushPolicy flushPolicy() {
        return new FlushPolicy(batchSize, batchBytes.bytes(), flushTimeout.nanos());
    }

    /** Loads the TLS files (CA bundle, client certificate and key): bad ones fail {@code check-config}. */
    @Override
    public void check() {
        if (tls != null) {
            new ClientTls(tls);
        }
    }

    @Override
    public Sink create(SinkContext ctx) {
        SinkEncoder encoder = encoder(ctx);
        SyslogDelivery delivery = new SyslogDelivery(this, ctx);
        return SinkBuffers.create(buffer, encoder, delivery, journal, maxBacklog, batchSize, batchBytes.bytes(),
                drainTimeout, overflow, ctx);
    }

    /** The {@link SyslogEncoder}: the format, body template and framing; connects nowhere. */
    @Override
    public SinkEncoder encoder(SinkContext ctx) {
        Counter truncated = ctx.metrics().counter("truncated", "UDP: messages cut to max-datagram-size.");
        return new SyslogEncoder(format, effectiveFraming(), template, ctx.zone(),
                fracDigits == null ? FormatSyslogRfc5424.FRAC_AS_RECEIVED : fracDigits,
                transport == Transport.udp ? maxDatagramSize.intBytes() : 0, truncated);
    }

    /** Where batches go when there are several hosts. */
    public enum Mode { failover, @JsonProperty("round-robin") roundRobin }

    /** The protocol under the syslog messages. */
    public enum Transport { tcp, tls, udp, relp }

    /** How each event is written. */
    public enum Format { rfc5424, rfc3164, raw }

    /** How messages are delimited on a stream (UDP has none: one message per datagram). */
    public enum Framing { @JsonProperty("octet-counted") octetCounted, lf }
}
