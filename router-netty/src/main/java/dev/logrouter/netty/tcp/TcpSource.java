package dev.logrouter.netty.tcp;

import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.source.Source;
import dev.logrouter.netty.HostPort;
import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.Peer;
import dev.logrouter.netty.RingPublisher;
import dev.logrouter.netty.tls.ServerTls;
import dev.logrouter.netty.tls.TlsCounters;
import dev.logrouter.netty.tls.TlsPeerHandler;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.ScheduledFuture;

import java.net.InetSocketAddress;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;

/**
 * A syslog TCP listener, plaintext or TLS (RFC 5425). Each connection gets {@link ConnectionLimiter} → with
 * TLS, an {@code SslHandler} from {@link ServerTls} and a {@link TlsPeerHandler} → a frame decoder ({@link FramingDetector}, {@link OctetCountingFrameDecoder} or
 * {@link LineFrameDecoder}) → {@link TcpPublishHandler} (which also applies {@code idle-timeout}). With TLS it also checks the certificate files for
 * changes every {@code reload-interval} and offers the JMX operation {@code reloadTls}.
 *
 * <p>Threads: lifecycle on the controlling thread; connections on the shared event loops; the reload check
 * on Netty's global executor thread; {@code reloadTls} on a JMX thread.
 */
public final class TcpSource implements Source {

    private static final Logger LOG = System.getLogger(TcpSource.class.getName());

    /** At a stop, the listener stays open until no connection was accepted for this long (at most ACCEPT_DRAIN_MAX). */
    static final long ACCEPT_QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    static final long ACCEPT_DRAIN_MAX_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** A connection that read nothing for this long during a clean stop has nothing more to give. */
    static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(300);

    /** Set while a stop's quiet check of a connection waits on its event loop. */
    private static final AttributeKey<Boolean> QUIET_CHECK = AttributeKey.valueOf("logrouter.tcp.quietCheck");

    /** When the last connection was accepted (System.nanoTime); written on the listener's event loop. */
    private volatile long lastAcceptNanos = System.nanoTime();
    /** The listener was closed (stopAccepting waits for queued connections only once). */
    private volatile boolean acceptStopped;
    private final TcpSourceConfig cfg;
    private final NettyTransport transport;
    private final RingPublisher publisher;
    private final FramingCounters framing;
    private final TcpSourceCounters counters;
    private final ConnectionLimiter limiter;
    private final TcpSourceState state = new TcpSourceState();
    private final ChannelGroup channels = new DefaultChannelGroup("tcp", GlobalEventExecutor.INSTANCE);
    private final ServerTls tls;
    private final TlsCounters tlsCounters;
    private ScheduledFuture<?> reloadCheck;
    private Channel server;

    public TcpSource(TcpSourceConfig cfg, NettyTransport transport, RingPublisher publisher, MetricGroup metrics) {
        this.cfg = cfg;
        this.transport = transport;
        this.publisher = publisher;
        this.framing = new FramingCounters(metrics);
        this.counters = new TcpSourceCounters(metrics);
        this.limiter = new ConnectionLimiter(cfg.maxConnections(), cfg.maxConnectionsPerIp(), counters);
        if (cfg.tls() != null) {
            this.tls = new ServerTls(cfg.tls());
            this.tlsCounters = new TlsCounters(metrics, tls);
            metrics.operation("reloadTls", "Loads the certificate, key and CA files again now; new connections use "
                    + "them, open ones keep theirs. A file that does not load keeps the previous certificate.",
                    this::reloadTls);
        } else {
            this.tls = null;
            this.tlsCounters = null;
        }
        metrics.gauge("connections", "Open TCP connections.", limiter::open);
        metrics.gauge("pausedConnections", "Connections not reading now because the ring is nearly full "
                + "(flow control engaged).", state::pausedConnections);
        metrics.gauge("keptFrames", "Frames of closed connections waiting for ring space.", state::keptFrames);
    }

    @Override
    public String name() {
        return cfg.name();
    }

