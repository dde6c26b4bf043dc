package dev.logrouter.netty.unix;

import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.source.Source;
import dev.logrouter.core.source.SourceConfig;
import dev.logrouter.core.source.SourceContext;
import dev.logrouter.core.source.SyslogFormat;

/**
 * {@code type: unix-dgram}: syslog on a Unix datagram socket, such as {@code /dev/log} (syslog-ng's
 * {@code unix-dgram()} and {@code system()}, rsyslog's imuxsock).
 *
 * <p>Threads: immutable.
 */
public record UnixDgramSourceConfig(
        @Option(doc = "Unique source name.", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "The socket file to create, e.g. /dev/log (what an operator usually configures) or "
                + "/run/systemd/journal/syslog (journald's ForwardToSyslog). Its directory must exist; a socket "
                + "already there is replaced, any other file is refused.", defaultValue = Option.REQUIRED)
        String path,
        @Option(doc = "User (name or uid) to own the socket file; absent = the router's user.",
                defaultValue = Option.NONE)
        String owner,
        @Option(doc = "Group (name or gid) of the socket file; absent = the router's group.",
                defaultValue = Option.NONE)
        String group,
        @Option(doc = "Permissions of the socket file, in octal as chmod takes them (0666: anyone may log).",
                defaultValue = "0666")
        String perm,
        @Option(doc = "auto or rfc5424 (RFC 5424, falling back to RFC 3164), rfc3164 only, or json (a JSON object "
                + "as a kafka sink writes it). An RFC 3164 header is read without HOST, as glibc's syslog(3) writes "
                + "it; HOST is the local host name.", defaultValue = "auto")
        SyslogFormat format,
        @Option(doc = "Longest datagram kept; longer ones are cut to this size and counted.", defaultValue = "64KiB")
        ByteSize maxMessageSize,
        @Option(doc = "Socket receive buffer (SO_RCVBUF); 0 = the system default. On Linux the queue of a Unix "
                + "datagram socket is bounded by net.unix.max_dgram_qlen messages as well.", defaultValue = "0")
        ByteSize receiveBuffer) implements SourceConfig {

    public UnixDgramSourceConfig {
        if (path != null) {
            UnixSocketFile.checkPath(path);
        }
        if (perm != null) {
            UnixSocketFile.parsePerm(perm);
        }
        if (maxMessageSize != null && (maxMessageSize.bytes() < 64 || maxMessageSize.bytes() > 1L << 20)) {
            throw new IllegalArgumentException("max-message-size of a unix-dgram source must be 64B..1MiB, got "
                    + maxMessageSize);
        }
    }

    @Override
    public Source create(SourceContext ctx) {
        return new UnixDgramSource(this, UnixLoops.shared(ctx), UnixSources.publisher(ctx, format), ctx.metrics());
    }

    /** The hint its events carry: {@code format}'s, with no HOST in an RFC 3164 header. */
    @Override
    public byte formatHint() {
        return UnixSources.hint(format == null ? SyslogFormat.auto : format);
    }
}
