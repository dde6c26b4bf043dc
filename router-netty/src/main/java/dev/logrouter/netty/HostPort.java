package dev.logrouter.netty;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Parses {@code bind:} values: {@code host:port}, {@code [v6]:port} or {@code :port} (all addresses).
 *
 * <p>Threads: stateless.
 */
public final class HostPort {

    private HostPort() {
    }

    public static InetSocketAddress parse(String bind) {
        int colon = bind.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("bind must be host:port, got '" + bind + "'");
        }
        String host = bind.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(bind.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bind port must be a number, got '" + bind + "'");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("bind port must be 0..65535, got " + port);
        }
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    /** {@code ip:port} of a bound address, the form {@link #parse} reads. */
    public static String format(SocketAddress address) {
        InetSocketAddress a = (InetSocketAddress) address;
        String host = a.getAddress().getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + a.getPort();
    }
}
