package dev.logrouter.netty.proxy;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.source.SyslogFormat;
import dev.logrouter.core.testing.Conditions;
import dev.logrouter.core.testing.TestPki;
import dev.logrouter.netty.HostPort;
import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.RingPublisher;
import dev.logrouter.netty.relp.RelpSource;
import dev.logrouter.netty.relp.RelpSourceConfig;
import dev.logrouter.netty.tcp.Framing;
import dev.logrouter.netty.tcp.TcpSource;
import dev.logrouter.netty.tcp.TcpSourceConfig;
import dev.logrouter.netty.tls.TlsConfig;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyMessageEncoder;
import io.netty.handler.codec.haproxy.HAProxyProtocolVersion;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code proxy-protocol: true} on a real TCP source on loopback, with a real ring: v1 and v2 (IPv4, IPv6) headers
 * make the named sender the events' peer; the header's bytes never reach a message; the header comes in clear before
 * a TLS handshake; LOCAL and UNKNOWN keep the connection's own address; a connection without a valid header (syslog
 * written directly, a malformed, over-long or unfinished header) is closed and counted; idle-timeout still closes a
 * connection whose header never completes, and so does a TLS source's handshake-timeout; and without the option a
 * PROXY line is just a message. The RELP source takes the same header.
 */
class ProxyProtocolSourceTest {

    private static final String LINE1 = "<13>Nov 22 10:00:00 app: first behind the balancer\n";
    private static final String LINE2 = "<13>Nov 22 10:00:01 app: second behind the balancer\n";

    @TempDir
    static Path dir;
    private static TestPki pki;
    private static NettyTransport transport;

    private RingBuffer<LogEvent> ring;
    private MetricGroup metrics;
    private TcpSource source;

    @BeforeAll
    static void startLoops() throws Exception {
        pki = new TestPki(dir);
        pki.server("server", "localhost");
        pki.client("web", "/O=Example/OU=frontend/CN=web-01");
        transport = new NettyTransport(1);
    }

    @AfterAll
    static void stopLoops() {
        transport.close();
    }

    @AfterEach
    void stop() throws Exception {
        if (source != null) {
            source.stopAccepting();
            assertThat(source.awaitPublished(10, TimeUnit.SECONDS)).isTrue();
            source.close();
            source = null;
        }
    }

    private void start(boolean proxy, String idle, Framing framing, TlsConfig tls) throws Exception {
        ring = RingBuffer.createMultiProducer(LogEvent.FACTORY, 1024);
        ring.addGatingSequences(new Sequence(-1)); // nothing consumes: the events stay to be read
        metrics = new MetricGroup("Source", "lb");
        RingPublisher pub = new RingPublisher(ring, 0, "lb", LogEvent.FORMAT_AUTO, 1L, metrics);
        source = new TcpSource(new TcpSourceConfig("lb", "127.0.0.1:0", framing, SyslogFormat.auto,
                ByteSize.parse("64KiB"), 100, 0, TimeSpan.parse(idle), ByteSize.parse("0"), 0, TimeSpan.parse("1s"),
                tls, proxy), transport, pub, metrics);
        source.start();
    }

    private void start(boolean proxy) throws Exception {
        start(proxy, "0s", Framing.auto, null);
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(HostPort.parse(source.boundAddress()), 5000);
        s.setSoTimeout(10_000);
        return s;
    }