    @Override
    public void start() throws Exception {
        int max = cfg.maxMessageSize().intBytes();
        long idleNanos = cfg.idleTimeout().nanos();
        ServerBootstrap b = new ServerBootstrap()
                .group(transport.group())
                .channel(transport.serverChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .handler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object child) {
                        lastAcceptNanos = System.nanoTime(); // the listener's event loop, at each accept
                        ctx.fireChannelRead(child);
                    }
                })
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (!limiter.admit(ch)) {
                            ch.close();
                            return;
                        }
                        channels.add(ch);
                        ChannelPipeline p = ch.pipeline();
                        Peer peer = new Peer();
                        TcpPublishHandler publish = new TcpPublishHandler(publisher, counters, state, peer, idleNanos);
                        if (tls != null) {
                            p.addLast("tls", tls.newHandler(ch.alloc()));
                            p.addLast("tls-peer", new TlsPeerHandler(tlsCounters, peer));
                        }
                        switch (cfg.framing()) {
                            case octetCounted -> p.addLast("framing",
                                    new OctetCountingFrameDecoder(max, framing, publish));
                            case lf -> p.addLast("framing", new LineFrameDecoder(max, framing, publish));
                            default -> p.addLast("detect", new FramingDetector(max, framing, publish));
                        }
                        p.addLast("publish", publish);
                    }
                });
        if (cfg.receiveBuffer().bytes() > 0) {
            b.childOption(ChannelOption.SO_RCVBUF, cfg.receiveBuffer().intBytes());
        }
        if (cfg.listenBacklog() > 0) {
            b.option(ChannelOption.SO_BACKLOG, cfg.listenBacklog()); // else Netty's default: net.core.somaxconn
        }
        InetSocketAddress addr = HostPort.parse(cfg.bind());
        server = b.bind(addr).sync().channel();
        long every = tls == null ? 0 : cfg.tls().reloadInterval().nanos();
        if (every > 0) {
            // off the event loops: a reload reads files and builds a context, which no connection should wait for
            reloadCheck = GlobalEventExecutor.INSTANCE.scheduleWithFixedDelay(this::reloadIfChanged, every, every,
                    TimeUnit.NANOSECONDS);
        }
    }

    /** The periodic check: reloads when a certificate, key or CA file changed. On Netty's global executor thread. */
    private void reloadIfChanged() {
        try {
            if (tls.reloadIfChanged()) {
                tlsReloaded();
            }
        } catch (RuntimeException e) { // anything escaping would end the periodic check for good
            tlsReloadFailed(e);
        }
    }

    /** The JMX operation {@code reloadTls}. */
    private String reloadTls() {
        try {
            tls.reload();
            tlsReloaded();
            return "reloaded: " + tls.certificateSummary();
        } catch (IllegalArgumentException e) {
            tlsReloadFailed(e);
            return "reload failed, the previous certificate stays in use: " + e.getMessage();
        }
    }

    private void tlsReloaded() {
        tlsCounters.reloaded();
        LOG.log(Level.INFO, "source " + cfg.name() + ": TLS certificate reloaded: " + tls.certificateSummary());
    }

    private void tlsReloadFailed(RuntimeException e) {
        tlsCounters.reloadFailed(e.getMessage());
        LOG.log(Level.WARNING, "source " + cfg.name() + ": TLS reload failed, the previous certificate stays "
                + "in use: " + e.getMessage());
    }

    @Override
    public String boundAddress() {
        return HostPort.format(server.localAddress());
    }

    /**
     * Closes the listener: no new connections. Open connections go on until {@link #awaitPublished}. Connections the
     * kernel completed but the event loop has not accepted yet would be reset by the close, with whatever their
     * senders already wrote: so the listener first stays open until no connection was accepted for 200 ms (at most
     * 2 s), and the ones it accepts are read dry like the others.
     */
    @Override
    public void stopAccepting() {
        if (reloadCheck != null) {
            reloadCheck.cancel(false);
        }
        if (server != null && !acceptStopped) {
            acceptStopped = true;
            long start = System.nanoTime();
            while (!acceptQuiet(start)) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            server.close().syncUninterruptibly();
        }
    }

    /**
     * Whether no connection was accepted for {@link #ACCEPT_QUIET_NANOS} since {@code start} (or the drain's
     * maximum passed). Judged on the listener's event loop, which accepts what the kernel queued before it runs a
     * task: a loop too busy (or starved of CPU) to accept for a while does not make the listener look quiet.
     */
    private boolean acceptQuiet(long start) {
        try {
            return server.eventLoop().submit(() -> {
                long now = System.nanoTime();
                long accepted = lastAcceptNanos;
                long quietSince = accepted - start > 0 ? accepted : start;
                return now - quietSince >= ACCEPT_QUIET_NANOS || now - start >= ACCEPT_DRAIN_MAX_NANOS;
            }).get(ACCEPT_DRAIN_MAX_NANOS, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException
                 | java.util.concurrent.RejectedExecutionException e) {
            return System.nanoTime() - start >= ACCEPT_DRAIN_MAX_NANOS;
        }
    }

    /**
     * Lets every open connection finish, then waits until everything read is in the ring: a connection
     * is closed once the peer closed it or it has been quiet (nothing read, not paused by flow control)
     * for {@link #QUIET_NANOS}, so that what senders wrote before the stop and sits in socket buffers is
     * still read and delivered. Connections still busy after {@code drain-timeout} are closed anyway;
     * their frames already read are still published (until {@code timeout}).
     */
    @Override
    public boolean awaitPublished(long timeout, TimeUnit unit) throws InterruptedException {
        long drainDeadline = System.nanoTime() + cfg.drainTimeout().nanos();
        while (!channels.isEmpty() && System.nanoTime() < drainDeadline) {
            for (Channel ch : channels) {
                // judged on the connection's own event loop, which reads what the socket holds before it runs a
                // task: a loop too busy (or starved of CPU) to read a connection for a while does not make that
                // connection look quiet and lose what its sender wrote (a check from this thread did, under load)
                if (ch.attr(QUIET_CHECK).compareAndSet(null, Boolean.TRUE)) { // one check queued per connection
                    ch.eventLoop().execute(() -> {
                        ch.attr(QUIET_CHECK).set(null);
                        closeIfQuiet(ch);
                    });
                }
            }
            Thread.sleep(10);
        }
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!state.live().isEmpty()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            channels.close(); // one accepted just before the listener closed registers late
            Thread.sleep(5);
        }
        return true;
    }

    /** On the connection's event loop: closes it if it read nothing for {@link #QUIET_NANOS}. */
    private static void closeIfQuiet(Channel ch) {
        TcpPublishHandler h = ch.pipeline().get(TcpPublishHandler.class);
        if (h == null || h.isQuiet(System.nanoTime(), QUIET_NANOS)) {
            ch.close();
        }
    }

    /** Forced stop: frames that never reached the ring are released and counted as abandoned. */
    @Override
    public void close() {
        stopAccepting();
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        for (TcpPublishHandler h : state.live()) {
            h.abandonOnEventLoop();
        }
    }
}
