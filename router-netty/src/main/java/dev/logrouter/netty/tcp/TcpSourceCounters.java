package dev.logrouter.netty.tcp;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;

/**
 * Connection-level counters of one TCP source (framing counters are in {@link FramingCounters}).
 *
 * <p>Threads: any event loop adds; JMX reads.
 */
final class TcpSourceCounters {

    final Counter accepted;
    final Counter rejected;
    final Counter rejectedPerIp;
    final Counter idleClosed;
    final Counter pauses;
    final Counter ioErrors;
    final Counter abandoned;

    TcpSourceCounters(MetricGroup g) {
        accepted = g.counter("acceptedConnections", "TCP connections accepted.");
        rejected = g.counter("rejectedConnections", "TCP connections refused because max-connections was reached.");
        rejectedPerIp = g.counter("rejectedPerIpConnections", "TCP connections refused because their address already "
                + "had max-connections-per-ip open.");
        idleClosed = g.counter("idleClosed", "Connections closed because they sent nothing for idle-timeout.");
        pauses = g.counter("pauses", "Times a connection stopped reading because the ring was nearly full "
                + "(flow control).");
        ioErrors = g.counter("ioErrors", "Connections closed by a socket error.");
        abandoned = g.counter("abandoned", "Frames read but not published because the router was forced to stop "
                + "before the ring had room for them.");
    }
}
