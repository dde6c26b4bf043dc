package dev.logrouter.netty.relay;

import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.relay.SyslogSinkConfig.Transport;
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

/**
 * Opens the syslog sink's connections: one Netty event loop of the sink's own ({@code relay-<sink>-<n>}, epoll or
 * NIO), a TCP, TLS or UDP (connected datagram) channel per connect, and the TLS handshake when there is one. A
 * connection is ready when the connect (and handshake) completed; what the peer sends is read and dropped, so that a
 * close or reset from the peer is seen at once.
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

    RelayConnector(String sinkName, Transport kind, ClientTls tls, int connectTimeoutMillis) {
        this.transport = new NettyTransport(1, "relay-" + sinkName, true);
        this.tls = tls;
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
     * Starts a connection to {@code to} (its name resolved now, on the calling thread); the future completes with the channel once it can
     * take writes (TLS: handshake done), or exceptionally with the reason (the channel then closed).
     */
    CompletableFuture<Channel> connect(Destination to) {
        CompletableFuture<Channel> ready = new CompletableFuture<>();
        // The channel's own SslHandler, kept here: the connect listener may run late (added after the connect
        // completed, it is queued on the event loop), when a failed handshake has closed the channel and its
        // deregistration emptied the pipeline; looking the handler up there would find none and take the channel as
        // a plain one that is up.
        AtomicReference<SslHandler> sslHandler = new AtomicReference<>();
        Bootstrap b = bootstrap.clone().handler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (tls != null) {
                    SslHandler h = tls.newHandler(ch.alloc(), to.host(), to.port());
                    sslHandler.set(h);
                    ch.pipeline().addLast(h);
                }
                ch.pipeline().addLast(DropInbound.INSTANCE);
            }
        });
        // resolved here, on the calling (sink or delivery) thread: Netty would resolve a name with the blocking JDK
        // resolver on the event loop, stalling the writes of the sink's other connections while DNS is slow
        java.net.InetSocketAddress address = new java.net.InetSocketAddress(to.host(), to.port());
        if (address.isUnresolved()) {
            ready.completeExceptionally(new java.net.UnknownHostException(to.host() + ": name not resolved"));
            return ready;
        }
        ChannelFuture connect = b.connect(address);
        connect.addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                ready.completeExceptionally(f.cause());
                return;
            }
            Channel ch = f.channel();
            SslHandler ssl = sslHandler.get();
            if (tls == null) {
                ready.complete(ch);
                return;
            }
            ssl.handshakeFuture().addListener(h -> {
                if (h.isSuccess()) {
                    ready.complete(ch);
                } else {
                    ch.close();
                    ready.completeExceptionally(h.cause());
                }
            });
        });
        return ready;
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
