package dev.logrouter.netty.tcp;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;

/**
 * Connection-level counters of one TCP or unix-stream source (framing counters are in {@link FramingCounters}).
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
    final Counter abandonedConnections;
    final Counter abandonedBytes;

    TcpSourceCounters(MetricGroup g) {
        this(g, "TCP", true);
    }

    /**
     * @param kind  "TCP" or "Unix stream", for the descriptions
     * @param perIp whether the source has a per-address limit to count ({@code rejectedPerIpConnections})
     */
    TcpSourceCounters(MetricGroup g, String kind, boolean perIp) {
        accepted = g.counter("acceptedConnections", kind + " connections accepted.");
        rejected = g.counter("rejectedConnections", kind + " connections refused because max-connections was "
                + "reached.");
        rejectedPerIp = perIp ? g.counter("rejectedPerIpConnections", kind + " connections refused because their "
                + "address already had max-connections-per-ip open.") : null;
        idleClosed = g.counter("idleClosed", "Connections closed because they sent nothing for idle-timeout.");
        pauses = g.counter("pauses", "Times a connection stopped reading because the ring was nearly full "
                + "(flow control).");
        ioErrors = g.counter("ioErrors", "Connections closed by a socket error.");
        abandoned = g.counter("abandoned", "Frames read but not published because the router was forced to stop "
                + "before the ring had room for them.");
        abandonedConnections = g.counter("abandonedConnections", "Connections a stop closed while they still had "
                + "something to deliver: bytes unread in the kernel, frames held back by flow control, or a sender "
                + "still writing past drain-timeout (0 after a clean stop).");
        abandonedBytes = g.counter("abandonedBytes", "Bytes those connections had sent that were never read (the "
                + "kernel's receive queue at the close, where Linux tells it; Unix sockets and the NIO transport "
                + "count the connection only).");
    }
}
