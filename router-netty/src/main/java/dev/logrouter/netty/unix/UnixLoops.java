package dev.logrouter.netty.unix;

import dev.logrouter.core.source.SourceContext;
import dev.logrouter.netty.NettyTransport;

/**
 * The event loops of the Unix sources. Only Netty's native epoll transport serves Unix domain sockets: when the network
 * sources' shared loops are epoll ones (the default on Linux) the Unix sources share them; when they are NIO
 * ({@code -Dlogrouter.nio=true}) the first Unix source built makes an epoll group of its own ({@code unix-<n>}), shared
 * by the other Unix sources and closed by the router with the other shared resources.
 *
 * <p>Threads: made on the thread that assembles the router; closed by the router.
 */
final class UnixLoops implements AutoCloseable {

    private final NettyTransport transport;

    private UnixLoops(NettyTransport transport) {
        this.transport = transport;
    }

    /** Epoll event loops for a Unix source of {@code ctx}; fails, naming the cause, where epoll cannot load. */
    static NettyTransport shared(SourceContext ctx) {
        if (NettyTransport.usesEpoll()) {
            return NettyTransport.shared(ctx);
        }
        return ctx.shared().get(UnixLoops.class,
                () -> new UnixLoops(NettyTransport.epoll(ctx.ioThreads(), "unix"))).transport;
    }

    @Override
    public void close() {
        transport.close();
    }
}
