package dev.logrouter.server;

import dev.logrouter.core.testing.Ports;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stop an operator does every day — a burst, then {@code systemctl stop} — against a router in a child JVM whose
 * only sink is a syslog forward to a receiver slower than the senders, with the default memory buffer: SIGTERM lands
 * as soon as the senders returned (their data then sits in socket buffers, the ring and the sink's batch, and flow
 * control holds every connection back), and every message must reach the receiver, exit 0. A receiver that never
 * reads, with a short {@code stop-timeout}: the router gives up, exits 1, and its counters and last line say what it
 * abandoned; the same when no host of the sink is live at all (both refuse connections). With {@code buffer: journal}
 * and the receiver down: the stop journals everything at disk speed and the next start delivers it.
 */
class StopTest {

    private static final int CONNECTIONS = 10;
    private static final int PER_CONNECTION = 5_000;

    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    @Test
    void sigtermRightAfterABurstDeliversEverythingThroughASlowSink() throws Exception {
        // the receiver reads nothing for 3 s (a destination starting up), then 400 KB/s: slower than the senders
        SlowReceiver receiver = new SlowReceiver(3_000, 400_000);
        RouterProcess router = start("slow", """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0"}
                sinks:
                  - {name: central, type: syslog, hosts: ["127.0.0.1:%d"], format: raw, framing: lf}
                """.formatted(receiver.port()));
        Burst.send(router.address(), CONNECTIONS, PER_CONNECTION);
        router.sigterm();
        assertThat(router.exitStatus(120)).as(router::log).isZero();
        assertThat(router.lastLine()).contains("stopped cleanly");
        assertThat(router.finalStat("Source", "net", "received")).isEqualTo((long) CONNECTIONS * PER_CONNECTION);
        assertThat(router.finalStat("Source", "net", "pauses")).as("flow control held the senders").isPositive();
        assertThat(router.finalStat("Source", "net", "abandonedConnections")).isZero();
        // the sink closed its connection once written: the receiver reads to its end
        Set<String> got = Burst.ids(List.of(receiver.awaitEnd(120_000)), true);
        assertThat(got).hasSize(CONNECTIONS * PER_CONNECTION);
    }

    @Test
    void aDestinationThatNeverRecoversEndsAtStopTimeoutWithTheLossCountedAndExitOne() throws Exception {
        SlowReceiver receiver = new SlowReceiver(Long.MAX_VALUE, 1); // accepts, never reads
        RouterProcess router = start("stuck", """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0"}
                pipeline: {stop-timeout: 3s}
                sinks:
                  - {name: central, type: syslog, hosts: ["127.0.0.1:%d"], format: raw, framing: lf}
                """.formatted(receiver.port()));
        Burst.send(router.address(), CONNECTIONS, PER_CONNECTION);
        Abandoned a = sigtermAbandoning(router);
        long frames = router.finalStat("Source", "net", "abandoned");
        long connections = router.finalStat("Source", "net", "abandonedConnections");
        long bytes = router.finalStat("Source", "net", "abandonedBytes");
        // what it could not read is counted by connection, frame and byte
        assertThat(a.received()).isLessThan((long) CONNECTIONS * PER_CONNECTION);
        assertThat(connections).isPositive();
        assertThat(frames + bytes).isPositive();
        assertThat(a.last()).contains("source net: " + connections + " connections");
    }

