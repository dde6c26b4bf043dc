package dev.logrouter.netty.proxy;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.netty.Peer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The PROXY protocol of one source ({@code proxy-protocol: true}): puts a {@link ProxyHeaderDecoder} and a
 * {@link ProxyPeerHandler} at the front of each connection's pipeline, before TLS (a load balancer in TCP mode writes
 * the header in clear, then relays the client's TLS handshake), and keeps the source's {@code proxyErrors} counter
 * and {@code proxyLastError}. A connection whose header is missing or broken is closed; each is counted, and a
 * warning is logged at most once a minute per source (with how many more there were meanwhile).
 *
 * <p>Threads: built on the thread that builds the source; {@link #addTo} and {@link #failed} on event loops; the
 * text attribute on JMX threads.
 */
public final class ProxyProtocol {

    private static final Logger LOG = System.getLogger(ProxyProtocol.class.getName());
    private static final long WARN_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    /**
     * Most bytes of TLVs (the optional fields after the addresses) a v2 header may carry: 16 KiB, far more than load
     * balancers send (AWS NLB: the VPC endpoint id; HAProxy: a few dozen bytes of unique id and TLS facts), far less
     * than the 64 KiB the format allows. A longer header is a broken one.
     */
    static final int MAX_TLV_BYTES = 16 * 1024;

    private final String source;
    private final Counter errors;
    private volatile String lastError = "";
    private final AtomicLong nextWarnNanos = new AtomicLong(System.nanoTime());
    private final AtomicLong unwarned = new AtomicLong();

    /** Registers {@code proxyErrors} and {@code proxyLastError} in {@code metrics}; {@code source} names the logs. */
    public ProxyProtocol(String source, MetricGroup metrics) {
        this.source = source;
        this.errors = metrics.counter("proxyErrors", "Connections closed because they did not start with a valid "
                + "PROXY protocol header (proxy-protocol: true): other bytes first, a malformed or over-long header, "
                + "or a close before the header was complete.");
        metrics.text("proxyLastError", "The last PROXY protocol error: the connecting address and the reason.",
                () -> lastError);
    }

    /** Adds the header's decoder and its reader at the end of {@code p} (empty so far, or holding only admission). */
    public void addTo(ChannelPipeline p, Peer peer) {
        p.addLast("proxy", new ProxyHeaderDecoder(this));
        p.addLast("proxy-peer", new ProxyPeerHandler(peer));
    }

    /** A connection's header was missing or broken: counts it, notes the reason and closes the connection. */
    void failed(Channel ch, String reason) {
        errors.inc();
        String what = ch.remoteAddress() + ": " + reason;
        lastError = what;
        ch.close();
        long now = System.nanoTime();
        long next = nextWarnNanos.get();
        if (now - next >= 0 && nextWarnNanos.compareAndSet(next, now + WARN_EVERY_NANOS)) {
            long more = unwarned.getAndSet(0);
            LOG.log(Level.WARNING, "source " + source + ": closed a connection without a valid PROXY protocol header ("
                    + what + ")" + (more > 0 ? "; " + more + " more since the last warning" : "")
                    + "; see proxyErrors");
        } else {
            unwarned.incrementAndGet();
        }
    }
}
