package dev.logrouter.netty.unix;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.source.Source;
import dev.logrouter.core.template.LocalHostName;
import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.Peer;
import dev.logrouter.netty.RingPublisher;
import dev.logrouter.netty.tcp.StreamConnections;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * {@code type: unix-stream}: a Unix stream socket, as syslog-ng's {@code unix-stream()}. Connections are framed and
 * published as the TCP source's ({@link StreamConnections}: the same decoders, flow control and clean stop), except
 * that with LF framing a NUL byte ends a message too (glibc's syslog(3) ends each message it writes to a stream socket
 * with one). Each connection's peer credentials ({@code SO_PEERCRED}, read once when it is accepted) are set on every
 * event as {@code .unix.pid}, {@code .unix.uid} and {@code .unix.gid}; HOST, when the message names none, is the local
 * host name.
 *
 * <p>Threads: lifecycle on the controlling thread; connections on the epoll event loops.
 */
public final class UnixStreamSource implements Source {

    /** How long open connections may keep delivering on a clean stop (a TCP source's default drain-timeout). */
    static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final UnixStreamSourceConfig cfg;
    private final NettyTransport transport;
    private final StreamConnections connections;
    private final UnixSocketFile file;
    private final Counter noCredentials;
    private Channel server;

    public UnixStreamSource(UnixStreamSourceConfig cfg, NettyTransport transport, RingPublisher publisher,
                            MetricGroup metrics) {
        this.cfg = cfg;
        this.transport = transport;
        this.file = new UnixSocketFile(cfg.name(), cfg.path(), cfg.perm(), cfg.owner(), cfg.group());
        this.connections = new StreamConnections("Unix stream", cfg.maxConnections(), -1, cfg.framing(), true,
                cfg.maxMessageSize().intBytes(), 0, DRAIN_NANOS, publisher, metrics);
        this.noCredentials = metrics.counter("noCredentials", "Connections whose peer credentials could not be read: "
                + "their events carry no .unix.pid, .unix.uid, .unix.gid.");
    }

    @Override
    public String name() {
        return cfg.name();
    }

    /** Removes a stale socket at {@code path}, listens, and applies perm, owner and group. */
    @Override
    public void start() throws Exception {
        file.prepare();
        byte[] host = LocalHostName.get();
        ServerBootstrap b = new ServerBootstrap()
                .group(transport.group())
                .channel(EpollServerDomainSocketChannel.class)
                .handler(connections.acceptTracker())
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        Peer peer = Peer.local(host);
                        connections.initConnection(ch, peer, p -> credentials(ch, peer));
                    }
                });
        if (cfg.receiveBuffer().bytes() > 0) {
            b.childOption(ChannelOption.SO_RCVBUF, cfg.receiveBuffer().intBytes());
        }
        server = b.bind(new DomainSocketAddress(file.path().toString())).sync().channel();
        try {
            file.bound();
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    /** Reads the connection's {@code SO_PEERCRED} into the peer's fields. On the connection's event loop. */
    private void credentials(Channel ch, Peer peer) {
        try {
            UnixCredentials.set(peer, ((EpollDomainSocketChannel) ch).peerCredentials());
        } catch (IOException e) {
            noCredentials.inc();
        }
    }

    /** The socket's path. */
    @Override
    public String boundAddress() {
        return file.path().toString();
    }

    /**
     * Closes the listener once accepts went quiet ({@link StreamConnections#stopAccepting}) and removes the socket
     * file; open connections go on until {@link #awaitPublished}.
     */
    @Override
    public void stopAccepting() {
        connections.stopAccepting(server);
        file.remove();
    }

    /**
     * Lets open connections finish (each is closed once quiet for 300 ms, or 2 s before its first byte; all within 5 s), then waits until what they
     * sent is in the ring: {@link StreamConnections#awaitPublished}.
     */
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