    /** One connection: writes each part (flushed on its own), then closes. */
    private void send(byte[]... parts) throws IOException {
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            for (byte[] p : parts) {
                out.write(p);
                out.flush();
            }
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Waits until {@code n} events are in the ring; returns each as "peer|message". */
    private List<String> events(int n) {
        assertThat(Conditions.await(() -> ring.isAvailable(n - 1), Duration.ofSeconds(10)))
                .as("%d events in the ring", n).isTrue();
        List<String> out = new ArrayList<>();
        for (long seq = 0; ring.isAvailable(seq); seq++) {
            LogEvent e = ring.get(seq);
            out.add(new String(e.peer(), 0, e.peerLength(), StandardCharsets.US_ASCII) + "|"
                    + new String(e.raw(), 0, e.rawLength(), StandardCharsets.UTF_8));
        }
        return out;
    }

    private boolean await(String metric, long value) {
        return Conditions.await(() -> metrics.value(metric) == value, Duration.ofSeconds(10));
    }

    private static boolean closedByServer(Socket s) {
        try {
            return s.getInputStream().read() == -1;
        } catch (SocketException reset) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A v2 header as HAProxy's send-proxy-v2 writes it, by Netty's encoder. */
    private static byte[] v2(HAProxyCommand command, HAProxyProxiedProtocol protocol, String src, String dst) {
        EmbeddedChannel ch = new EmbeddedChannel(HAProxyMessageEncoder.INSTANCE);
        int srcPort = src == null ? 0 : 40000;
        int dstPort = dst == null ? 0 : 514;
        ch.writeOutbound(new HAProxyMessage(HAProxyProtocolVersion.V2, command, protocol, src, dst, srcPort, dstPort));
        ByteBuf b = ch.readOutbound();
        byte[] bytes = new byte[b.readableBytes()];
        b.readBytes(bytes);
        b.release();
        ch.finishAndReleaseAll();
        return bytes;
    }

    @Test
    void v1HeaderNamesTheSenderOfEveryMessageAndIsNotAMessage() throws Exception {
        start(true);
        send(ascii("PROXY TCP4 203.0.113.7 10.0.0.1 5555 514\r\n" + LINE1 + LINE2));
        // the header split across writes: the signature check and the decoder take it in pieces
        send(ascii("PRO"), ascii("XY TCP4 198.51"), ascii(".100.9 10.0.0.1 5556 514\r"), ascii("\n" + LINE1));
        assertThat(events(3)).containsExactly(
                "203.0.113.7|" + LINE1.strip(), "203.0.113.7|" + LINE2.strip(), "198.51.100.9|" + LINE1.strip());
        assertThat(metrics.value("proxyErrors")).isZero();
        assertThat(metrics.value("ioErrors")).isZero();
    }

    @Test
    void v1Tcp6AddressIsWrittenAsForADirectConnection() throws Exception {
        start(true);
        send(ascii("PROXY TCP6 2001:db8::7 2001:db8::1 5555 514\r\n" + LINE1));
        assertThat(events(1)).containsExactly("2001:db8:0:0:0:0:0:7|" + LINE1.strip());
    }

    @Test
    void v2HeadersIpv4ByHandAndIpv6ByNettysEncoder() throws Exception {
        start(true);
        ByteArrayOutputStream v4 = new ByteArrayOutputStream();
        // signature, version 2 + PROXY, TCP over IPv4, 12 address bytes + a 7-byte TLV (type 0x04 NOOP, length 4)
        v4.write(new byte[]{0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A});
        v4.write(new byte[]{0x21, 0x11, 0x00, 12 + 7});
        v4.write(new byte[]{(byte) 203, 0, 113, 8, 10, 0, 0, 1, 0x15, (byte) 0xB3, 0x02, 0x02});
        v4.write(new byte[]{0x04, 0x00, 0x04, 'n', 'o', 'o', 'p'});
        v4.write(ascii(LINE1));
        send(v4.toByteArray());
        send(v2(HAProxyCommand.PROXY, HAProxyProxiedProtocol.TCP6, "2001:db8::8", "2001:db8::1"), ascii(LINE2));
        assertThat(events(2)).containsExactly("203.0.113.8|" + LINE1.strip(),
                "2001:db8:0:0:0:0:0:8|" + LINE2.strip());
        assertThat(metrics.value("proxyErrors")).isZero();
    }

    @Test
    void localAndUnknownKeepTheConnectionsOwnAddress() throws Exception {
        start(true);
        send(ascii("PROXY UNKNOWN\r\n" + LINE1));
        assertThat(events(1)).containsExactly("127.0.0.1|" + LINE1.strip());
        send(v2(HAProxyCommand.LOCAL, HAProxyProxiedProtocol.UNKNOWN, null, null), ascii(LINE2));
        assertThat(events(2)).containsExactly("127.0.0.1|" + LINE1.strip(), "127.0.0.1|" + LINE2.strip());
        assertThat(metrics.value("proxyErrors")).isZero();
    }

    @Test
    void headerInClearBeforeTheTlsHandshake() throws Exception {
        TlsConfig tls = new TlsConfig(pki.cert("server").toString(), pki.key("server").toString(), null, null, null,
                pki.caFile().toString(), TlsConfig.ClientAuthMode.required, List.of("TLSv1.3"), List.of(),
                TlsConfig.Provider.jdk, TimeSpan.parse("5s"), TimeSpan.parse("0s"));
        start(true, "0s", Framing.auto, tls);
        InetSocketAddress addr = HostPort.parse(source.boundAddress());
        try (Socket plain = connect()) {
            plain.getOutputStream().write(ascii("PROXY TCP4 203.0.113.9 10.0.0.1 5555 6514\r\n"));
            plain.getOutputStream().flush();
            try (SSLSocket s = (SSLSocket) pki.clientContext("web", "TLSv1.3").getSocketFactory()
                    .createSocket(plain, addr.getHostString(), addr.getPort(), true)) {
                s.startHandshake();
                byte[] m = ascii("<13>1 2026-11-22T10:00:00Z h app - - - over tls via the balancer");
                s.getOutputStream().write(ascii(m.length + " "));
                s.getOutputStream().write(m);
                s.getOutputStream().flush();
                assertThat(events(1)).containsExactly("203.0.113.9|" + new String(m, StandardCharsets.US_ASCII));
            }
        }
        LogEvent e = ring.get(0);
        FieldTable t = e.fields();
        int i = t.indexOf(ascii(".tls.x509_cn"));
        assertThat(i).as("the client certificate's fields next to the proxied address").isNotNegative();
        assertThat(new String(t.data(), t.valueOffset(i), t.valueLength(i), StandardCharsets.UTF_8))
                .isEqualTo("web-01");
        assertThat(metrics.value("tlsHandshakes")).isEqualTo(1);
        assertThat(metrics.value("proxyErrors")).isZero();
    }

    @Test
    void connectionsWithoutAValidHeaderAreClosedAndCounted() throws Exception {
        start(true);
        // a sender writing syslog straight to the port: refused at its first byte, not after 108
        try (Socket s = connect()) {
            s.getOutputStream().write(ascii(LINE1));
            assertThat(closedByServer(s)).isTrue();
        }
        assertThat(await("proxyErrors", 1)).isTrue();
        // the signature, then a header that does not parse
        try (Socket s = connect()) {
            s.getOutputStream().write(ascii("PROXY TCP4 not-an-address 10.0.0.1 5555 514\r\n" + LINE1));
            assertThat(closedByServer(s)).isTrue();
        }
        assertThat(await("proxyErrors", 2)).isTrue();
        // a v1 line longer than the 107 bytes the spec allows
        try (Socket s = connect()) {
            s.getOutputStream().write(ascii("PROXY TCP4 " + "1".repeat(200) + "\r\n"));
            assertThat(closedByServer(s)).isTrue();
        }
        assertThat(await("proxyErrors", 3)).isTrue();
        // a v2 header announcing more TLV bytes than allowed
        try (Socket s = connect()) {
            s.getOutputStream().write(new byte[]{0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54,
                    0x0A, 0x21, 0x11, (byte) 0xFF, (byte) 0xFF});
            s.getOutputStream().write(new byte[65535]);
            assertThat(closedByServer(s)).isTrue();
        } catch (SocketException resetWhileWriting) {
            // the server closed it before all was written: as refused as can be
        }
        assertThat(await("proxyErrors", 4)).isTrue();
        // half a header, then the sender goes away
        send(ascii("PROXY TCP4 203.0.113.7 "));
        assertThat(await("proxyErrors", 5)).isTrue();
        // connect and close without a byte (a load balancer's TCP check): not an error
        send();
        assertThat(await("acceptedConnections", 6)).isTrue();
        assertThat(await("connections", 0)).isTrue();
        assertThat(metrics.value("proxyErrors")).isEqualTo(5);
        assertThat(metrics.value("received")).isZero();
        assertThat(metrics.value("ioErrors")).isZero();
        String last = metrics.texts().stream().filter(x -> x.name().equals("proxyLastError")).findFirst()
                .orElseThrow().value().get();
        assertThat(last).startsWith("/127.0.0.1:").endsWith("closed before the PROXY protocol header was complete");
    }

    @Test
    void idleTimeoutClosesAConnectionWhoseHeaderNeverCompletes() throws Exception {
        start(true, "1s", Framing.auto, null);
        try (Socket s = connect()) {
            s.getOutputStream().write(ascii("PROXY TCP4 "));
            assertThat(closedByServer(s)).isTrue();
        }
        assertThat(await("idleClosed", 1)).isTrue();
        assertThat(await("proxyErrors", 1)).isTrue();
    }

    @Test
    void tlsHandshakeTimeoutClosesAConnectionWhoseHeaderNeverCompletes() throws Exception {
        TlsConfig tls = new TlsConfig(pki.cert("server").toString(), pki.key("server").toString(), null, null, null,
                null, TlsConfig.ClientAuthMode.none, List.of("TLSv1.3"), List.of(), TlsConfig.Provider.jdk,
                TimeSpan.parse("1s"), TimeSpan.parse("0s"));
        start(true, "0s", Framing.auto, tls);
        try (Socket s = connect()) {
            s.getOutputStream().write(ascii("PROXY TCP4 "));
            assertThat(closedByServer(s)).as("closed by handshake-timeout").isTrue();
        }
        assertThat(await("tlsHandshakeFailures", 1)).isTrue();
        assertThat(await("proxyErrors", 1)).isTrue();
    }

    @Test
    void relpSourceTakesTheHeaderToo() throws Exception {
        ring = RingBuffer.createMultiProducer(LogEvent.FACTORY, 1024);
        ring.addGatingSequences(new Sequence(-1));
        metrics = new MetricGroup("Source", "relp");
        RingPublisher pub = new RingPublisher(ring, 0, "relp", LogEvent.FORMAT_AUTO, 1L, metrics);
        RelpSource relp = new RelpSource(new RelpSourceConfig("relp", "127.0.0.1:0", SyslogFormat.auto,
                ByteSize.parse("64KiB"), 128, 10, TimeSpan.parse("1ms"), ByteSize.parse("0"), null, true),
                transport, pub, () -> -1L, metrics);
        relp.start();
        try {
            String offers = "relp_version=0\ncommands=syslog";
            String msg = "<13>Nov 22 10:00:00 app: over relp via the balancer";
            try (Socket s = new Socket()) {
                s.connect(HostPort.parse(relp.boundAddress()), 5000);
                s.getOutputStream().write(ascii("PROXY TCP4 203.0.113.5 10.0.0.1 5555 20514\r\n"
                        + "1 open " + offers.length() + " " + offers + "\n"
                        + "2 syslog " + msg.length() + " " + msg + "\n"));
                s.getOutputStream().flush();
                assertThat(events(1)).containsExactly("203.0.113.5|" + msg);
            }
            try (Socket s = new Socket()) {
                s.connect(HostPort.parse(relp.boundAddress()), 5000);
                s.setSoTimeout(10_000);
                s.getOutputStream().write(ascii("1 open " + offers.length() + " " + offers + "\n"));
                assertThat(closedByServer(s)).isTrue();
            }
            assertThat(await("proxyErrors", 1)).isTrue();
        } finally {
            relp.stopAccepting();
            relp.close();
        }
    }

    @Test
    void withoutTheOptionAProxyLineIsJustAMessage() throws Exception {
        start(false);
        send(ascii("PROXY TCP4 203.0.113.7 10.0.0.1 5555 514\r\n" + LINE1));
        assertThat(events(2)).containsExactly("127.0.0.1|PROXY TCP4 203.0.113.7 10.0.0.1 5555 514",
                "127.0.0.1|" + LINE1.strip());
        assertThat(metrics.metrics().stream().map(m -> m.name())).doesNotContain("proxyErrors");
    }
}
