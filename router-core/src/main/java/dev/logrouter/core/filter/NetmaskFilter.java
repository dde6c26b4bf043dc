package dev.logrouter.core.filter;

import dev.logrouter.core.event.LogEvent;

import java.nio.charset.StandardCharsets;

/**
 * {@code netmask("10.0.0.0/8")} and {@code netmask6("fd00::/8")}: the sender's address (the event's peer text,
 * {@code $SOURCEIP}) is in the network, as syslog-ng's {@code filter-netmask.c} and {@code filter-netmask6.c}
 * decide it:
 *
 * <ul>
 *   <li>{@code netmask()} takes {@code a.b.c.d/N} (N 0–32), {@code a.b.c.d/m.m.m.m} (a dotted mask) or a bare
 *       address (/32); only IPv4 senders match. {@code netmask6()} takes {@code addr/N} (N 0–128) or a bare
 *       address (/128); only IPv6 senders match. The host bits of the configured address are ignored.</li>
 *   <li>A sender whose text is not an address literal (the file and journal sources, Unix sockets: their peer is
 *       the local host name) is the loopback address, {@code 127.0.0.1} and {@code ::1}, as syslog-ng treats a
 *       message without an address or from a Unix socket.</li>
 *   <li>An IPv4-mapped IPv6 sender ({@code ::ffff:a.b.c.d}) is its IPv4 address: {@code netmask()} tests it,
 *       {@code netmask6()} does not match it. The JVM reports IPv4 clients of a dual-stack socket as IPv4 anyway,
 *       so the peer text only has that form when a {@code SOURCEIP} from elsewhere set it (syslog-ng instead
 *       keeps such a sender IPv6: {@code netmask6("::ffff:0:0/96")} matches it there, {@code netmask()} not).</li>
 * </ul>
 *
 * <p>The peer text is parsed per evaluation by {@link InetText} (a few dozen byte comparisons, no allocation).
 *
 * <p>Threads: the node is immutable; each {@link Filter} it builds belongs to one thread.
 */
final class NetmaskFilter implements FilterNode {

    private static final int LOOPBACK4 = 0x7F000001;

    private final boolean six;
    private final int net4;
    private final int mask4;
    private final long netHi;
    private final long netLo;
    private final long maskHi;
    private final long maskLo;
    private final String text;

    private NetmaskFilter(boolean six, int net4, int mask4, long netHi, long netLo, long maskHi, long maskLo,
                          String text) {
        this.six = six;
        this.net4 = net4;
        this.mask4 = mask4;
        this.netHi = netHi;
        this.netLo = netLo;
        this.maskHi = maskHi;
        this.maskLo = maskLo;
        this.text = text;
    }

    /**
     * {@code netmask(spec)}.
     *
     * @param column the column of the argument's first character, for errors
     * @throws IllegalArgumentException naming the column, for anything but an IPv4 address with an optional
     *                                  {@code /prefix} or {@code /dotted.mask}
     */
    static NetmaskFilter ipv4(String spec, int column) {
        int slash = spec.indexOf('/');
        String addr = slash < 0 ? spec : spec.substring(0, slash);
        long a = InetText.parse4(ascii(addr), 0, addr.length());
        if (a < 0) {
            throw FilterExpression.error(column, "netmask(): '" + addr + "' is not an IPv4 address",
                    addr.indexOf(':') >= 0 ? "use netmask6(\"" + spec + "\") for an IPv6 network"
                            : "write netmask(\"10.0.0.0/8\"), netmask(\"10.0.0.0/255.0.0.0\") or one address");
        }
        int mask = -1;
        if (slash >= 0) {
            String m = spec.substring(slash + 1);
            int mColumn = column + slash;
            if (m.indexOf('.') >= 0) {
                long dotted = InetText.parse4(ascii(m), 0, m.length());
                if (dotted < 0) {
                    throw FilterExpression.error(mColumn, "netmask(): bad mask '" + m + "'",
                            "write a prefix length 0..32 or a dotted mask such as 255.255.0.0");
                }
                mask = (int) dotted;
            } else {
                int prefix = prefix(m, 32, mColumn, "netmask");
                mask = prefix == 0 ? 0 : -1 << (32 - prefix);
            }
        }
        return new NetmaskFilter(false, (int) a & mask, mask, 0, 0, 0, 0, "netmask(\"" + spec + "\")");
    }

