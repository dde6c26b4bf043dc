package dev.logrouter.netty.relay;

import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.relay.SyslogSinkConfig.Transport;
import dev.logrouter.netty.relp.RelpFrameDecoder;
import dev.logrouter.netty.tls.ClientTls;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Opens the syslog sink's connections: one Netty event loop of the sink's own ({@code relay-<sink>-<n>}, epoll or
 * NIO), a TCP, TLS or UDP (connected datagram) channel per connect, and the TLS handshake when there is one. A
 * connection is ready when the connect (and handshake) completed; what the peer sends is read and dropped, so that a
 * close or reset from the peer is seen at once. With RELP the pipeline ends in a {@link RelpFrameDecoder} and a
 * {@link RelpClientHandler} instead, and a connection is ready once the receiver accepted the RELP {@code open}.
 *
 * <p>Threads: {@link #connect} from the sink's thread; the handlers run on the event loop; {@link #close} from the
 * sink's thread when it closes.
 */
final class RelayConnector implements AutoCloseable {

    /** Why the event loop closed a channel (an error it caught), for the failure the next write reports. */
    static final AttributeKey<Throwable> CLOSE_CAUSE = AttributeKey.valueOf("logrouter.relay.closeCause");

    private final NettyTransport transport;
    private final Bootstrap bootstrap;
    private final ClientTls tls;
    /** RELP: makes each connection's session; null for the other transports. */
    private final Supplier<RelpClientHandler> relp;
    private final int connectTimeoutMillis;

    /**
     * @param relp with {@code transport: relp}, makes the RELP session of each new connection; null otherwise
     */
    RelayConnector(String sinkName, Transport kind, ClientTls tls, int connectTimeoutMillis,
                   Supplier<RelpClientHandler> relp) {
        this.transport = new NettyTransport(1, "relay-" + sinkName, true);
        this.tls = tls;
        this.relp = relp;
        this.connectTimeoutMillis = connectTimeoutMillis;
        Bootstrap b = new Bootstrap().group(transport.group())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis);
        if (kind == Transport.udp) {
            b.channel(transport.datagramChannel());
        } else {
            b.channel(transport.socketChannel()).option(ChannelOption.SO_KEEPALIVE, true);
        }
        this.bootstrap = b;
    }

    /** The event loop kind: epoll or nio. */
    String kind() {
        return transport.kind();
    }

    /**
     * Starts a connection to {@code to} (its name resolved now, on the calling thread); the future completes with the
     * channel once it can take writes (TLS: handshake done; RELP: open accepted, its session in the channel's
     * {@link RelpClientHandler#KEY} attribute), or exceptionally with the reason (the channel then closed).
     */
    CompletableFuture<Channel> connect(Destination to) {
        CompletableFuture<Channel> ready = new CompletableFuture<>();
        // The channel's own SslHandler, kept here: the connect listener may run late (added after the connect
        // completed, it is queued on the event loop), when a failed handshake has closed the channel and its
        // deregistration emptied the pipeline; looking the handler up there would find none and take the channel as
        // a plain one that is up.
        AtomicReference<SslHandler> sslHandler = new AtomicReference<>();
        AtomicReference<RelpClientHandler> session = new AtomicReference<>();
        Bootstrap b = bootstrap.clone().handler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (tls != null) {
                    SslHandler h = tls.newHandler(ch.alloc(), to.host(), to.port());
                    sslHandler.set(h);
                    ch.pipeline().addLast(h);
                }
                if (relp != null) {
                    RelpClientHandler s = relp.get();
                    session.set(s);
                    ch.attr(RelpClientHandler.KEY).set(s);
                    ch.pipeline().addLast("relp-frames", new RelpFrameDecoder(RelpClientHandler.MAX_RSP_DATA, s));
                    ch.pipeline().addLast("relp", s);
                } else {
                    ch.pipeline().addLast(DropInbound.INSTANCE);
                }
            }
        });
        // resolved here, on the calling (sink or delivery) thread: Netty would resolve a name with the blocking JDK
        // resolver on the event loop, stalling the writes of the sink's other connections while DNS is slow
        java.net.InetSocketAddress address = new java.net.InetSocketAddress(to.host(), to.port());
        if (address.isUnresolved()) {
            ready.completeExceptionally(new java.net.UnknownHostException(to.host() + ": name not resolved"));
            return ready;
        }
        ChannelFuture connect;
        try {
            connect = b.connect(address);
        } catch (RuntimeException e) { // the event loop shut down, a channel that could not be made: this host's failure
            ready.completeExceptionally(e);
            return ready;
        }
        connect.addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                ready.completeExceptionally(f.cause());
                return;
            }
            Channel ch = f.channel();
            SslHandler ssl = sslHandler.get();
            if (tls == null) {
                ready(ch, session.get(), ready);
                return;
            }
            ssl.handshakeFuture().addListener(h -> {
                if (h.isSuccess()) {
                    ready(ch, session.get(), ready);
                } else {
                    ch.close();
                    ready.completeExceptionally(h.cause());
                }
            });
        });
        return ready;
    }

    /** The connection is up (and TLS done): ready now, or with RELP once the receiver accepted the open. */
    private void ready(Channel ch, RelpClientHandler session, CompletableFuture<Channel> ready) {
        if (session == null) {
            ready.complete(ch);
            return;
        }
        session.open(connectTimeoutMillis).whenComplete((v, e) -> {
            if (e == null) {
                ready.complete(ch);
            } else {
                ch.close();
                ready.completeExceptionally(e);
            }
        });
    }

    @Override
    public void close() {
        transport.close();
    }

    /** Releases whatever the peer sends (a syslog server sends nothing) and closes on an error. */
    @ChannelHandler.Sharable
    private static final class DropInbound extends ChannelInboundHandlerAdapter {
        static final DropInbound INSTANCE = new DropInbound();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.channel().attr(CLOSE_CAUSE).setIfAbsent(cause);
            ctx.close(); // a reset, a TLS alert, an ICMP port unreachable: the write that follows fails and says why
        }
    }
}
