package dev.logrouter.netty;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.source.SyslogFormat;
import dev.logrouter.core.testing.Conditions;
import dev.logrouter.netty.tcp.Framing;
import dev.logrouter.netty.tcp.TcpSource;
import dev.logrouter.netty.tcp.TcpSourceConfig;
import dev.logrouter.netty.udp.UdpSource;
import dev.logrouter.netty.udp.UdpSourceConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Netty sources on real loopback sockets, publishing into a real ring whose consumer is a sequence
 * the test holds still, so that the ring fills: UDP drops what does not fit and counts it; TCP refuses
 * connections beyond max-connections and counts them.
 */
class NettySourcesTest {

    private static NettyTransport transport;

    @BeforeAll
    static void startLoops() {
        transport = new NettyTransport(1);
    }

    @AfterAll
    static void stopLoops() {
        transport.close();
    }

    private static RingBuffer<LogEvent> stuckRing(int size) {
        RingBuffer<LogEvent> ring = RingBuffer.createMultiProducer(LogEvent.FACTORY, size);
        ring.addGatingSequences(new Sequence(-1)); // a consumer that never moves
        return ring;
    }


    private static boolean await(LongSupplier value, long expected) {
        return Conditions.await(() -> value.getAsLong() >= expected, Duration.ofSeconds(10));
    }

    @Test
    void udpDropsWhatTheFullRingCannotTakeAndCountsIt() throws Exception {
        RingBuffer<LogEvent> ring = stuckRing(64);
        MetricGroup m = new MetricGroup("Source", "udp");
        RingPublisher pub = new RingPublisher(ring, 0, "udp", LogEvent.FORMAT_AUTO, 1L, m);
        UdpSource udp = new UdpSource(new UdpSourceConfig("udp", "127.0.0.1:0", SyslogFormat.auto,
                ByteSize.parse("64KiB"), ByteSize.parse("4MiB")), transport, pub, m);
        udp.start();
        try (DatagramSocket s = new DatagramSocket()) {
            InetSocketAddress to = HostPort.parse(udp.boundAddress());
            for (int i = 0; i < 100; i++) {
                byte[] b = ("<13>Mar  1 10:00:00 h p: d" + i).getBytes(StandardCharsets.US_ASCII);
                s.send(new DatagramPacket(b, b.length, to));
            }
            // the ring takes 64; of the rest, what the kernel delivered is dropped by us and counted
            assertThat(await(() -> m.value("received"), 64)).isTrue();
            assertThat(await(() -> m.value("dropped"), 1)).isTrue();
        } finally {
            udp.stopAccepting();
            udp.close();
        }
        assertThat(m.value("received")).isEqualTo(64);
        assertThat(m.value("dropped")).isPositive();
        LogEvent first = ring.get(0);
        assertThat(new String(first.raw(), 0, first.rawLength(), StandardCharsets.US_ASCII))
                .isEqualTo("<13>Mar  1 10:00:00 h p: d0");
    }

    @Test
    void tcpRefusesConnectionsBeyondMaxConnections() throws Exception {
        RingBuffer<LogEvent> ring = stuckRing(1024);
        MetricGroup m = new MetricGroup("Source", "tcp");
        RingPublisher pub = new RingPublisher(ring, 0, "tcp", LogEvent.FORMAT_AUTO, 1L, m);
        TcpSource tcp = new TcpSource(new TcpSourceConfig("tcp", "127.0.0.1:0", Framing.auto, SyslogFormat.auto,
                ByteSize.parse("64KiB"), 1, 0, TimeSpan.parse("0s"), ByteSize.parse("0"), 0, TimeSpan.parse("1s"), null),
                transport, pub, m);
        tcp.start();
        try (Socket first = new Socket()) {
            first.connect(HostPort.parse(tcp.boundAddress()));
            first.getOutputStream().write("<13>Mar  1 10:00:00 h p: first\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(await(() -> m.value("received"), 1)).isTrue();
            try (Socket second = new Socket()) {
                second.connect(HostPort.parse(tcp.boundAddress()));
                second.setSoTimeout(10_000);
                InputStream in = second.getInputStream();
                assertThat(in.read()).as("the router closes the connection over the limit").isEqualTo(-1);
            }
            assertThat(m.value("rejectedConnections")).isEqualTo(1);
            assertThat(m.value("connections")).isEqualTo(1);
        } finally {
            tcp.stopAccepting();
            assertThat(tcp.awaitPublished(10, TimeUnit.SECONDS)).isTrue();
            tcp.close();
        }
        assertThat(m.value("acceptedConnections")).isEqualTo(1);
    }
}