    /**
     * Two hosts, both refusing connections (free loopback ports nobody listens on), failover, the default memory
     * buffer: the sink never writes a byte, it retries its first batch ("no live host") while the ring fills. A
     * SIGTERM right after the burst must still end at {@code stop-timeout}, exit 1, with everything the router read
     * counted: none written, the sink's batch lost, the rest abandoned in the ring. (The sink thread sleeps up to 5 s
     * between retries: the stop must wake it, else it outlives the stop's wait and its batch shows up nowhere but in
     * the ring's count.)
     */
    @Test
    void aSinkWithNoLiveHostAtAllEndsAtStopTimeoutWithTheLossCountedAndExitOne() throws Exception {
        int first = Ports.freeLoopbackPort();
        int second = Ports.freeLoopbackPort();
        RouterProcess router = start("dead", """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0"}
                pipeline: {stop-timeout: 3s}
                sinks:
                  - {name: central, type: syslog, hosts: ["127.0.0.1:%d", "127.0.0.1:%d"], mode: failover,
                     format: raw, framing: lf}
                """.formatted(first, second));
        Burst.send(router.address(), CONNECTIONS, PER_CONNECTION);
        Abandoned a = sigtermAbandoning(router);
        assertThat(a.written()).as(router::log).isZero();
        // the batch it was retrying: the stop woke the sink from its backoff, so the batch is counted in the sink
        assertThat(a.lost()).as(router::log).isPositive();

        assertThat(router.finalStat("Sink", "central", "connects")).isZero();
        assertThat(router.finalStat("Sink", "central", "connectFailures")).isPositive();
        // the sink was retrying its batch because neither host was live
        assertThat(router.log()).containsPattern("sink central: FLUSH: java\\.io\\.IOException: no live host: .*"
                + "127\\.0\\.0\\.1:" + first + ".*127\\.0\\.0\\.1:" + second + ".*; retrying in \\d+ ms");
    }

    @Test
    void withAJournalTheStopKeepsEverythingForTheNextStart() throws Exception {
        int port = Ports.freeLoopbackPort(); // nothing listens there during the first run
        String yaml = """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0"}
                pipeline: {ring-size: 1024}
                sinks:
                  - {name: central, type: syslog, hosts: ["127.0.0.1:%d"], format: raw, framing: lf,
                     buffer: journal, reconnect-delay: 50ms, reconnect-delay-max: 200ms,
                     journal: {dir: "%s", sync: interval, free-disk-reserve: 0}}
                """.formatted(port, dir.resolve("journal"));
        RouterProcess first = start("journal-1", yaml);
        // connections still in the accept queue at the SIGTERM: one burst into a router whose event loop is busy
        Burst.send(first.address(), CONNECTIONS * 3, PER_CONNECTION / 3);
        first.sigterm();
        assertThat(first.exitStatus(120)).as(first::log).isZero();
        assertThat(first.lastLine()).contains("stopped cleanly");
        assertThat(first.finalStat("Source", "net", "received")).isEqualTo(CONNECTIONS * 3L * (PER_CONNECTION / 3));

        SlowReceiver receiver = new SlowReceiver(port, 0, Integer.MAX_VALUE);
        RouterProcess second = start("journal-2", yaml);
        long want = CONNECTIONS * 3L * (PER_CONNECTION / 3);
        assertThat(TestClient.await(() -> Burst.ids(List.of(receiver.text()), false).size() >= want, 120_000))
                .as(second::log).isTrue();
        assertThat(Burst.ids(List.of(receiver.text()), true)).hasSize((int) want);
        second.sigterm();
        assertThat(second.exitStatus(120)).isZero();
    }

    /**
     * A sender that connected before the stop and writes its first bytes 700 ms into it (its thread was slow to be
     * scheduled, as under load): its connection was closed as quiet after 300 ms with the bytes then arriving unread,
     * which the kernel dropped with a reset nobody counted. A connection that has not read a byte is given 2 s.
     */
    @Test
    void aSenderThatConnectedBeforeTheStopAndWritesLateIsReadToTheEnd() throws Exception {
        Path out = dir.resolve("late-messages.out");
        RouterProcess router = start("late", """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0"}
                sinks:
                  - {name: files, type: file, path: "%s", template: "${MSG}\\n"}
                """.formatted(out));
        try (Socket s = new Socket()) {
            s.connect(dev.logrouter.netty.HostPort.parse(router.address()));
            // the router has this connection open before the stop begins (else the listener's own wait covers it)
            assertThat(TestClient.await(() -> router.stat("/Source/net/connections") == 1, 30_000)).isTrue();
            router.sigterm();
            java.util.concurrent.locks.LockSupport.parkNanos(700_000_000L); // the slow sender, not a wait for state
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < 1_000; i++) {
                b.append("<13>Mar  1 10:00:00 h app: late ").append(i).append('\n');
            }
            s.getOutputStream().write(b.toString().getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
        }
        assertThat(router.exitStatus(60)).as(router::log).isZero();
        assertThat(router.lastLine()).contains("stopped cleanly");
        assertThat(TestClient.textLines(out)).hasSize(1_000).endsWith("late 999");
    }

