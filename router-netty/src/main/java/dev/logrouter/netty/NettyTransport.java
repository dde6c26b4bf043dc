package dev.logrouter.netty;

import dev.logrouter.core.source.SourceContext;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.util.concurrent.TimeUnit;

/**
 * Netty event loops: native epoll on Linux when available, NIO otherwise. The network sources share one
 * ({@link #shared}, threads {@code io-<n>}); each syslog sink has its own. The Unix socket sources need epoll
 * ({@link #epoll}): they share these loops when they are epoll ones, else make their own.
 *
 * <p>Threads: created and shut down by the thread that starts and stops the router.
 */
public final class NettyTransport implements AutoCloseable {

    static {
        // Netty's default (SIMPLE) leak detector records a stack trace for one buffer in 128: on an event loop
        // reading one message per read that was 0.5 % of the router's CPU samples. Off unless asked for (the tests
        // run with -Dio.netty.leakDetection.level=paranoid).
        if (System.getProperty("io.netty.leakDetection.level") == null
                && System.getProperty("io.netty.leakDetectionLevel") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }

    private final boolean epoll;
    private final EventLoopGroup group;

    /** The event loops the network sources of one router share: made by the first source built, closed by the router. */
    public static NettyTransport shared(SourceContext ctx) {
        return ctx.shared().get(NettyTransport.class, () -> new NettyTransport(ctx.ioThreads()));
    }

    /** @param threads event loop threads; 0 = number of cores */
    public NettyTransport(int threads) {
        this(threads, "io", false);
    }

    /**
     * @param threads event loop threads; 0 = number of cores
     * @param name    thread name prefix: threads are {@code <name>-<n>}
     * @param daemon  daemon threads (they do not keep the JVM alive if a close is given up)
     */
    public NettyTransport(int threads, String name, boolean daemon) {
        this(threads, name, daemon, usesEpoll());
    }

    /** Whether new event loops are epoll ones: on Linux where the native transport loads, unless -Dlogrouter.nio=true. */
    public static boolean usesEpoll() {
        return Epoll.isAvailable() && !Boolean.getBoolean("logrouter.nio");
    }

    private NettyTransport(int threads, String name, boolean daemon, boolean epoll) {
        this.epoll = epoll;
        int n = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        IoHandlerFactory factory = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.group = new MultiThreadIoEventLoopGroup(n, new DefaultThreadFactory(name, daemon), factory);
    }

    /**
     * Native epoll event loops whatever {@code -Dlogrouter.nio} says, for the channels only epoll serves (Unix domain
     * sockets); fails, naming the cause, where the native transport cannot load.
     */
    public static NettyTransport epoll(int threads, String name) {
        if (!Epoll.isAvailable()) {
            throw new IllegalStateException("Netty's native epoll transport is not available (Linux x86-64 only): "
                    + Epoll.unavailabilityCause());
        }
        return new NettyTransport(threads, name, false, true);
    }

    /** Whether these loops are native epoll ones (else NIO). */
    public boolean isEpoll() {
        return epoll;
    }

    public EventLoopGroup group() {
        return group;
    }

    public Class<? extends ServerChannel> serverChannel() {
        return epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /** The client socket channel class (the syslog sink's connections). */
    public Class<? extends Channel> socketChannel() {
        return epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    public Class<? extends DatagramChannel> datagramChannel() {
        return epoll ? EpollDatagramChannel.class : NioDatagramChannel.class;
    }

    public String kind() {
        return epoll ? "epoll" : "nio";
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
