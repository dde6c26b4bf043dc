package dev.logrouter.server;

import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.testing.Ports;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The RELP source ({@code type: relp}) in a real router on loopback, driven by {@link RelpTestClient}, a client
 * written from the protocol: acknowledgements in order and only for what the sinks completed, a clean close, and
 * the broken peers the issue lists (garbage after open, a transaction number going backwards, a window overrun, a
 * client that never reads its acknowledgements, a connection cut inside a frame, an unknown command, an oversize
 * message). rsyslog's own omrelp is the peer in {@link RsyslogRelpTest}.
 *
 * <p>Threads: the JUnit thread, plus one writer thread in the test of the client that does not read.
 */
class RelpSourceTest {

    @TempDir
    Path dir;
    private final List<Router> routers = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (Router r : routers) {
            r.stop();
        }
    }

    /** A router: RELP source {@code in} (with these extra options) into a file sink, and maybe more sinks. */
    private Router router(String sourceOptions, String moreSinks, Path out) throws Exception {
        Router r = TestClient.startRouter("""
                sources:
                  - {name: in, type: relp, bind: "127.0.0.1:0"%s}
                pipeline: {ring-size: 1024, time-zone: UTC}
                routes:
                  - {name: all, to: [out%s]}
                sinks:
                  - {name: out, type: file, path: "%s", template: "${MSG}\\n"}
                %s
                """.formatted(sourceOptions, moreSinks.isEmpty() ? "" : ", held", out, moreSinks));
        routers.add(r);
        return r;
    }

    private static MetricGroup source(Router r) {
        return r.metrics().require("Source", "in");
    }

    private static String msg(int i) {
        return "<13>1 2026-11-26T10:00:00Z h app - - - m " + i;
    }

    @Test
    void everyMessageIsAcknowledgedInOrderAndWrittenOnce() throws Exception {
        Path out = dir.resolve("out.log");
        Router r = router("", "", out);
        int n = 10_000;
        int window = 128;
        try (RelpTestClient c = new RelpTestClient(r.boundAddress("in"))) {
            RelpTestClient.Frame open = c.open();
            assertThat(open.command()).isEqualTo("rsp");
            assertThat(open.data()).startsWith("200 OK\n").contains("relp_version=0").contains("commands=syslog");
            int sent = 0;
            int acked = 0;
            int expectTxnr = 2;
            while (acked < n) {
                while (sent < n && sent - acked < window) {
                    c.send("syslog", msg(sent++));
                }
                c.flush();
                RelpTestClient.Frame f = c.read();
                assertThat(f.command()).isEqualTo("rsp");
                assertThat(f.txnr()).as("acknowledged in order").isEqualTo(expectTxnr++);
                assertThat(f.data()).isEqualTo("200 OK");
                acked++;
            }
            int close = c.send("close", "");
            c.flush();
            RelpTestClient.Frame f = c.read();
            assertThat(f).isEqualTo(new RelpTestClient.Frame(close, "rsp", ""));
            assertThat(c.read()).isEqualTo(new RelpTestClient.Frame(0, "serverclose", ""));
            assertThat(c.read()).as("the server closes after answering close").isNull();
        }
        List<String> lines = TestClient.textLines(out);
        assertThat(lines).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(lines.get(i)).isEqualTo("m " + i);
        }
        MetricGroup g = source(r);
        assertThat(TestClient.await(() -> g.value("sessions") == 0, 10_000)).isTrue();
        assertThat(g.value("acked")).isEqualTo(n);
        assertThat(g.value("unackedInFlight")).isZero();
        assertThat(g.value("protocolErrors")).isZero();
    }

    @Test
    void aCleanStopAcknowledgesEverythingReadThenSendsServerclose() throws Exception {
        Path out = dir.resolve("out.log");
        Router r = router("", "", out);
        int n = 1000;
        try (RelpTestClient c = new RelpTestClient(r.boundAddress("in"))) {
            c.open();
            for (int i = 0; i < n; i++) {
                c.send("syslog", msg(i));
            }
            c.flush();
            MetricGroup g = source(r);
            assertThat(TestClient.await(() -> g.value("received") == n, 10_000)).isTrue();
            routers.remove(r);
            r.stop(); // what was read is acknowledged at the stop at the latest, then the session ends
            for (int i = 0; i < n; i++) {
                RelpTestClient.Frame f = c.read();
                assertThat(f.txnr()).isEqualTo(i + 2);
                assertThat(f.status()).isEqualTo(200);
            }
            assertThat(c.read()).isEqualTo(new RelpTestClient.Frame(0, "serverclose", ""));
            assertThat(c.read()).isNull();
        }
        assertThat(TestClient.textLines(out)).hasSize(n);
    }

    @Test
    void aMessageIsAcknowledgedOnlyOnceEverySinkThatTookItCompletedIt() throws Exception {
        int port = Ports.freeLoopbackPort();
        Path out = dir.resolve("out.log");
        Router r = router("", "  - {name: held, type: syslog, hosts: [\"127.0.0.1:" + port + "\"], "
                + "reconnect-delay-max: 200ms}", out);
        try (RelpTestClient c = new RelpTestClient(r.boundAddress("in"))) {
            c.open();
            for (int i = 0; i < 10; i++) {
                c.send("syslog", msg(i));
            }
            c.flush();
            // the file sink wrote all ten; the relay cannot (nothing listens on its port): none is acknowledged
            assertThat(TestClient.await(() -> TestClient.textLines(out).size() == 10, 10_000)).isTrue();
            MetricGroup g = source(r);
            assertThat(TestClient.await(() -> g.value("unackedInFlight") == 10, 10_000)).isTrue();
            assertThat(g.value("acked")).isZero();

            Path relayed = dir.resolve("relayed.log");
            Router receiver = TestClient.startRouter("""
                    sources: [{name: in, type: tcp, bind: "127.0.0.1:%d"}]
                    sinks: [{name: out, type: file, path: "%s", template: "${MSG}\\n"}]
                    """.formatted(port, relayed));
            routers.add(receiver);
            for (int i = 0; i < 10; i++) {
                RelpTestClient.Frame f = c.read();
                assertThat(f.txnr()).isEqualTo(i + 2);
                assertThat(f.status()).isEqualTo(200);
            }
            assertThat(TestClient.await(() -> TestClient.textLines(relayed).size() == 10, 10_000)).isTrue();
            assertThat(g.value("acked")).isEqualTo(10);
        }
    }

    @Test
    void garbageAfterOpenEndsTheSessionWithServerclose() throws Exception {
        Router r = router("", "", dir.resolve("out.log"));
        try (RelpTestClient c = new RelpTestClient(r.boundAddress("in"))) {
            c.open();
            c.raw("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            c.flush();
            assertServerclose(c);
        }
        assertThat(source(r).value("protocolErrors")).isEqualTo(1);
        assertStillServes(r);
    }

    @Test
    void aTransactionNumberGoingBackwardsEndsTheSession() throws Exception {
        Path out = dir.resolve("out.log");
        Router r = router("", "", out);
        try (RelpTestClient c = new RelpTestClient(r.boundAddress("in"))) {
            c.open();
            c.raw(RelpTestClient.frame(2, "syslog", msg(0)));
            c.raw(RelpTestClient.frame(3, "syslog", msg(1)));
            c.raw(RelpTestClient.frame(2, "syslog", msg(2)));
            c.flush();
            assertThat(c.read().txnr()).isEqualTo(2);
            assertThat(c.read().txnr()).isEqualTo(3);
            assertServerclose(c);
        }
        assertThat(TestClient.textLines(out)).containsExactly("m 0", "m 1");
        assertThat(source(r).value("protocolErrors")).isEqualTo(1);
    }

    @Test
    void syslogBeforeOpenAndAnOversizeMessageEndTheSession() throws Exception {
        Path out = dir.resolve("out.log");
        Router r = router(", max-message-size: 64B", "", out);
        try (RelpTestClient c = new RelpTestClient(r.boundAddress("in"))) {
            c.send("syslog", msg(0));
            c.flush();
            assertServerclose(c);
        }
        try (RelpTestClient c = new RelpTestClient(r.boundAddress("in"))) {
            c.open();
            c.send("syslog", msg(1) + " " + "x".repeat(64));
            c.flush();
            assertServerclose(c);
        }
        assertThat(source(r).value("protocolErrors")).isEqualTo(2);
        assertThat(TestClient.textLines(out)).isEmpty();
    }

    @Test
    void anUnknownCommandIsAnswered500AndTheSessionGoesOn() throws Exception {
        Path out = dir.resolve("out.log");
        Router r = router("", "", out);
        try (RelpTestClient c = new RelpTestClient(r.boundAddress("in"))) {
            c.open();
            int t = c.send("starttls", "");
            c.send("syslog", msg(7));
            c.flush();
            RelpTestClient.Frame f = c.read();
            assertThat(f.txnr()).isEqualTo(t);
            assertThat(f.status()).isEqualTo(500);
            assertThat(c.read().status()).isEqualTo(200);
        }
        assertThat(TestClient.textLines(out)).containsExactly("m 7");
    }

    @Test
    void aClientBeyondMaxWindowIsClosedAndKeepsWhatWasNotAcknowledged() throws Exception {
        int port = Ports.freeLoopbackPort(); // nothing listens: the relay holds every message unacknowledged
        Router r = router(", max-window: 4", "  - {name: held, type: syslog, hosts: [\"127.0.0.1:" + port + "\"]}",
                dir.resolve("out.log"));
        try (RelpTestClient c = new RelpTestClient(r.boundAddress("in"))) {
            c.open();
            for (int i = 0; i < 5; i++) {
                c.send("syslog", msg(i));
            }
            c.flush();
            assertServerclose(c);
        }
        MetricGroup g = source(r);
        assertThat(g.value("protocolErrors")).isEqualTo(1);
        assertThat(g.value("acked")).isZero();
        assertThat(TestClient.await(() -> g.value("unackedInFlight") == 0, 10_000)).as("the closed session's "
                + "messages are the client's again").isTrue();
        routers.add(TestClient.startRouter("""
                sources: [{name: in, type: tcp, bind: "127.0.0.1:%d"}]
                sinks: [{name: out, type: file, path: "%s"}]
                """.formatted(port, dir.resolve("relayed.log")))); // the held sink drains: a quick stop
    }

    @Test
    void aFullRingStopsTheSessionReadingAndEverythingIsAcknowledgedOnceItDrains() throws Exception {
        int port = Ports.freeLoopbackPort(); // nothing listens at first: the relay holds the ring (64 slots)
        Path out = dir.resolve("out.log");
        Router r = TestClient.startRouter("""
                sources:
                  - {name: in, type: relp, bind: "127.0.0.1:0", max-window: 2048}
                pipeline: {ring-size: 64}
                sinks:
                  - {name: out, type: file, path: "%s", template: "${MSG}\\n"}
                  - {name: held, type: syslog, hosts: ["127.0.0.1:%d"], reconnect-delay-max: 200ms}
                """.formatted(out, port));
        routers.add(r);
        int n = 3000;
        try (RelpTestClient c = new RelpTestClient(r.boundAddress("in"))) {
            c.open();
            for (int i = 0; i < n; i++) {
                c.send("syslog", msg(i));
            }
            c.flush();
            MetricGroup g = source(r);
            // the session stops reading at the full ring: it keeps at most one read's frames, far below max-window
            // (a session that went on reading would keep all 3,000 and end in a window overrun)
            assertThat(TestClient.await(() -> g.value("pauses") > 0, 10_000)).isTrue();
            assertThat(g.value("received")).isLessThan(n);
            routers.add(TestClient.startRouter("""
                    sources: [{name: in, type: tcp, bind: "127.0.0.1:%d"}]
                    sinks: [{name: out, type: file, path: "%s"}]
                    """.formatted(port, dir.resolve("relayed.log"))));
            for (int i = 0; i < n; i++) {
                RelpTestClient.Frame f = c.read();
                assertThat(f.txnr()).isEqualTo(i + 2);
                assertThat(f.status()).isEqualTo(200);
            }
            assertThat(g.value("protocolErrors")).isZero();
        }
        assertThat(TestClient.await(() -> TestClient.textLines(out).size() == n, 10_000)).isTrue();
    }

    @Test
    void aClientThatDoesNotReadItsAcknowledgementsFillsOnlyItsWindow() throws Exception {
        Path out = dir.resolve("out.log");
        Router r = router("", "", out);
        try (RelpTestClient c = new RelpTestClient(r.boundAddress("in"))) {
            c.open();
            for (int i = 0; i < 128; i++) { // librelp's window; the client waits for acknowledgements it never reads
                c.send("syslog", msg(i));
            }
            c.flush();
            MetricGroup g = source(r);
            assertThat(TestClient.await(() -> g.value("acked") == 128, 10_000)).isTrue();
            assertThat(g.value("unackedInFlight")).isZero();
            assertThat(g.value("sessions")).isEqualTo(1);
            for (int i = 0; i < 128; i++) {
                assertThat(c.read().txnr()).isEqualTo(i + 2);
            }
        }
    }

    @Test
    void aClientIgnoringItsWindowAndItsAcknowledgementsIsNoLongerRead() throws Exception {
        Path out = dir.resolve("out.log");
        Router r = router(", max-window: 1048576", "", out);
        int n = 200_000; // far more acknowledgements than the socket buffers hold (the client's is 4 KiB)
        try (RelpTestClient c = new RelpTestClient(r.boundAddress("in"), 4096)) {
            c.open();
            List<Throwable> failed = new ArrayList<>();
            Thread writer = new Thread(() -> {
                try {
                    for (int i = 0; i < n; i++) {
                        c.send("syslog", msg(i));
                    }
                    c.flush();
                } catch (IOException e) {
                    failed.add(e);
                }
            }, "relp-writer");
            writer.start();
            MetricGroup g = source(r);
            // the acknowledgements pile up unread: the session stops reading rather than buffer them without end
            assertThat(TestClient.await(() -> g.value("ackBackpressure") > 0, 60_000)).isTrue();
            assertThat(g.value("received")).isLessThan(n);
            int inOrder = 0;
            for (int i = 0; i < n; i++) {
                inOrder += c.read().txnr() == i + 2 ? 1 : 0;
            }
            assertThat(inOrder).isEqualTo(n);
            writer.join(60_000);
            assertThat(failed).isEmpty();
            assertThat(g.value("acked")).isEqualTo(n);
        }
        assertThat(TestClient.await(() -> TestClient.textLines(out).size() == n, 30_000)).isTrue();
    }

    @Test
    void aConnectionCutInsideAFrameLosesOnlyThatFrame() throws Exception {
        Path out = dir.resolve("out.log");
        Router r = router("", "", out);
        try (RelpTestClient c = new RelpTestClient(r.boundAddress("in"))) {
            c.open();
            c.send("syslog", msg(1));
            c.raw("3 syslog 100 <13>1 2026-11-26T10:00:00Z h app - - - cut".getBytes(StandardCharsets.US_ASCII));
            c.flush();
        } // closed with the second frame cut: its acknowledgement, if any, is not read (the client sends it again)
        MetricGroup g = source(r);
        assertThat(TestClient.await(() -> g.value("sessions") == 0, 10_000)).isTrue();
        assertThat(TestClient.await(() -> !TestClient.textLines(out).isEmpty(), 10_000)).isTrue();
        assertThat(TestClient.textLines(out)).containsExactly("m 1");
        assertThat(g.value("protocolErrors")).isZero();
        assertStillServes(r);
    }

    private static void assertServerclose(RelpTestClient c) throws IOException {
        RelpTestClient.Frame f = c.read();
        while (f != null && f.command().equals("rsp")) {
            f = c.read(); // acknowledgements written before the error
        }
        assertThat(f).isEqualTo(new RelpTestClient.Frame(0, "serverclose", ""));
        assertThat(c.read()).isNull();
    }

    private static void assertStillServes(Router r) throws IOException {
        try (RelpTestClient c = new RelpTestClient(r.boundAddress("in"))) {
            assertThat(c.open().status()).isEqualTo(200);
            c.send("syslog", msg(99));
            c.flush();
            assertThat(c.read().status()).isEqualTo(200);
        }
    }
}
