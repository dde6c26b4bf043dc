package dev.logrouter.netty.udp;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.source.Source;
import dev.logrouter.core.source.SourceConfig;
import dev.logrouter.core.source.SourceContext;
import dev.logrouter.core.source.SyslogFormat;
import dev.logrouter.netty.HostPort;
import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.RingPublisher;

/**
 * {@code type: udp}: one syslog message per datagram.
 *
 * <p>Threads: immutable.
 */
public record UdpSourceConfig(
        @Option(doc = "Unique source name.", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "Address to listen on, host:port.", defaultValue = "127.0.0.1:5514")
        String bind,
        @Option(doc = "auto or rfc5424 (RFC 5424, falling back to RFC 3164), rfc3164 only, or json (a JSON object "
                + "as a kafka sink writes it).", defaultValue = "auto")
        SyslogFormat format,
        @Option(doc = "Longest datagram kept; longer ones are cut to this size and counted.", defaultValue = "64KiB")
        ByteSize maxMessageSize,
        @Option(doc = "Socket receive buffer (SO_RCVBUF): larger absorbs bursts; 0 = the system default.",
                defaultValue = "4MiB")
        ByteSize receiveBuffer) implements SourceConfig {

    public UdpSourceConfig {
        if (bind != null) {
            HostPort.parse(bind);
        }
        if (maxMessageSize != null && (maxMessageSize.bytes() < 64 || maxMessageSize.bytes() > 65536)) {
            throw new IllegalArgumentException("max-message-size of a UDP source must be 64B..64KiB, got "
                    + maxMessageSize);
        }
    }

    @Override
    public Source create(SourceContext ctx) {
        return new UdpSource(this, NettyTransport.shared(ctx), RingPublisher.forSource(ctx, format()), ctx.metrics());
    }

    /** The hint its events carry: {@code format}'s. */
    @Override
    public byte formatHint() {
        return format == null ? LogEvent.FORMAT_AUTO : format.hint();
    }
}
