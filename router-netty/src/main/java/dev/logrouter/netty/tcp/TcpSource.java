package dev.logrouter.netty.tcp;

import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.source.Source;
import dev.logrouter.netty.HostPort;
import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.RingPublisher;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A syslog TCP listener. Each connection gets {@link ConnectionLimiter} → a frame decoder
 * ({@link FramingDetector}, {@link OctetCountingFrameDecoder} or {@link LineFrameDecoder}) →
 * {@link TcpPublishHandler}.
 *
 * <p>Threads: lifecycle on the controlling thread; connections on the shared event loops.
 */
public final class TcpSource implements Source {

    /** A connection that read nothing for this long during a clean stop has nothing more to give. */
    static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(300);

    private final TcpSourceConfig cfg;
    private final NettyTransport transport;
    private final RingPublisher publisher;
    private final FramingCounters framing;
    private final TcpSourceCounters counters;
    private final ConnectionLimiter limiter;
    private final AtomicInteger pending = new AtomicInteger();
    private final ChannelGroup channels = new DefaultChannelGroup("tcp", GlobalEventExecutor.INSTANCE);
    private Channel server;

    public TcpSource(TcpSourceConfig cfg, NettyTransport transport, RingPublisher publisher, MetricGroup metrics) {
        this.cfg = cfg;
        this.transport = transport;
        this.publisher = publisher;
        this.framing = new FramingCounters(metrics);
        this.counters = new TcpSourceCounters(metrics);
        this.limiter = new ConnectionLimiter(cfg.maxConnections(), counters);
        metrics.gauge("connections", "Open TCP connections.", limiter::open);
        metrics.gauge("pendingFrames", "Frames read and waiting for ring space (flow control engaged).", pending::get);
    }

    @Override
    public String name() {
        return cfg.name();
    }

    @Override
    public void start() throws Exception {
        int max = cfg.maxMessageSize().intBytes();
        ServerBootstrap b = new ServerBootstrap()
                .group(transport.group())
                .channel(transport.serverChannel())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        channels.add(ch);
                        ChannelPipeline p = ch.pipeline();
                        p.addLast("limit", limiter);
                        switch (cfg.framing()) {
                            case octetCounted -> p.addLast("framing", new OctetCountingFrameDecoder(max, framing));
                            case lf -> p.addLast("framing", new LineFrameDecoder(max, framing));
                            default -> p.addLast("detect", new FramingDetector(max, framing));
                        }
                        p.addLast("publish", new TcpPublishHandler(publisher, counters, pending));
                    }
                });
        if (cfg.receiveBuffer().bytes() > 0) {
            b.childOption(ChannelOption.SO_RCVBUF, cfg.receiveBuffer().intBytes());
        }
        InetSocketAddress addr = HostPort.parse(cfg.bind());
        server = b.bind(addr).sync().channel();
    }

    @Override
    public String boundAddress() {
        return HostPort.format(server.localAddress());
    }

    /**
     * Closes the listener, then lets every open connection finish: a connection is closed once the peer
     * closed it or it has been quiet (nothing read, not paused by flow control) for {@link #QUIET_NANOS},
     * so that what senders wrote before the stop and sits in socket buffers is still read and delivered.
     * Connections still busy after {@code drain-timeout} are closed anyway.
     */
    @Override
    public void stopAccepting() {
        if (server != null) {
            server.close().syncUninterruptibly();
        }
        long deadline = System.nanoTime() + cfg.drainTimeout().nanos();
        while (!channels.isEmpty() && System.nanoTime() < deadline) {
            long now = System.nanoTime();
            for (Channel ch : channels) {
                TcpPublishHandler h = ch.pipeline().get(TcpPublishHandler.class);
                if (h == null || h.isQuiet(now, QUIET_NANOS)) {
                    ch.close();
                }
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    @Override
    public boolean awaitPublished(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (pending.get() > 0) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    @Override
    public void close() {
        stopAccepting();
    }
}
