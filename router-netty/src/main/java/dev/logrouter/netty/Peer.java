package dev.logrouter.netty;

import dev.logrouter.core.event.FieldName;
import dev.logrouter.core.event.FieldTable;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * What a source knows of the sender, computed once per connection (TCP) or per change of sender (UDP) and
 * copied into each event: the address as text bytes (an IP literal, for HOST when the message names none; the local
 * host name for a Unix socket; behind a load balancer, the sender's address from its PROXY protocol header) and
 * connection fields such as the TLS peer certificate's subject ({@code .tls.x509_cn}) or a unix-stream peer's
 * credentials ({@code .unix.pid}).
 *
 * <p>Threads: owned by one channel's event loop.
 */
public final class Peer {

    private static final FieldName[] NO_NAMES = new FieldName[0];
    private static final byte[][] NO_VALUES = new byte[0][];

    private SocketAddress cachedFor;
    /** Set by {@link #local}: the text stays whatever the address. */
    private boolean fixed;
    private byte[] text = new byte[0];
    private FieldName[] fieldNames = NO_NAMES;
    private byte[][] fieldValues = NO_VALUES;

    /**
     * A peer of a local source (a Unix socket): its text is {@code text} (the local host name, HOST when the message
     * names none, as syslog-ng sets it for local sources) and {@link #update} leaves it.
     */
    public static Peer local(byte[] text) {
        Peer p = new Peer();
        p.text = text;
        p.fixed = true;
        return p;
    }

    /** Updates the text if {@code address} differs from the last one; cheap when it does not. */
    public Peer update(SocketAddress address) {
        if (!fixed && address != null && !address.equals(cachedFor)) {
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

    /**
     * The sender is {@code address}, as a PROXY protocol header named it (the connection's own address is the load
     * balancer's): the text becomes that address and {@link #update} leaves it from now on. Once per connection.
     */
    public void proxied(InetAddress address) {
        text = address.getHostAddress().getBytes(StandardCharsets.US_ASCII);
        fixed = true;
    }

    public byte[] text() {
        return text;
    }

    /**
     * Sets the fields every event of this connection carries (once per connection, e.g. after a TLS handshake);
     * {@code names} is kept, not copied (a constant); a null value sets nothing.
     */
    public void setFields(FieldName[] names, String[] values) {
        byte[][] v = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            v[i] = values[i] == null ? null : values[i].getBytes(StandardCharsets.UTF_8);
        }
        fieldValues = v;
        fieldNames = names;
    }

    /** Writes the connection fields into {@code t} (nothing, and nothing allocated, when there are none). */
    public void copyFieldsTo(FieldTable t) {
        FieldName[] names = fieldNames;
        byte[][] values = fieldValues;
        for (int i = 0; i < names.length; i++) {
            byte[] v = values[i];
            if (v != null) {
                t.set(names[i], v, 0, v.length, 0);
            }
        }
    }
}