    /** What a stop that gave up counted: the last log line and the final stats of source net, sink central, ring. */
    private record Abandoned(String last, long received, long written, long lost, long ring) {
    }

    /**
     * SIGTERM to a router with {@code stop-timeout: 3s} whose sink {@code central} cannot deliver: it exits 1, its last
     * line says what it abandoned (the sink's lost events by number), and every message it read is written or counted
     * lost in the sink or abandoned in the ring, some of them lost.
     */
    private static Abandoned sigtermAbandoning(RouterProcess router) throws InterruptedException {
        router.sigterm();
        assertThat(router.exitStatus(60)).as(router::log).isEqualTo(1);
        String last = router.lastLine();
        assertThat(last).contains("stopped, abandoning ").contains("(stop-timeout 3s; exit 1)")
                .doesNotContain("cleanly");
        long received = router.finalStat("Source", "net", "received");
        long written = router.finalStat("Sink", "central", "written");
        long lost = router.finalStat("Sink", "central", "lost");
        long ring = router.finalStat("Ring", "main", "abandoned");
        // every message the router read is written, or counted lost in the sink or the ring
        assertThat(written + lost + ring).as(router::log).isEqualTo(received);
        assertThat(lost + ring).isPositive();
        assertThat(last).as(router::log).contains("sink central: " + lost + " events");
        return new Abandoned(last, received, written, lost, ring);
    }

    private RouterProcess start(String name, String yaml) throws IOException {
        RouterProcess r = RouterProcess.start(dir, name, yaml);
        open.add(r);
        return r;
    }

    /**
     * A syslog receiver slower than the senders: each connection waits {@code delayMillis} before it reads, then
     * reads at most {@code bytesPerSecond}, with a small receive buffer so that the sender feels it.
     */
    private final class SlowReceiver implements AutoCloseable {
        private final ServerSocket server;
        private final ByteArrayOutputStream received = new ByteArrayOutputStream();
        private volatile boolean ended;

        SlowReceiver(long delayMillis, int bytesPerSecond) throws IOException {
            this(0, delayMillis, bytesPerSecond);
        }

        SlowReceiver(int port, long delayMillis, int bytesPerSecond) throws IOException {
            server = new ServerSocket();
            server.setReceiveBufferSize(8192);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            open.add(this);
            Thread t = new Thread(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket s = server.accept();
                        Thread r = new Thread(() -> read(s, delayMillis, bytesPerSecond), "receiver-conn");
                        r.setDaemon(true);
                        r.start();
                    } catch (IOException e) {
                        return;
                    }
                }
            }, "receiver");
            t.setDaemon(true);
            t.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void read(Socket s, long delayMillis, int bytesPerSecond) {
            try (s; InputStream in = s.getInputStream()) {
                Thread.sleep(delayMillis);
                byte[] buf = new byte[4096];
                for (int n; (n = in.read(buf)) > 0; ) {
                    synchronized (received) {
                        received.write(buf, 0, n);
                    }
                    Thread.sleep(n * 1000L / bytesPerSecond);
                }
                ended = true;
            } catch (IOException | InterruptedException e) {
                // the router reset the connection, or the test ended
            }
        }

        String text() {
            synchronized (received) {
                return received.toString(StandardCharsets.US_ASCII);
            }
        }

        /** Waits until a connection was read to its end (the sink closed it), then returns all that was read. */
        String awaitEnd(long millis) {
            assertThat(TestClient.await(() -> ended, millis)).as("the sink's connection ended").isTrue();
            return text();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
