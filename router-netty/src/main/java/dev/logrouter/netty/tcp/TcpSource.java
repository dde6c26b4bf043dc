package dev.logrouter.netty.tcp;

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
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.ScheduledFuture;

import java.net.InetSocketAddress;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;

/**
 * A syslog TCP listener, plaintext or TLS (RFC 5425); its connections are {@link StreamConnections}. Each connection
 * gets {@link ConnectionLimiter} → with {@code proxy-protocol}, the PROXY header's decoder and reader
 * ({@link ProxyProtocol}) → with TLS, an {@code SslHandler} from {@link ServerTls} and a {@link TlsPeerHandler} → a
 * frame decoder ({@link FramingDetector}, {@link OctetCountingFrameDecoder} or {@link LineFrameDecoder}) →
 * {@link TcpPublishHandler} (which also applies {@code idle-timeout}). With TLS it also checks the certificate files
 * for changes every {@code reload-interval} and offers the JMX operation {@code reloadTls}.
 *
 * <p>Threads: lifecycle on the controlling thread; connections on the shared event loops; the reload check
 * on Netty's global executor thread; {@code reloadTls} on a JMX thread.
 */
public final class TcpSource implements Source {

    private static final Logger LOG = System.getLogger(TcpSource.class.getName());

    private final TcpSourceConfig cfg;
    private final NettyTransport transport;
    private final StreamConnections connections;
    private final ServerTls tls;
    private final TlsCounters tlsCounters;
    /** {@code proxy-protocol: true}; null without. */
    private final ProxyProtocol proxy;
    private ScheduledFuture<?> reloadCheck;
    private Channel server;

    public TcpSource(TcpSourceConfig cfg, NettyTransport transport, RingPublisher publisher, MetricGroup metrics) {
        this.cfg = cfg;
        this.transport = transport;
        this.connections = new StreamConnections("TCP", cfg.maxConnections(), cfg.maxConnectionsPerIp(), cfg.framing(),
                false, cfg.maxMessageSize().intBytes(), cfg.idleTimeout().nanos(), cfg.drainTimeout().nanos(), publisher,
                metrics);
        this.proxy = Boolean.TRUE.equals(cfg.proxyProtocol()) ? new ProxyProtocol(cfg.name(), metrics) : null;
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
    }

    @Override
    public String name() {
        return cfg.name();
    }

    @Override
    public void start() throws Exception {
        ServerBootstrap b = new ServerBootstrap()
                .group(transport.group())
                .channel(transport.serverChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .handler(connections.acceptTracker())
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        Peer peer = new Peer();
                        connections.initConnection(ch, peer, p -> {
                            if (proxy != null) { // in clear, before TLS: a TCP-mode load balancer writes it first
                                proxy.addTo(p, peer);
                            }
                            if (tls != null) {
                                p.addLast("tls", tls.newHandler(ch.alloc()));
                                p.addLast("tls-peer", new TlsPeerHandler(tlsCounters, peer));
                            }
                        });
                    }
                });
        // with TLS the decoders read what SslHandler decrypted, never a socket read's buffer
        if (tls == null) {
            b.childOption(ChannelOption.RCVBUF_ALLOCATOR, new HeadroomRecvAllocator());
        }
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

    /** Closes the listener once accepts went quiet: see {@link StreamConnections#stopAccepting}. */
    @Override
    public void stopAccepting() {
        if (reloadCheck != null) {
            reloadCheck.cancel(false);
        }
        connections.stopAccepting(server);
    }

    /** Lets open connections finish: see {@link StreamConnections#awaitPublished}. */
    @Override
    public boolean awaitPublished(long timeout, TimeUnit unit) throws InterruptedException {
        return connections.awaitPublished(timeout, unit);
    }

    /** Forced stop: frames that never reached the ring are released and counted as abandoned. */
    @Override
    public void close() {
        stopAccepting();
        connections.close();
    }
}
