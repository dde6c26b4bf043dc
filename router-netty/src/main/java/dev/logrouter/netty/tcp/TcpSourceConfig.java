package dev.logrouter.netty.tcp;

import dev.logrouter.core.config.ByteSize;
import dev.logrouter.core.config.Option;
import dev.logrouter.core.config.SourceConfig;
import dev.logrouter.core.config.TimeSpan;
import dev.logrouter.netty.HostPort;
import dev.logrouter.core.source.SyslogFormat;

/**
 * {@code type: tcp}: syslog over TCP.
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
        @Option(doc = "Socket receive buffer (SO_RCVBUF); 0 = the system default.", defaultValue = "0")
        ByteSize receiveBuffer,
        @Option(doc = "On a clean stop, how long open connections may keep delivering what they already sent; "
                + "a connection is closed earlier once it is quiet for 300 ms or the peer closes it.",
                defaultValue = "5s")
        TimeSpan drainTimeout) implements SourceConfig {

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
    }
}
