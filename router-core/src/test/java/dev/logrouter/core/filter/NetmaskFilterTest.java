package dev.logrouter.core.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.logrouter.core.event.LogEvent;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code netmask()} and {@code netmask6()} on events parsed from a real syslog line, with the sender text a source
 * sets ({@code InetAddress.getHostAddress()} forms, a {@code SOURCEIP} from elsewhere, a local host name), and the
 * address parser under them.
 */
class NetmaskFilterTest {

    private static LogEvent from(String peer) {
        LogEvent e = FilterExpressionTest.event(FilterExpressionTest.SSHD);
        byte[] p = peer.getBytes(StandardCharsets.US_ASCII);
        e.setPeer(p, 0, p.length);
        return e;
    }

    private static boolean test(String filter, String peer) {
        return FilterExpression.compile(filter, Map.of()).newFilter().test(from(peer));
    }

    @Test
    void ipv4NetworksByPrefixMaskOrSingleAddress() {
        assertThat(test("netmask(\"10.0.0.0/8\")", "10.1.2.3")).isTrue();
        assertThat(test("netmask(\"10.0.0.0/8\")", "11.1.2.3")).isFalse();
        assertThat(test("netmask(\"10.0.0.0/8\")", "9.255.255.255")).isFalse();
        assertThat(test("netmask(10.0.0.0/8)", "10.255.255.255")).isTrue(); // unquoted, as syslog-ng allows
        assertThat(test("netmask(\"192.168.1.0/255.255.255.0\")", "192.168.1.77")).isTrue();
        assertThat(test("netmask(\"192.168.1.0/255.255.255.0\")", "192.168.2.77")).isFalse();
        assertThat(test("netmask(\"192.0.2.7\")", "192.0.2.7")).isTrue();
        assertThat(test("netmask(\"192.0.2.7\")", "192.0.2.8")).isFalse();
        assertThat(test("netmask(\"192.0.2.7/32\")", "192.0.2.7")).isTrue();
        // host bits of the configured address are ignored, as syslog-ng masks it
        assertThat(test("netmask(\"10.9.9.9/8\")", "10.1.2.3")).isTrue();
        assertThat(test("netmask(\"172.16.0.0/12\")", "172.31.255.1")).isTrue();
        assertThat(test("netmask(\"172.16.0.0/12\")", "172.32.0.1")).isFalse();
        assertThat(test("netmask(\"0.0.0.0/0\")", "203.0.113.9")).isTrue();
        assertThat(test("netmask(\"255.255.255.255\")", "255.255.255.255")).isTrue();
        assertThat(test("netmask(\"128.0.0.0/1\")", "200.1.1.1")).isTrue();
        assertThat(test("netmask(\"128.0.0.0/1\")", "127.1.1.1")).isFalse();
    }

    @Test
    void ipv4MasksNeverMatchIpv6SendersButTakeMappedOnes() {
        assertThat(test("netmask(\"0.0.0.0/0\")", "2001:db8:0:0:0:0:0:1")).isFalse();
        assertThat(test("netmask(\"0.0.0.0/0\")", "0:0:0:0:0:0:0:1")).isFalse();
        assertThat(test("netmask(\"10.0.0.0/8\")", "::ffff:10.1.2.3")).isTrue();
        assertThat(test("netmask(\"10.0.0.0/8\")", "0:0:0:0:0:ffff:a01:203")).isTrue();
        assertThat(test("netmask(\"10.0.0.0/8\")", "::ffff:11.1.2.3")).isFalse();
        assertThat(test("netmask6(\"::/0\")", "::ffff:10.1.2.3")).isFalse();
    }

    @Test
    void ipv6NetworksByPrefix() {
        assertThat(test("netmask6(\"fd00::/8\")", "fd12:3456:0:0:0:0:0:1")).isTrue();
        assertThat(test("netmask6(\"fd00::/8\")", "fd12:3456::1")).isTrue();
        assertThat(test("netmask6(\"fd00::/8\")", "fe80:0:0:0:0:0:0:1")).isFalse();
        assertThat(test("netmask6(\"fe80::/10\")", "fe80:0:0:0:a00:27ff:fe4e:66a1%enp0s3")).isTrue();
        assertThat(test("netmask6(\"fe80::/10\")", "febf:0:0:0:0:0:0:1%2")).isTrue();
        assertThat(test("netmask6(\"fe80::/10\")", "fec0:0:0:0:0:0:0:1")).isFalse();
        assertThat(test("netmask6(\"::1\")", "0:0:0:0:0:0:0:1")).isTrue();
        assertThat(test("netmask6(\"::1/128\")", "0:0:0:0:0:0:0:2")).isFalse();
        assertThat(test("netmask6(\"::/0\")", "2001:db8::1")).isTrue();
        // prefixes that cut inside the second 64 bits
        assertThat(test("netmask6(\"2001:db8::ff00/120\")", "2001:db8::ffab")).isTrue();
        assertThat(test("netmask6(\"2001:db8::ff00/120\")", "2001:db8::feab")).isFalse();
        assertThat(test("netmask6(\"2001:db8:0:0:8000::/65\")", "2001:db8::8000:0:0:1")).isTrue();
        assertThat(test("netmask6(\"2001:db8:0:0:8000::/65\")", "2001:db8::7fff:0:0:1")).isFalse();
        assertThat(test("netmask6(\"2001:db8::/64\")", "2001:db8:0:1::1")).isFalse();
        assertThat(test("netmask6(\"2001:DB8::/32\")", "2001:db8:ffff::")).isTrue();
        // IPv4 senders never match an IPv6 prefix
        assertThat(test("netmask6(\"::/0\")", "10.1.2.3")).isFalse();
    }