    /**
     * {@code netmask6(spec)}.
     *
     * @throws IllegalArgumentException naming the column, for anything but an IPv6 address with an optional
     *                                  {@code /prefix}, or an IPv4-mapped network
     */
    static NetmaskFilter ipv6(String spec, int column) {
        int slash = spec.indexOf('/');
        String addr = slash < 0 ? spec : spec.substring(0, slash);
        InetText p = new InetText();
        if (addr.indexOf('%') >= 0 || !p.parse(ascii(addr), 0, addr.length()) || p.family != InetText.V6) {
            throw FilterExpression.error(column, "netmask6(): '" + addr + "' is not an IPv6 address",
                    p.family == InetText.V4 ? "use netmask(\"" + spec + "\") for an IPv4 network"
                            : "write netmask6(\"fd00::/8\") or one address such as \"2001:db8::1\"");
        }
        int prefix = slash < 0 ? 128 : prefix(spec.substring(slash + 1), 128, column + slash, "netmask6");
        long mHi = prefix == 0 ? 0 : prefix >= 64 ? -1L : -1L << (64 - prefix);
        long mLo = prefix <= 64 ? 0 : prefix == 128 ? -1L : -1L << (128 - prefix);
        long nHi = p.hi & mHi;
        long nLo = p.lo & mLo;
        if (prefix >= 96 && nHi == 0 && (nLo >>> 32) == 0xFFFFL) {
            throw FilterExpression.error(column, "netmask6(): '" + spec + "' is an IPv4-mapped network, which "
                    + "logrouter never sees: an IPv4 client of an IPv6 socket is an IPv4 sender",
                    "use netmask() with the IPv4 network");
        }
        return new NetmaskFilter(true, 0, 0, nHi, nLo, mHi, mLo, "netmask6(\"" + spec + "\")");
    }

    private static int prefix(String s, int max, int column, String fn) {
        boolean digits = !s.isEmpty() && s.length() <= 3;
        for (int i = 0; i < s.length() && digits; i++) {
            digits = s.charAt(i) >= '0' && s.charAt(i) <= '9';
        }
        if (!digits || Integer.parseInt(s) > max) {
            throw FilterExpression.error(column, fn + "(): bad prefix length '/" + s + "'",
                    "write a number 0.." + max + (max == 32 ? " or a dotted mask such as 255.255.0.0" : ""));
        }
        return Integer.parseInt(s);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Override
    public Filter newFilter() {
        return new Instance(this);
    }

    @Override
    public String describe() {
        return text;
    }

    /** The test on a parsed sender; {@code p.family == NONE} stands for the loopback address. */
    boolean contains(InetText p) {
        if (six) {
            if (p.family == InetText.NONE) {
                return netHi == 0 && (1L & maskLo) == netLo; // ::1
            }
            return p.family == InetText.V6 && !p.isV4Mapped() && (p.hi & maskHi) == netHi && (p.lo & maskLo) == netLo;
        }
        int a;
        if (p.family == InetText.V4) {
            a = p.v4;
        } else if (p.family == InetText.NONE) {
            a = LOOPBACK4;
        } else if (p.isV4Mapped()) {
            a = (int) p.lo;
        } else {
            return false;
        }
        return (a & mask4) == net4;
    }

    private static final class Instance implements Filter {
        private final NetmaskFilter node;
        private final InetText parsed = new InetText();

        Instance(NetmaskFilter node) {
            this.node = node;
        }

        @Override
        public boolean test(LogEvent event) {
            parsed.parse(event.peer(), 0, event.peerLength());
            return node.contains(parsed);
        }
    }
}
