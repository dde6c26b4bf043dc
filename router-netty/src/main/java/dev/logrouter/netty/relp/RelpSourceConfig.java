package dev.logrouter.netty.relp;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.source.Source;
import dev.logrouter.core.source.SourceConfig;
import dev.logrouter.core.source.SourceContext;
import dev.logrouter.core.source.SyslogFormat;
import dev.logrouter.netty.HostPort;
import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.RingPublisher;
import dev.logrouter.netty.tls.ServerTls;
import dev.logrouter.netty.tls.TlsConfig;

/**
 * {@code type: relp}: RELP (rsyslog's Reliable Event Logging Protocol, {@code imrelp}), plain or over TLS with
 * {@code tls:}. Each message is acknowledged ({@code rsp 200 OK}) only once every sink its routes selected has made
 * it durable: journaled (with the journal's {@code sync}) or, for a memory sink, flushed.
 *
 * <p>Threads: immutable.
 */
public record RelpSourceConfig(
        @Option(doc = "Unique source name.", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "Address to listen on, host:port (rsyslog's imrelp examples use port 20514).",
                defaultValue = "127.0.0.1:20514")
        String bind,
        @Option(doc = "auto or rfc5424 (RFC 5424, falling back to RFC 3164), rfc3164 only, or json: how the message "
                + "of each RELP syslog command is parsed.", defaultValue = "auto")
        SyslogFormat format,
        @Option(doc = "Longest message (the data of one syslog command). A longer frame is a protocol error: the "
                + "session is closed with serverclose and counted; the sender keeps the message.",
                defaultValue = "64KiB")
        ByteSize maxMessageSize,
        @Option(doc = "Most messages a session may have unacknowledged. The client's window (librelp and rsyslog's "
                + "omrelp: 128 by default) must not exceed it: a client that sends more before its acknowledgements "
                + "is closed with serverclose and counted (protocolErrors).", defaultValue = "1024")
        Integer maxWindow,
        @Option(doc = "Most concurrent sessions; more are closed at once and counted.", defaultValue = "1000")
        Integer maxConnections,
        @Option(doc = "How often a session with messages waiting for their sinks looks for ones to acknowledge.",
                defaultValue = "1ms")
        TimeSpan ackInterval,
        @Option(doc = "Socket receive buffer (SO_RCVBUF); 0 = the system default.", defaultValue = "0")
        ByteSize receiveBuffer,
        @Option(doc = "RELP over TLS (librelp's tls=\"on\"): the options of sources[] type: tcp .tls. Absent = "
                + "plaintext.", defaultValue = Option.NONE)
        TlsConfig tls,
        @Option(doc = "Each connection starts with a PROXY protocol header (v1 or v2; before TLS), as for sources[] "
                + "type: tcp: the sender address it names is the connection's. A connection without a valid header "
                + "is closed and counted (proxyErrors). Only behind a trusted load balancer.", defaultValue = "false")
        Boolean proxyProtocol) implements SourceConfig {

    /** Without {@code proxy-protocol}. */
    public RelpSourceConfig(String name, String bind, SyslogFormat format, ByteSize maxMessageSize, Integer maxWindow,
                            Integer maxConnections, TimeSpan ackInterval, ByteSize receiveBuffer, TlsConfig tls) {
        this(name, bind, format, maxMessageSize, maxWindow, maxConnections, ackInterval, receiveBuffer, tls, false);
    }

    public RelpSourceConfig {
        if (bind != null) {
            HostPort.parse(bind);
        }
        if (maxMessageSize != null && (maxMessageSize.bytes() < 64 || maxMessageSize.bytes() > 64L << 20)) {
            throw new IllegalArgumentException("max-message-size must be 64B..64MiB, got " + maxMessageSize);
        }
        if (maxWindow != null && (maxWindow < 1 || maxWindow > 1 << 20)) {
            throw new IllegalArgumentException("max-window must be 1..1048576, got " + maxWindow);
        }
        if (maxConnections != null && maxConnections < 1) {
            throw new IllegalArgumentException("max-connections must be >= 1, got " + maxConnections);
        }
        if (ackInterval != null && (ackInterval.nanos() < 10_000 || ackInterval.nanos() > 1_000_000_000L)) {
            throw new IllegalArgumentException("ack-interval must be 10us..1s, got " + ackInterval);
        }
    }

    /** Loads the TLS files (certificate, key, CA): bad ones fail {@code check-config}. */
    @Override
    public void check() {
        if (tls != null) {
            ServerTls.check(tls);
        }
    }

    @Override
    public Source create(SourceContext ctx) {
        return new RelpSource(this, NettyTransport.shared(ctx), RingPublisher.forSource(ctx, format()),
                ctx.completedSequence(), ctx.metrics());
    }

    /** The hint its events carry: {@code format}'s. */
    @Override
    public byte formatHint() {
        return format == null ? LogEvent.FORMAT_AUTO : format.hint();
    }
}
