package dev.logrouter.netty.relay;

/**
 * One {@code hosts:} entry of a syslog sink: a host name or address and a port, kept unresolved (a DNS name is
 * resolved at each connect, so a changed record is followed).
 *
 * <p>Threads: immutable.
 *
 * @param host name or address as written ({@code [v6]} brackets removed)
 * @param port 1..65535
 */
record Destination(String host, int port) {

    /** Parses {@code host:port} or {@code [v6]:port}. */
    static Destination parse(String spec) {
        int colon = spec == null ? -1 : spec.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("hosts: an entry must be host:port, got '" + spec + "'");
        }
        String host = spec.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.indexOf(':') >= 0) {
            throw new IllegalArgumentException("hosts: write an IPv6 address in brackets, [v6]:port, got '" + spec
                    + "'");
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("hosts: an entry must name a host, got '" + spec + "'");
        }
        int port;
        try {
            port = Integer.parseInt(spec.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("hosts: the port must be a number, got '" + spec + "'");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("hosts: the port must be 1..65535, got '" + spec + "'");
        }
        return new Destination(host, port);
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
