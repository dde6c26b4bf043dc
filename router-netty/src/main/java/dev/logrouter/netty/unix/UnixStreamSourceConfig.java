package dev.logrouter.netty.unix;

import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.source.Source;
import dev.logrouter.core.source.SourceConfig;
import dev.logrouter.core.source.SourceContext;
import dev.logrouter.core.source.SyslogFormat;
import dev.logrouter.netty.tcp.Framing;

/**
 * {@code type: unix-stream}: syslog on a Unix stream socket (syslog-ng's {@code unix-stream()}).
 *
 * <p>Threads: immutable.
 */
public record UnixStreamSourceConfig(
        @Option(doc = "Unique source name.", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "The socket file to create, e.g. /dev/log (what an operator usually configures). Its directory "
                + "must exist; a socket already there is replaced, any other file is refused.",
                defaultValue = Option.REQUIRED)
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
        @Option(doc = "auto (per connection: a leading digit means octet counting, else lf), octet-counted or lf. "
                + "With lf a message ends at LF or NUL (glibc's syslog(3) ends each with NUL).", defaultValue = "auto")
        Framing framing,
        @Option(doc = "auto or rfc5424 (RFC 5424, falling back to RFC 3164), rfc3164 only, or json (a JSON object "
                + "as a kafka sink writes it). An RFC 3164 header is read without HOST, as glibc's syslog(3) writes "
                + "it; HOST is the local host name.", defaultValue = "auto")
        SyslogFormat format,
        @Option(doc = "Longest message. Longer lines are split; a longer octet-counted frame closes the connection.",
                defaultValue = "64KiB")
        ByteSize maxMessageSize,
        @Option(doc = "Most concurrent connections; more are closed at once and counted.", defaultValue = "256")
        Integer maxConnections,
        @Option(doc = "Socket receive buffer of each connection (SO_RCVBUF); 0 = the system default.",
                defaultValue = "0")
        ByteSize receiveBuffer) implements SourceConfig {

    public UnixStreamSourceConfig {
        if (path != null) {
            UnixSocketFile.checkPath(path);
        }
        if (perm != null) {
            UnixSocketFile.parsePerm(perm);
        }
        if (maxMessageSize != null && (maxMessageSize.bytes() < 64 || maxMessageSize.bytes() > 64L << 20)) {
            throw new IllegalArgumentException("max-message-size must be 64B..64MiB, got " + maxMessageSize);
        }
        if (maxConnections != null && maxConnections < 1) {
            throw new IllegalArgumentException("max-connections must be >= 1, got " + maxConnections);
        }
    }

    @Override
    public Source create(SourceContext ctx) {
        return new UnixStreamSource(this, UnixLoops.shared(ctx), UnixSources.publisher(ctx, format), ctx.metrics());
    }

    /** The hint its events carry: {@code format}'s, with no HOST in an RFC 3164 header. */
    @Override
    public byte formatHint() {
        return UnixSources.hint(format == null ? SyslogFormat.auto : format);
    }
}
