package dev.logrouter.netty.tcp;

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
 * {@code type: tcp}: syslog over TCP, or over TLS with {@code tls:}.
 *
 * <p>Threads: immutable.
 */
public record TcpSourceConfig(
        @Option(doc = "Unique source name.", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "Address to listen on, host:port.", defaultValue = "127.0.0.1:5514")
        String bind,
        @Option(doc = "auto (per connection: a leading digit means octet counting, else LF), octet-counted or lf.",
                defaultValue = "auto")
        Framing framing,
        @Option(doc = "auto or rfc5424 (RFC 5424, falling back to RFC 3164), rfc3164 only, or json (a JSON object "
                + "as a kafka sink writes it).", defaultValue = "auto")
        SyslogFormat format,
        @Option(doc = "Longest message. Longer LF lines are split; a longer octet-counted frame closes the "
                + "connection.", defaultValue = "64KiB")
        ByteSize maxMessageSize,
        @Option(doc = "Most concurrent connections; more are closed at once and counted.", defaultValue = "1000")
        Integer maxConnections,
        @Option(doc = "Most concurrent connections from one IP address; more are closed at once and counted. "
                + "0 = no limit other than max-connections (relays and NAT put many senders behind one address).",
                defaultValue = "0")
        Integer maxConnectionsPerIp,
        @Option(doc = "A connection that sends nothing for this long is closed and counted; 0 = never. Off by "
                + "default because syslog senders keep quiet connections for hours, and some lose the first "
                + "message written to a connection the receiver closed. Time held back by flow control does not "
                + "count.", defaultValue = "0s")
        TimeSpan idleTimeout,
        @Option(doc = "Socket receive buffer (SO_RCVBUF); 0 = the system default.", defaultValue = "0")
        ByteSize receiveBuffer,
        @Option(doc = "Connections the kernel may hold established but not yet accepted by the router (listen "
                + "backlog, like syslog-ng's listen-backlog()); 0 = net.core.somaxconn as it was when the router "
                + "started. The kernel caps it at net.core.somaxconn. Past it the kernel drops handshakes and "
                + "keeps resending its part (tcp_synack_retries, about a minute), counted only system-wide "
                + "(TcpExtListenOverflows): a sender accepted late loses nothing, one that resets or times out "
                + "meanwhile loses what it wrote, though its writes succeeded.",
                defaultValue = "0")
        Integer listenBacklog,
        @Option(doc = "On a clean stop, how long an open connection may go on reading (a sender still writing "
                + "after the stop began); a connection is closed earlier once it is quiet for 300 ms (2 s while it "
                + "has read nothing yet) or the peer closes it. Time held back by flow control does not count: a connection with data the ring had "
                + "no room for waits for the sinks, up to pipeline.stop-timeout.", defaultValue = "5s")
        TimeSpan drainTimeout,
        @Option(doc = "Syslog over TLS (RFC 5425): see sources[] type: tcp .tls. Absent = plaintext.",
                defaultValue = Option.NONE)
        TlsConfig tls,
        @Option(doc = "Each connection starts with a PROXY protocol header (v1 or v2, as HAProxy's send-proxy, "
                + "nginx's proxy_protocol or an AWS NLB write it; before TLS): the sender address it names is the "
                + "connection's (SOURCEIP, and HOST when a message names none). A connection without a valid header "
                + "is closed and counted (proxyErrors); LOCAL and UNKNOWN keep the connection's own address. Only "
                + "behind a trusted load balancer: whoever can connect can claim any address.",
                defaultValue = "false")
        Boolean proxyProtocol) implements SourceConfig {

    /** Without {@code proxy-protocol}. */
    public TcpSourceConfig(String name, String bind, Framing framing, SyslogFormat format, ByteSize maxMessageSize,
                           Integer maxConnections, Integer maxConnectionsPerIp, TimeSpan idleTimeout,
                           ByteSize receiveBuffer, Integer listenBacklog, TimeSpan drainTimeout, TlsConfig tls) {
        this(name, bind, framing, format, maxMessageSize, maxConnections, maxConnectionsPerIp, idleTimeout,
                receiveBuffer, listenBacklog, drainTimeout, tls, false);
    }

    public TcpSourceConfig {
        if (bind != null) {
            HostPort.parse(bind);
        }
        if (maxMessageSize != null && (maxMessageSize.bytes() < 64 || maxMessageSize.bytes() > 64L << 20)) {
            throw new IllegalArgumentException("max-message-size must be 64B..64MiB, got " + maxMessageSize);
        }
        if (maxConnections != null && maxConnections < 1) {
            throw new IllegalArgumentException("max-connections must be >= 1, got " + maxConnections);
        }
        if (maxConnectionsPerIp != null && maxConnectionsPerIp < 0) {
            throw new IllegalArgumentException("max-connections-per-ip must be >= 0, got " + maxConnectionsPerIp);
        }
        if (listenBacklog != null && listenBacklog < 0) {
            throw new IllegalArgumentException("listen-backlog must be >= 0, got " + listenBacklog);
        }
        if (idleTimeout != null && idleTimeout.nanos() < 0) {
            throw new IllegalArgumentException("idle-timeout must be >= 0, got " + idleTimeout);
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
        return new TcpSource(this, NettyTransport.shared(ctx), RingPublisher.forSource(ctx, format()), ctx.metrics());
    }

    /** The hint its events carry: {@code format}'s. */
    @Override
    public byte formatHint() {
        return format == null ? LogEvent.FORMAT_AUTO : format.hint();
    }
}
