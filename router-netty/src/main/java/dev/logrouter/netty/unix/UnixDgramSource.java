package dev.logrouter.netty.unix;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.source.Source;
import dev.logrouter.core.template.LocalHostName;
import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.Peer;
import dev.logrouter.netty.RingPublisher;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollDomainDatagramChannel;
import io.netty.channel.unix.DomainDatagramPacket;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.IntegerUnixChannelOption;

import java.util.concurrent.TimeUnit;

/**
 * {@code type: unix-dgram}: a Unix datagram socket such as {@code /dev/log}, one message per datagram, as syslog-ng's
 * {@code unix-dgram()} and rsyslog's imuxsock. Like the UDP source it never makes a sender wait: a datagram that finds
 * the ring full is dropped and counted ({@code dropped}); a datagram over {@code max-message-size} is cut to it and
 * counted ({@code truncated}); an empty one is skipped and counted ({@code emptyFrames}). HOST, when the message names
 * none, is the local host name.
 *
 * <p>No peer credentials: syslog-ng takes {@code .unix.pid}, {@code .unix.uid} and {@code .unix.gid} of each datagram
 * from its {@code SCM_CREDENTIALS} control message ({@code SO_PASSCRED}), but Netty's epoll datagram channel reads
 * datagrams without control messages, and {@code SO_PEERCRED} of an unconnected datagram socket names no sender. So
 * these events carry none (the unix-stream source sets them).
 *
 * <p>Threads: lifecycle on the controlling thread; datagrams on one epoll event loop.
 */
public final class UnixDgramSource implements Source {

    /** {@code SO_RCVBUF} (level {@code SOL_SOCKET}), which Netty's domain datagram channel takes only this way. */
    static final ChannelOption<Integer> SO_RCVBUF = new IntegerUnixChannelOption("SO_RCVBUF", 1, 8);

    private final UnixDgramSourceConfig cfg;
    private final NettyTransport transport;
    private final RingPublisher publisher;
    private final UnixSocketFile file;
    private final Counter dropped;
    private final Counter empty;
    private final Counter truncated;
    private Channel channel;

    public UnixDgramSource(UnixDgramSourceConfig cfg, NettyTransport transport, RingPublisher publisher,
                           MetricGroup metrics) {
        this.cfg = cfg;
        this.transport = transport;
        this.publisher = publisher;
        this.file = new UnixSocketFile(cfg.name(), cfg.path(), cfg.perm(), cfg.owner(), cfg.group());
        this.dropped = metrics.counter("dropped", "Datagrams dropped because the ring was full (the source never "
                + "makes a sender wait).");
        this.empty = metrics.counter("emptyFrames", "Empty datagrams, skipped.");
        this.truncated = metrics.counter("truncated", "Datagrams longer than max-message-size, cut to it.");
    }

    @Override
    public String name() {
        return cfg.name();
    }

    /** Removes a stale socket at {@code path}, binds, and applies perm, owner and group. */
    @Override
    public void start() throws Exception {
        int max = cfg.maxMessageSize().intBytes();
        file.prepare();
        Bootstrap b = new Bootstrap()
                .group(transport.group())
                .channel(EpollDomainDatagramChannel.class)
                // one byte more than the limit, to tell an over-long datagram (the kernel cuts it to the buffer) from
                // one of exactly max bytes
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(max + 1))
                .handler(new DatagramHandler(max));
        if (cfg.receiveBuffer().bytes() > 0) {
            b.option(SO_RCVBUF, cfg.receiveBuffer().intBytes());
        }
        channel = b.bind(new DomainSocketAddress(file.path().toString())).sync().channel();
        try {
            file.bound();
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    /** The socket's path. */
    @Override
    public String boundAddress() {
        return file.path().toString();
    }

    /** Closes the socket and removes its file: senders get ECONNREFUSED (or ENOENT) from then on. */
    @Override
    public void stopAccepting() {
        if (channel != null) {
            channel.close().syncUninterruptibly();
        }
        file.remove();
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
    private final class DatagramHandler extends SimpleChannelInboundHandler<DomainDatagramPacket> {

        private final int max;
        private final Peer peer = Peer.local(LocalHostName.get());

        DatagramHandler(int max) {
            this.max = max;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DomainDatagramPacket packet) {
            publisher.publishDatagram(packet.content(), max, peer, empty, truncated, dropped);
        }
    }
}
