package dev.logrouter.netty.proxy;

import dev.logrouter.netty.Peer;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.util.NetUtil;

import java.net.InetAddress;

/**
 * Reads the connection's PROXY protocol header, decoded by the {@link ProxyHeaderDecoder} before it, into the
 * connection's {@link Peer}: the sender's address (TCP or UDP over IPv4 or IPv6) becomes the connection's address for
 * every event, written as for a direct connection (an IPv6 address in Java's full form). A {@code LOCAL} command (v2)
 * or an unknown or Unix-socket origin ({@code PROXY UNKNOWN}, v2 {@code AF_UNSPEC} / {@code AF_UNIX}) keeps the
 * connection's own address: that is how load balancers send their health checks. Removes itself after the header.
 *
 * <p>Threads: one instance per connection, on its event loop. Not sharable.
 */
final class ProxyPeerHandler extends ChannelInboundHandlerAdapter {

    private final Peer peer;

    ProxyPeerHandler(Peer peer) {
        this.peer = peer;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof HAProxyMessage header)) {
            ctx.fireChannelRead(msg); // not reached: the decoder hands on no byte before the header
            return;
        }
        try {
            InetAddress sender = sender(header);
            if (sender != null) {
                peer.proxied(sender);
            }
        } finally {
            header.release();
        }
        ctx.pipeline().remove(this);
    }

    /** The sender the header names, or null when it names none to use (LOCAL, UNKNOWN, a Unix socket). */
    static InetAddress sender(HAProxyMessage header) {
        if (header.command() != HAProxyCommand.PROXY) {
            return null;
        }
        return switch (header.proxiedProtocol()) {
            case TCP4, TCP6, UDP4, UDP6 -> header.sourceAddress() == null ? null
                    : NetUtil.createInetAddressFromIpAddressString(header.sourceAddress()); // a literal: no lookup
            default -> null;
        };
    }
}
