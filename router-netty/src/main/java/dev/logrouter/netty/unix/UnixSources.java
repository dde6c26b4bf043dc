package dev.logrouter.netty.unix;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.source.SourceContext;
import dev.logrouter.core.source.SyslogFormat;
import dev.logrouter.netty.RingPublisher;

/**
 * What the two Unix sources share when they are built.
 *
 * <p>Threads: stateless.
 */
final class UnixSources {

    private UnixSources() {
    }

    /**
     * The publisher of a Unix source: {@code format}'s hint with {@link LogEvent#FORMAT_NO_HOSTNAME}, since local
     * senders (glibc's syslog(3), logger) write RFC 3164 headers without HOST, as syslog-ng's unix sources expect.
     */
    static RingPublisher publisher(SourceContext ctx, SyslogFormat format) {
        return new RingPublisher(ctx.ring(), ctx.index(), ctx.name(), hint(format), 0L, ctx.metrics());
    }

    /** {@code format}'s hint with {@link LogEvent#FORMAT_NO_HOSTNAME}. */
    static byte hint(SyslogFormat format) {
        return (byte) (format.hint() | LogEvent.FORMAT_NO_HOSTNAME);
    }
}
