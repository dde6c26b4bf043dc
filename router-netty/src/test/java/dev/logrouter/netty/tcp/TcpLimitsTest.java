package dev.logrouter.netty.tcp;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.source.SyslogFormat;
import dev.logrouter.core.testing.Conditions;
import dev.logrouter.netty.HostPort;
import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.RingPublisher;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Connection limits of a TCP source on loopback: {@code max-connections-per-ip} refuses and counts connections
 * beyond the limit from one address and takes new ones once old ones close; {@code idle-timeout} closes and
 * counts a quiet connection but never one held back by flow control.
 */
class TcpLimitsTest {

    private static NettyTransport transport;
    private MetricGroup metrics;
    private TcpSource source;

    @BeforeAll
    static void startLoops() {
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
            source.close();
            source = null;
        }
    }

    private void start(int ringSize, int perIp, String idle) throws Exception {
        RingBuffer<LogEvent> ring = RingBuffer.createMultiProducer(LogEvent.FACTORY, ringSize);
        ring.addGatingSequences(new Sequence(-1)); // nothing consumes: a full ring pauses readers
        metrics = new MetricGroup("Source", "tcp");
        RingPublisher pub = new RingPublisher(ring, 0, "tcp", LogEvent.FORMAT_AUTO, 1L, metrics);
        source = new TcpSource(new TcpSourceConfig("tcp", "127.0.0.1:0", Framing.auto, SyslogFormat.auto,
                ByteSize.parse("64KiB"), 100, perIp, TimeSpan.parse(idle), ByteSize.parse("0"), 0, TimeSpan.parse("1s"),
                null), transport, pub, metrics);
        source.start();
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(HostPort.parse(source.boundAddress()), 5000);
        s.setSoTimeout(10_000);
        return s;
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

    private boolean await(String metric, long value) {
        return Conditions.await(() -> metrics.value(metric) == value, Duration.ofSeconds(10));
    }

    @Test
    void perIpLimitRefusesTheExtraConnectionAndTakesNewOnesLater() throws Exception {
        start(1024, 2, "0s");
        try (Socket a = connect(); Socket b = connect()) {
            assertThat(await("connections", 2)).isTrue();
            try (Socket c = connect()) {
                assertThat(closedByServer(c)).as("the third connection from 127.0.0.1").isTrue();
            }
            assertThat(metrics.value("rejectedPerIpConnections")).isEqualTo(1);
            a.close();
            assertThat(await("connections", 1)).isTrue();
            try (Socket d = connect()) {
                d.getOutputStream().write("<13>Nov 22 10:00:00 h app: after a slot freed\n"
                        .getBytes(StandardCharsets.US_ASCII));
                assertThat(await("received", 1)).isTrue();
            }
        }
        assertThat(metrics.value("rejectedPerIpConnections")).isEqualTo(1);
        assertThat(metrics.value("rejectedConnections")).isZero();
        assertThat(metrics.value("acceptedConnections")).isEqualTo(3);
    }

    @Test
    void idleTimeoutClosesQuietConnectionsButNotOnesHeldByFlowControl() throws Exception {
        start(64, 0, "1s");
        try (Socket held = connect()) {
            // more than the ring holds: the source stops reading this connection (flow control)
            OutputStream out = held.getOutputStream();
            byte[] line = "<13>Nov 22 10:00:00 h app: flow-controlled message\n".getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 200; i++) {
                out.write(line);
            }
            out.flush();
            assertThat(await("pausedConnections", 1)).isTrue();
            // connected once the held connection is paused: from then on its idle time does not count
            try (Socket quiet = connect()) {
                assertThat(closedByServer(quiet)).as("quiet for 1 s").isTrue();
            }
            assertThat(await("idleClosed", 1)).isTrue();
            try (Socket later = connect()) {
                assertThat(closedByServer(later)).isTrue();
            }
            assertThat(await("idleClosed", 2)).isTrue();
            // the held connection has now been quiet (it can send nothing more) for two idle timeouts, yet stays open
            assertThat(await("connections", 1)).isTrue();
            assertThat(metrics.value("pausedConnections")).isEqualTo(1);
        }
        assertThat(metrics.value("idleClosed")).isEqualTo(2);
    }

    @Test
    void limitsOutOfRangeAreConfigErrorsThatNameTheOption() {
        assertThatThrownBy(() -> limits(0, 0, 0)).hasMessage("max-connections must be >= 1, got 0");
        assertThatThrownBy(() -> limits(10, -1, 0)).hasMessage("max-connections-per-ip must be >= 0, got -1");
        assertThatThrownBy(() -> limits(10, 0, -1)).hasMessage("listen-backlog must be >= 0, got -1");
        assertThat(limits(10, 2, 64).listenBacklog()).isEqualTo(64);
    }

    private static TcpSourceConfig limits(int maxConnections, int perIp, int listenBacklog) {
        return new TcpSourceConfig("tcp", "127.0.0.1:0", Framing.auto, SyslogFormat.auto, ByteSize.parse("64KiB"),
                maxConnections, perIp, TimeSpan.parse("0s"), ByteSize.parse("0"), listenBacklog, TimeSpan.parse("1s"),
                null);
    }
}
