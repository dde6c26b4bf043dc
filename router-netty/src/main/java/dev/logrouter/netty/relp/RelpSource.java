package dev.logrouter.netty.relp;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.source.Source;
import dev.logrouter.netty.HostPort;
import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.Peer;
import dev.logrouter.netty.RingPublisher;
import dev.logrouter.netty.proxy.ProxyProtocol;
import dev.logrouter.netty.tls.ServerTls;
import dev.logrouter.netty.tls.TlsCounters;
import dev.logrouter.netty.tls.TlsPeerHandler;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The RELP source ({@code type: relp}): a listener on the shared network event loops, one {@link RelpSession} per
 * connection behind a {@link RelpFrameDecoder} (and TLS when configured, and the PROXY protocol header's decoder
 * ({@link ProxyProtocol}) before both with {@code proxy-protocol}).
 *
 * <p>A clean stop loses nothing and repeats nothing: the listener closes, every session stops reading and puts what
 * it kept into the ring ({@link #awaitPublished}); after the ring drained and the sinks flushed, {@link #close}
 * acknowledges every message the sinks completed and ends each session with {@code serverclose}. What a client sent
 * and was not acknowledged it sends again to the next router.
 *
 * <p>Threads: lifecycle calls from the router's start/stop thread; sessions on the event loops; counters from any.
 */
public final class RelpSource implements Source {

    private final RelpSourceConfig cfg;
    private final NettyTransport transport;
    private final RingPublisher publisher;
    private final LongSupplier completed;
    private final ChannelGroup channels = new DefaultChannelGroup("relp", GlobalEventExecutor.INSTANCE);
    private final ServerTls tls;
    private final TlsCounters tlsCounters;
    /** {@code proxy-protocol: true}; null without. */
    private final ProxyProtocol proxy;
    private final AtomicInteger sessions = new AtomicInteger();
    private final AtomicLong unacked = new AtomicLong();
    /** Messages sessions keep for want of ring space (updated on the event loops). */
    private final AtomicInteger keptMessages = new AtomicInteger();
    private final Counter accepted;
    private final Counter rejected;
    private final Counter ackedCount;
    private final Counter protocolErrors;
    private final Counter pauses;
    private final Counter ioErrors;
    private final Counter ackBackpressure;
    private Channel server;

    public RelpSource(RelpSourceConfig cfg, NettyTransport transport, RingPublisher publisher, LongSupplier completed,
                      MetricGroup metrics) {
        this.cfg = cfg;
        this.transport = transport;
        this.publisher = publisher;
        this.completed = completed;
        this.proxy = Boolean.TRUE.equals(cfg.proxyProtocol()) ? new ProxyProtocol(cfg.name(), metrics) : null;
        if (cfg.tls() != null) {
            this.tls = new ServerTls(cfg.tls());
            this.tlsCounters = new TlsCounters(metrics, tls);
        } else {
            this.tls = null;
            this.tlsCounters = null;
        }
        this.accepted = metrics.counter("acceptedConnections", "RELP connections accepted.");
        this.rejected = metrics.counter("rejectedConnections", "Connections closed at once: max-connections reached.");
        this.ackedCount = metrics.counter("acked", "Messages acknowledged (rsp 200 OK): every sink that took them "
                + "made them durable.");
        this.protocolErrors = metrics.counter("protocolErrors", "Protocol errors: broken frames, transaction "
                + "numbers out of order, window overruns, oversize messages, commands before open or unknown. "
                + "All but an unknown command (answered rsp 500) end the session with serverclose.");
        this.pauses = metrics.counter("pauses", "Times a session stopped reading because the ring was nearly full "
                + "(or for the client's close).");
        this.ackBackpressure = metrics.counter("ackBackpressure", "Times a session stopped reading because its "
                + "client did not read the acknowledgements (they filled the socket and the outbound buffer).");
        this.ioErrors = metrics.counter("ioErrors", "Connections closed by an I/O or TLS error.");
        metrics.gauge("sessions", "Open RELP sessions.", sessions::get);
        metrics.gauge("unackedInFlight", "Messages received on open sessions and not yet acknowledged (waiting "
                + "for their sinks, or for ring space).", unacked::get);
    }

    @Override
    public String name() {
        return cfg.name();
    }

    @Override
    public void start() throws Exception {
        int maxMessage = cfg.maxMessageSize().intBytes();
        int maxData = Math.max(maxMessage, 64 * 1024); // an open's offers may be longer than a small max message
        long ackNanos = cfg.ackInterval().nanos();
        ServerBootstrap b = new ServerBootstrap()
                .group(transport.group())
                .channel(transport.serverChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        accepted.inc();
                        if (sessions.get() >= cfg.maxConnections()) {
                            rejected.inc();
                            ch.close();
                            return;
                        }
                        channels.add(ch);
                        ChannelPipeline p = ch.pipeline();
                        Peer peer = new Peer();
                        if (proxy != null) { // in clear, before TLS
                            proxy.addTo(p, peer);
                        }
                        if (tls != null) {
                            p.addLast("tls", tls.newHandler(ch.alloc()));
                            p.addLast("tls-peer", new TlsPeerHandler(tlsCounters, peer));
                        }
                        RelpSession session = new RelpSession(RelpSource.this, publisher, completed, peer,
                                cfg.maxWindow(), maxMessage, ackNanos, RelpFrames.offers());
                        p.addLast("relp-frames", new RelpFrameDecoder(maxData, session));
                        p.addLast("relp", session);
                    }
                });
        if (cfg.receiveBuffer().bytes() > 0) {
            b.childOption(ChannelOption.SO_RCVBUF, cfg.receiveBuffer().intBytes());
        }
        server = b.bind(HostPort.parse(cfg.bind())).sync().channel();
    }

    @Override
    public String boundAddress() {
        return HostPort.format(server.localAddress());
    }

    /** Closes the listener. Open sessions go on until {@link #awaitPublished}. */
    @Override
    public void stopAccepting() {
        if (server != null) {
            server.close().syncUninterruptibly();
        }
    }

    /**
     * Every session stops reading (what its client sent and was not read is not acknowledged: the client keeps it)
     * and puts what it kept into the ring; returns once none keeps anything, false on timeout.
     */
    @Override
    public boolean awaitPublished(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        List<Future<?>> stopped = new ArrayList<>();
        for (Channel ch : channels) {
            stopped.add(ch.eventLoop().submit(() -> session(ch, RelpSession::stop)));
        }
        for (Future<?> f : stopped) { // every session read its last before the count of kept messages is trusted
            try {
                f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException | TimeoutException e) {
                return false;
            }
        }
        while (keptMessages.get() > 0) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    /** After the ring drained: acknowledges what the sinks completed and ends every session with serverclose. */
    @Override
    public void close() {
        stopAccepting();
        for (Channel ch : channels) {
            ch.eventLoop().execute(() -> session(ch, RelpSession::finish));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!channels.isEmpty() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    private static void session(Channel ch, java.util.function.Consumer<RelpSession> action) {
        RelpSession s = ch.pipeline().get(RelpSession.class);
        if (s != null) {
            action.accept(s);
        }
    }

    void sessionOpened() {
        sessions.incrementAndGet();
    }

    void sessionClosed() {
        sessions.decrementAndGet();
    }

    void acked(int n) {
        ackedCount.add(n);
    }

    void unackedChanged(int delta) {
        unacked.addAndGet(delta);
    }

    void keptChanged(int delta) {
        keptMessages.addAndGet(delta);
    }

    void protocolError() {
        protocolErrors.inc();
    }

    void paused() {
        pauses.inc();
    }

    void ackBackpressure() {
        ackBackpressure.inc();
    }

    void ioError() {
        ioErrors.inc();
    }
}
