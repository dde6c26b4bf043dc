package dev.logrouter.netty;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The sender's address as text bytes (an IP literal), computed once per connection (TCP) or per
 * change of sender (UDP) and copied into each event for HOST when the message names none.
 *
 * <p>Threads: owned by one channel's event loop.
 */
public final class Peer {

    private SocketAddress cachedFor;
    private byte[] text = new byte[0];

    /** Updates the text if {@code address} differs from the last one; cheap when it does not. */
    public Peer update(SocketAddress address) {
        if (address != null && !address.equals(cachedFor)) {
            cachedFor = address;
            if (address instanceof InetSocketAddress isa && isa.getAddress() != null) {
                InetAddress a = isa.getAddress();
                text = a.getHostAddress().getBytes(StandardCharsets.US_ASCII);
            } else {
                text = address.toString().getBytes(StandardCharsets.US_ASCII);
            }
        }
        return this;
    }

    public byte[] text() {
        return text;
    }
}