    @Test
    void aSenderWithoutAnAddressIsTheLoopbackAsInSyslogNg() {
        // file and journal sources and Unix sockets put the local host name there; syslog-ng uses 127.0.0.1 / ::1
        assertThat(test("netmask(\"127.0.0.1\")", "myhost")).isTrue();
        assertThat(test("netmask(\"10.0.0.0/8\")", "myhost")).isFalse();
        assertThat(test("netmask6(\"::1\")", "myhost")).isTrue();
        assertThat(test("netmask6(\"fd00::/8\")", "")).isFalse();
        assertThat(test("netmask(\"127.0.0.0/8\")", "")).isTrue();
    }

    @Test
    void composesWithTheRestOfTheLanguage() {
        assertThat(test("not netmask(\"10.0.0.0/8\") and program(sshd)", "192.0.2.7")).isTrue();
        assertThat(test("netmask(\"10.0.0.0/8\") or netmask6(\"fd00::/8\")", "fd00::5")).isTrue();
        assertThat(FilterExpression.compile("netmask(\"10.1.2.3/8\") or netmask6('fd00::/8')", Map.of()).describe())
                .contains("netmask(\"10.1.2.3/8\")").contains("netmask6(\"fd00::/8\")");
    }

    @Test
    void badNetworksFailWithTheColumn() {
        fails("netmask(\"10.0.0.0/33\")", "column 18:", "netmask(): bad prefix length '/33'", "0..32");
        fails("netmask(\"10.0.0/8\")", "column 10:", "'10.0.0' is not an IPv4 address");
        fails("netmask(\"10.0.0.256\")", "column 10:", "'10.0.0.256' is not an IPv4 address");
        fails("netmask(\"10.0.0.0/255.0.0\")", "column 18:", "bad mask '255.0.0'");
        fails("netmask(\"10.0.0.0/x\")", "column 18:", "bad prefix length '/x'");
        fails("netmask(\"10.0.0.0/\")", "column 18:", "bad prefix length '/'");
        fails("netmask(\"fd00::/8\")", "column 10:", "is not an IPv4 address", "use netmask6(\"fd00::/8\")");
        fails("netmask6(\"fd00::/129\")", "column 17:", "netmask6(): bad prefix length '/129'", "0..128");
        fails("netmask6(\"fd00:::1/8\")", "column 11:", "'fd00:::1' is not an IPv6 address");
        fails("netmask6(\"10.0.0.0/8\")", "column 11:", "is not an IPv6 address", "use netmask(\"10.0.0.0/8\")");
        fails("netmask6(\"::ffff:10.0.0.0/104\")", "column 11:", "IPv4-mapped network", "use netmask()");
        fails("netmask6(fd00::/8)", "column 14:", "unexpected character ':'", "quote values");
        fails("netmask()", "column 9:", "expected a network such as \"10.0.0.0/8\" in netmask()");
        fails("netmask(\"10.0.0.0/8\" \"x\")", "column 22:", "expected ')' to close netmask(");
    }

    private static void fails(String text, String... fragments) {
        var thrown = assertThatThrownBy(() -> FilterExpression.compile(text, Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
        for (String f : fragments) {
            thrown.hasMessageContaining(f);
        }
    }

    @Test
    void addressParserAcceptsLiteralsOnly() {
        InetText p = new InetText();
        assertThat(parse(p, "192.0.2.7")).isEqualTo(InetText.V4);
        assertThat(p.v4).isEqualTo(0xC0000207);
        assertThat(parse(p, "::")).isEqualTo(InetText.V6);
        assertThat(p.hi).isZero();
        assertThat(p.lo).isZero();
        assertThat(parse(p, "1:2:3:4:5:6:7:8")).isEqualTo(InetText.V6);
        assertThat(p.hi).isEqualTo(0x0001000200030004L);
        assertThat(p.lo).isEqualTo(0x0005000600070008L);
        assertThat(parse(p, "1::8")).isEqualTo(InetText.V6);
        assertThat(p.hi).isEqualTo(0x0001000000000000L);
        assertThat(p.lo).isEqualTo(8L);
        assertThat(parse(p, "1:2:3:4:5:6:7::")).isEqualTo(InetText.V6);
        assertThat(p.lo).isEqualTo(0x0005000600070000L);
        assertThat(parse(p, "::1.2.3.4")).isEqualTo(InetText.V6);
        assertThat(p.lo).isEqualTo(0x01020304L);
        assertThat(parse(p, "::FFFF:1.2.3.4")).isEqualTo(InetText.V6);
        assertThat(p.isV4Mapped()).isTrue();
        for (String bad : new String[] {"", "host.example.com", "1.2.3", "1.2.3.4.5", "1.2.3.4.", ".1.2.3",
                "1..2.3", "256.1.1.1", "1234.1.1.1", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", ":1::2", "1::2::3",
                "1:::2", "12345::1", "1:2:3:4:5:6:7:8::", "g::1", "1:", "::1.2.3", "1:2:3:4:5:6:7:1.2.3.4", "%eth0"}) {
            assertThat(parse(p, bad)).as(bad).isEqualTo(InetText.NONE);
        }
    }

    private static int parse(InetText p, String s) {
        byte[] b = ("xx" + s + "yy").getBytes(StandardCharsets.US_ASCII);
        p.parse(b, 2, s.length());
        return p.family;
    }
}
