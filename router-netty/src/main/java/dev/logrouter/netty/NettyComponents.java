package dev.logrouter.netty;

import dev.logrouter.core.config.ComponentProvider;
import dev.logrouter.core.config.ComponentRegistry;
import dev.logrouter.core.journal.JournalConfig;
import dev.logrouter.core.sink.SinkConfig;
import dev.logrouter.core.source.SourceConfig;
import dev.logrouter.netty.relay.SyslogSinkConfig;
import dev.logrouter.netty.relp.RelpSourceConfig;
import dev.logrouter.netty.tcp.TcpSourceConfig;
import dev.logrouter.netty.tls.TlsClientConfig;
import dev.logrouter.netty.tls.TlsConfig;
import dev.logrouter.netty.udp.UdpSourceConfig;
import dev.logrouter.netty.unix.UnixDgramSourceConfig;
import dev.logrouter.netty.unix.UnixStreamSourceConfig;

/**
 * The network sources, {@code type: tcp} (plain or TLS), {@code type: udp} and {@code type: relp}, the Unix socket
 * sources {@code type: unix-dgram} and {@code type: unix-stream} (the host's {@code /dev/log}), and the relay sink
 * {@code type: syslog}. Listed in {@code META-INF/services/dev.logrouter.core.config.ComponentProvider}.
 *
 * <p>Threads: stateless.
 */
public final class NettyComponents implements ComponentProvider {

    @Override
    public int order() {
        return 10;
    }

    @Override
    public void register(ComponentRegistry registry) {
        registry.source("tcp", TcpSourceConfig.class)
                .source("udp", UdpSourceConfig.class)
                .source("relp", RelpSourceConfig.class)
                .source("unix-dgram", UnixDgramSourceConfig.class)
                .source("unix-stream", UnixStreamSourceConfig.class)
                .nested("sources[] type: tcp .tls", TlsConfig.class)
                .nested("sources[] type: relp .tls", TlsConfig.class)
                .renamed(SourceConfig.class, "tls", "TLS (RFC 5425) is type: tcp with a tls: map (cert-file, "
                        + "key-file, ca-file, client-auth; cert, key, ca and peer-verify are accepted too)")
                .sink("syslog", SyslogSinkConfig.class)
                .nested("sinks[] type: syslog .tls", TlsClientConfig.class)
                .nested("sinks[] type: syslog .journal", JournalConfig.class)
                .renamed(SinkConfig.class, "network", "syslog-ng's network() destination is type: syslog with "
                        + "format: rfc3164 (transport tcp, udp or tls)")
                .renamed(SinkConfig.class, "omfwd", "rsyslog's omfwd is type: syslog (format: rfc3164, or rfc5424 "
                        + "for RSYSLOG_SyslogProtocol23Format)")
                .renamed(SourceConfig.class, "network", "syslog-ng's network() is type: tcp or type: udp")
                .renamed(SourceConfig.class, "syslog", "syslog-ng's syslog() is type: tcp (framing: auto reads "
                        + "octet counting) or type: udp")
                .renamed(SourceConfig.class, "system", "syslog-ng's system() is, on Linux, type: unix-dgram with "
                        + "path: /dev/log (or /run/systemd/journal/syslog where journald forwards to it)")
                .renamed(SourceConfig.class, "imuxsock", "rsyslog's imuxsock is type: unix-dgram with path: /dev/log "
                        + "(or /run/systemd/journal/syslog where journald forwards to it)");
    }
}
