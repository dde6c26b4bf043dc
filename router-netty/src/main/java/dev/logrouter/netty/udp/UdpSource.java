package dev.logrouter.netty.udp;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.source.Source;
import dev.logrouter.netty.HostPort;
import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.Peer;
import dev.logrouter.netty.RingPublisher;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;

import java.util.concurrent.TimeUnit;

/**
 * A syslog UDP listener: one message per datagram. UDP cannot push back, so a datagram that finds the
 * ring full is dropped and counted ({@code dropped}); an empty datagram is skipped and counted, as
 * syslog-ng delivers nothing for it.
 *
 * <p>Threads: lifecycle on the controlling thread; datagrams on one event loop.
 */
public final class UdpSource implements Source {

    private final UdpSourceConfig cfg;
    private final NettyTransport transport;
    private final RingPublisher publisher;
    private final Counter dropped;
    private final Counter empty;
    private final Counter truncated;
    private Channel channel;

    public UdpSource(UdpSourceConfig cfg, NettyTransport transport, RingPublisher publisher, MetricGroup metrics) {
        this.cfg = cfg;
        this.transport = transport;
        this.publisher = publisher;
        this.dropped = metrics.counter("dropped", "Datagrams dropped because the ring was full (UDP cannot push back).");
        this.empty = metrics.counter("emptyFrames", "Empty datagrams, skipped.");
        this.truncated = metrics.counter("truncated", "Datagrams longer than max-message-size, cut to it.");
    }

    @Override
    public String name() {
        return cfg.name();
    }

    @Override
    public void start() throws Exception {
        int max = cfg.maxMessageSize().intBytes();
        Bootstrap b = new Bootstrap()
                .group(transport.group())
                .channel(transport.datagramChannel())
                // one byte more than the limit, to tell an over-long datagram from one of exactly max bytes
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(max + 1))
                .handler(new DatagramHandler(max));
        if (cfg.receiveBuffer().bytes() > 0) {
            b.option(ChannelOption.SO_RCVBUF, cfg.receiveBuffer().intBytes());
        }
        channel = b.bind(HostPort.parse(cfg.bind())).sync().channel();
    }

    @Override
    public String boundAddress() {
        return HostPort.format(channel.localAddress());
    }

    @Override
    public void stopAccepting() {
        if (channel != null) {
            channel.close().syncUninterruptibly();
        }
    }

    @Override
    public boolean awaitPublished(long timeout, TimeUnit unit) {
        return true; // datagrams are published or dropped on arrival
    }

    @Override
    public void close() {
        stopAccepting();
    }

    /** Publishes each datagram. Threads: the channel's event loop. */
    private final class DatagramHandler extends SimpleChannelInboundHandler<DatagramPacket> {

        private final int max;
        private final Peer peer = new Peer();

        DatagramHandler(int max) {
            this.max = max;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            publisher.publishDatagram(packet.content(), max, peer.update(packet.sender()), empty, truncated, dropped);
        }
    }
}
