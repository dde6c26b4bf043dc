package dev.logrouter.server;

import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.testing.Ports;
import dev.logrouter.core.testing.TestPki;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The relay sink ({@code type: syslog}) between two real routers: a sending router (TCP source → syslog sink) and
 * receiving routers (logrouter's own TCP, TLS with mutual authentication, UDP and RELP (plain, and TLS with mutual
 * authentication) sources → a file sink that prints
 * every header field). Messages arrive once each, in order per sending connection, with the fields the sender sent;
 * failover to a second receiver and failback to the first; a receiver down at start; a slow receiver that holds the
 * sender back (flow control reaches the TCP senders); a TLS receiver with a certificate no CA signed (refused,
 * counted, retried, never plaintext).
 */
class RelayRouterTest {

    private static final String FIELDS = "${HOST}|${PROGRAM}|${PID}|${MSGID}|${SDATA}|${MSG}\\n";

    @TempDir
    static Path dir;
    private static TestPki pki;
    private final List<Router> routers = new ArrayList<>();

    @BeforeAll
    static void pki() throws Exception {
        pki = new TestPki(dir);
        pki.server("receiver", "localhost");
        pki.client("relay", "/O=Example/CN=relay-01");
        pki.rogue("rogue", "/CN=localhost");
    }

    @AfterEach
    void stopRouters() throws Exception {
        for (Router r : routers) {
            r.stop();
        }
        routers.clear();
    }

    private Router start(String yaml) throws Exception {
        Router r = TestClient.startRouter(yaml);
        routers.add(r);
        return r;
    }

    /** A receiving router: one source ({@code type: tcp}, tls or udp on {@code bind}) into {@code out}. */
    private Router receiver(String transport, String bind, Path out) throws Exception {
        String source = switch (transport) {
            case "udp" -> "{name: in, type: udp, bind: \"" + bind + "\"}";
            case "tls" -> "{name: in, type: tcp, bind: \"" + bind + "\", tls: {cert-file: \"" + pki.cert("receiver")
                    + "\", key-file: \"" + pki.key("receiver") + "\", ca-file: \"" + pki.caFile()
                    + "\", client-auth: required}}";
            case "relp" -> "{name: in, type: relp, bind: \"" + bind + "\"}";
            case "relp-tls" -> "{name: in, type: relp, bind: \"" + bind + "\", tls: {cert-file: \""
                    + pki.cert("receiver") + "\", key-file: \"" + pki.key("receiver") + "\", ca-file: \""
                    + pki.caFile() + "\", client-auth: required}}";
            case "rogue" -> "{name: in, type: tcp, bind: \"" + bind + "\", tls: {cert-file: \"" + pki.cert("rogue")
                    + "\", key-file: \"" + pki.key("rogue") + "\"}}";
            default -> "{name: in, type: tcp, bind: \"" + bind + "\"}";
        };
        return start("""
                sources:
                  - %s
                pipeline: {ring-size: 4096, parse-workers: 2, time-zone: UTC}
                routes:
                  - {name: all, to: [out]}
                sinks:
                  - {name: out, type: file, path: "%s", template: "%s"}
                """.formatted(source, out, FIELDS));
    }

    /** The sending router: a TCP source into one syslog sink with these options (a YAML flow map's inside). */
    private Router sender(String sinkOptions) throws Exception {
        return start("""
                sources:
                  - {name: in, type: tcp, bind: "127.0.0.1:0"}
                pipeline: {ring-size: 4096, parse-workers: 2, time-zone: UTC}
                routes:
                  - {name: all, to: [relay]}
                sinks:
                  - {name: relay, type: syslog, %s}
                """.formatted(sinkOptions));
    }

    private static MetricGroup relay(Router sender) {
        return sender.metrics().require("Sink", "relay");
    }

    private static String text(MetricGroup g, String name) {
        return g.texts().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow().value().get();
    }

    /** The RFC 5424 message number {@code i} of connection {@code c}: every header field, SD with dotted names. */
    private static String rfc5424(int c, int i) {
        String sd = switch (i % 4) {
            case 0 -> "-";
            case 1 -> "[exampleSDID@32473 iut=\"3\" eventSource=\"App\"]";
            case 2 -> "[origin x.y=\"1\"][a.b]";
            default -> "[meta esc=\"q\\\"b\\]s\\\\\"]";
        };
        String msgid = i % 3 == 0 ? "-" : "ID" + (i % 50);
        return "<" + (i % 192) + ">1 2026-11-26T10:00:00.123Z host-" + c + " app-" + c + " " + (1000 + i) + " " + msgid
                + " " + sd + " conn " + c + " seq " + i + " é";
    }

    /** What the receiver's template prints for {@link #rfc5424}. */
    private static String rfc5424Fields(int c, int i) {
        String sd = switch (i % 4) {
            case 0 -> "";
            case 1 -> "[exampleSDID@32473 iut=\"3\" eventSource=\"App\"]";
            case 2 -> "[origin x.y=\"1\"][a.b]";
            default -> "[meta esc=\"q\\\"b\\]s\\\\\"]";
        };
        String msgid = i % 3 == 0 ? "" : "ID" + (i % 50);
        return "host-" + c + "|app-" + c + "|" + (1000 + i) + "|" + msgid + "|" + sd + "|conn " + c + " seq " + i
                + " é";
    }

    private static String rfc3164(int c, int i) {
        return "<" + (i % 192) + ">Nov 26 10:00:0" + (i % 10) + " host-" + c + " app-" + c + "[" + (1000 + i)
                + "]: conn " + c + " seq " + i;
    }

    private static String rfc3164Fields(int c, int i) {
        return "host-" + c + "|app-" + c + "|" + (1000 + i) + "|||conn " + c + " seq " + i;
    }

    /** Sends {@code perConn} messages on each of {@code conns} connections at once, each framed by {@code frame}. */
    private static void send(String address, int conns, int perConn, IntFunction<IntFunction<String>> message,
                             boolean octet) throws Exception {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        for (int c = 0; c < conns; c++) {
            IntFunction<String> m = message.apply(c);
            Thread t = new Thread(() -> {
                try (Socket s = new Socket()) {
                    s.connect(dev.logrouter.netty.HostPort.parse(address), 5000);
                    OutputStream out = new java.io.BufferedOutputStream(s.getOutputStream(), 64 * 1024);
                    for (int i = 0; i < perConn; i++) {
                        out.write(octet ? TestClient.octet(m.apply(i))
                                : (m.apply(i) + "\n").getBytes(StandardCharsets.UTF_8));
                    }
                    out.flush();
                } catch (Throwable e) {
                    synchronized (errors) {
                        errors.add(e);
                    }
                }
            }, "client-" + c);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join(120_000);
        }
        assertThat(errors).isEmpty();
    }

    private static List<String> utf8Lines(Path file) {
        List<String> out = new ArrayList<>();
        for (byte[] l : TestClient.lines(file)) {
            out.add(new String(l, StandardCharsets.UTF_8));
        }
        return out;
    }

    /** Every line is expected once, and per connection in sending order. */
    private static void assertOncePerConnectionInOrder(List<String> got, int conns, int perConn,
                                                       IntFunction<IntFunction<String>> expected) {
        assertThat(got).hasSize(conns * perConn);
        Map<String, int[]> position = new HashMap<>();
        for (int c = 0; c < conns; c++) {
            IntFunction<String> e = expected.apply(c);
            for (int i = 0; i < perConn; i++) {
                position.put(e.apply(i), new int[] {c, i});
            }
        }
        int[] nextPerConn = new int[conns];
        for (String line : got) {
            int[] p = position.get(line);
            assertThat(p).as("an expected line: %s", line).isNotNull();
            assertThat(p[1]).as("connection %d in order: %s", p[0], line).isEqualTo(nextPerConn[p[0]]);
            nextPerConn[p[0]]++;
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({"tcp, rfc5424, -", "tcp, raw, -", "tcp, rfc3164, -", "tls, rfc5424, openssl", "tls, raw, jdk",
            "relp, rfc5424, -", "relp-tls, rfc5424, openssl"})
    void hundredThousandMessagesOverTenConnectionsArriveOnceInOrderWithTheirFields(String transport, String format,
                                                                                  String provider) throws Exception {
        Path out = dir.resolve("received-" + transport + "-" + format + "-" + provider + ".log");
        Router receiver = receiver(transport, "127.0.0.1:0", out);
        boolean tlsOn = transport.equals("tls") || transport.equals("relp-tls");
        String tls = tlsOn ? ", tls: {ca-file: \"" + pki.caFile() + "\", cert-file: \""
                + pki.cert("relay") + "\", key-file: \"" + pki.key("relay") + "\", provider: " + provider + "}" : "";
        // by name: the TLS server certificate names localhost, and verify-hostname is on
        Router sender = sender("hosts: [\"localhost:" + port(receiver.boundAddress("in")) + "\"], transport: "
                + (transport.startsWith("relp") ? "relp" : transport) + ", format: " + format + tls);
        int conns = 10;
        int perConn = 10_000;
        boolean legacy = format.equals("rfc3164");
        send(sender.boundAddress("in"), conns, perConn, c -> i -> legacy ? rfc3164(c, i) : rfc5424(c, i), !legacy);
        assertThat(TestClient.await(() -> TestClient.lines(out).size() >= conns * perConn, 120_000))
                .as(() -> "received " + TestClient.lines(out).size() + "; relay " + text(relay(sender), "hosts"))
                .isTrue();
        assertOncePerConnectionInOrder(utf8Lines(out), conns, perConn,
                c -> i -> legacy ? rfc3164Fields(c, i) : rfc5424Fields(c, i));
        MetricGroup g = relay(sender);
        assertThat(g.value("written")).isEqualTo(conns * perConn);
        assertThat(g.value("resent")).isZero();
        assertThat(g.value("connects")).isEqualTo(1);
        assertThat(text(g, "activeHost")).isEqualTo("localhost:" + port(receiver.boundAddress("in")));
        if (tlsOn) {
            assertThat(receiver.metrics().require("Source", "in").value("tlsHandshakes")).isEqualTo(1);
            assertThat(text(g, "transport")).startsWith(transport.equals("tls") ? "tls " + provider : "relp");
        }
        if (transport.startsWith("relp")) { // every message acknowledged by the receiving router's RELP source
            assertThat(TestClient.await(() -> receiver.metrics().require("Source", "in").value("acked")
                    == conns * perConn, 10_000)).isTrue();
        }
    }

    @Test
    void aTemplateReplacesTheBodyAndTheHeaderStays() throws Exception {
        Path out5424 = dir.resolve("template-5424.log");
        Path out3164 = dir.resolve("template-3164.log");
        Router r5424 = receiver("tcp", "127.0.0.1:0", out5424);
        Router r3164 = receiver("tcp", "127.0.0.1:0", out3164);
        Router sender = start("""
                sources:
                  - {name: in, type: tcp, bind: "127.0.0.1:0"}
                pipeline: {time-zone: UTC}
                sinks:
                  - {name: a, type: syslog, hosts: ["%s"], format: rfc5424, template: "${MSG} via ${HOST}"}
                  - {name: b, type: syslog, hosts: ["%s"], format: rfc3164, template: "${MSG} via ${HOST}"}
                """.formatted(r5424.boundAddress("in"), r3164.boundAddress("in")));
        TestClient.sendTcp(sender.boundAddress("in"), TestClient.octet(rfc5424(7, 2)));
        assertThat(TestClient.await(() -> TestClient.lines(out5424).size() == 1
                && TestClient.lines(out3164).size() == 1, 20_000)).isTrue();
        assertThat(utf8Lines(out5424)).containsExactly(rfc5424Fields(7, 2) + " via host-7");
        // RFC 3164 carries no MSGID or structured data
        assertThat(utf8Lines(out3164)).containsExactly("host-7|app-7|1002|||conn 7 seq 2 é via host-7");
    }

    @Test
    void udpSendsOneDatagramPerMessageAndCutsLongOnes() throws Exception {
        Path out = dir.resolve("received-udp.log");
        Router receiver = receiver("udp", "127.0.0.1:" + Ports.freeLoopbackPort(), out);
        Router sender = sender("hosts: [\"" + receiver.boundAddress("in") + "\"], transport: udp, "
                + "max-datagram-size: 300, batch-size: 20");
        String address = sender.boundAddress("in");
        int n = 2_000;
        try (Socket s = new Socket()) { // paced: UDP has no flow control, and loopback drops a flood
            s.connect(dev.logrouter.netty.HostPort.parse(address), 5000);
            OutputStream o = s.getOutputStream();
            for (int i = 0; i < n; i++) {
                o.write(TestClient.octet(rfc5424(0, i)));
                if (i % 100 == 99) { // at most 200 datagrams in flight: wait until the receiver caught up
                    o.flush();
                    int sent = i + 1;
                    assertThat(TestClient.await(() -> TestClient.lines(out).size() >= sent - 200, 30_000)).isTrue();
                }
            }
            o.write(TestClient.octet("<13>1 2026-11-26T10:00:00Z host-long app - - - " + "x".repeat(1000)));
            o.flush();
        }
        assertThat(TestClient.await(() -> TestClient.lines(out).size() >= n + 1, 60_000))
                .as(() -> "received " + TestClient.lines(out).size()).isTrue();
        List<String> got = utf8Lines(out);
        String longOne = got.remove(got.size() - 1);
        assertOncePerConnectionInOrder(got, 1, n, c -> i -> rfc5424Fields(0, i));
        // the datagram is cut at 300 bytes: the header (about 50 bytes) and the start of MSG
        assertThat(longOne).startsWith("host-long|app|||").matches("host-long\\|app\\|\\|\\|\\|x{200,260}");
        assertThat(relay(sender).value("truncated")).isEqualTo(1);
    }

    @Test
    void failsOverWhenThePrimaryStopsAndFailsBackWhenItReturns() throws Exception {
        int primaryPort = Ports.freeLoopbackPort();
        Path a1 = dir.resolve("primary-1.log");
        Path b = dir.resolve("secondary.log");
        Path a2 = dir.resolve("primary-2.log");
        Router primary = receiver("tcp", "127.0.0.1:" + primaryPort, a1);
        Router secondary = receiver("tcp", "127.0.0.1:0", b);
        Router sender = sender("hosts: [\"127.0.0.1:" + primaryPort + "\", \"" + secondary.boundAddress("in")
                + "\"], failback-after: 500ms, reconnect-delay: 50ms, reconnect-delay-max: 200ms");
        MetricGroup g = relay(sender);
        String in = sender.boundAddress("in");
        int phase = 3_000;
        send(in, 1, phase, c -> i -> rfc5424(1, i), true);
        assertThat(TestClient.await(() -> TestClient.lines(a1).size() >= phase, 30_000)).isTrue();
        assertThat(text(g, "activeHost")).isEqualTo("127.0.0.1:" + primaryPort);

        // the primary stops (it reads what was sent and closes its connections); the next batches go to the secondary
        assertThat(primary.stop()).isTrue();
        routers.remove(primary);
        send(in, 1, phase, c -> i -> rfc5424(2, i), true);
        assertThat(TestClient.await(() -> TestClient.lines(b).size() >= phase, 30_000))
                .as(() -> "secondary got " + TestClient.lines(b).size() + "; " + text(g, "hosts")).isTrue();
        assertThat(text(g, "activeHost")).isEqualTo(secondary.boundAddress("in"));
        assertThat(g.value("failovers")).isEqualTo(1);
        assertThat(g.value("connectFailures")).as("the primary refused").isPositive();

        // the primary returns on its port: within failback-after the sink moves back to it
        receiver("tcp", "127.0.0.1:" + primaryPort, a2);
        assertThat(TestClient.await(() -> g.value("failbacks") == 1, 30_000)).as(() -> text(g, "hosts")).isTrue();
        send(in, 1, phase, c -> i -> rfc5424(3, i), true);
        assertThat(TestClient.await(() -> TestClient.lines(a2).size() >= phase, 30_000)).isTrue();

        Set<String> all = new HashSet<>();
        int total = 0;
        for (Path p : List.of(a1, b, a2)) {
            List<String> lines = utf8Lines(p);
            total += lines.size();
            all.addAll(lines);
        }
        for (int c = 1; c <= 3; c++) {
            for (int i = 0; i < phase; i++) {
                assertThat(all).contains(rfc5424Fields(c, i));
            }
        }
        assertThat(total - 3 * phase).as("duplicates").isLessThanOrEqualTo((int) g.value("resent"));
        assertThat(utf8Lines(a2)).as("after failback, all on the primary").hasSize(phase);
    }

    /**
     * A primary that accepts the connection and never reads: its socket buffers fill, a batch write stays pending;
     * after write-timeout the connection is closed (writeFailures) and that batch, and all after it, go to the
     * secondary: it gets a gapless, in-order tail up to the last message. The batches written before (into the
     * stalled peer's kernel buffers) are lost: plain TCP's limit, which only RELP closes.
     */
    @Test
    void aReceiverThatStopsReadingIsLeftAfterTheWriteTimeout() throws Exception {
        try (java.net.ServerSocket stalled = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            stalled.setReceiveBufferSize(64 * 1024);
            List<Socket> accepted = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(stalled.accept()); // kept open, never read
                    }
                } catch (java.io.IOException closed) {
                    // the test ended
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            Path b = dir.resolve("after-stall.log");
            Router secondary = receiver("tcp", "127.0.0.1:0", b);
            Router sender = sender("hosts: [\"127.0.0.1:" + stalled.getLocalPort() + "\", \""
                    + secondary.boundAddress("in") + "\"], write-timeout: 500ms, failback-after: 1h, "
                    + "reconnect-delay: 30s");
            MetricGroup g = relay(sender);
            int n = 100_000; // about 17 MB: more than the stalled connection's socket buffers hold
            send(sender.boundAddress("in"), 1, n, c -> i -> rfc5424(1, i), true);
            String last = rfc5424Fields(1, n - 1);
            assertThat(TestClient.await(() -> utf8Lines(b).contains(last), 60_000))
                    .as(() -> "secondary got " + TestClient.lines(b).size() + "; " + text(g, "hosts")).isTrue();
            assertThat(g.value("writeFailures")).isPositive();
            assertThat(g.value("failovers")).isEqualTo(1);
            assertThat(text(g, "hosts")).contains("write-timeout");
            List<String> got = utf8Lines(b);
            int first = n - got.size();
            assertThat(first).as("the stalled peer took some batches").isPositive();
            for (int i = 0; i < got.size(); i++) {
                assertThat(got.get(i)).isEqualTo(rfc5424Fields(1, first + i));
            }
            for (Socket s : accepted) {
                s.close();
            }
        }
    }

    @Test
    void aReceiverDownAtStartGetsEverythingOnceItListens() throws Exception {
        int port = Ports.freeLoopbackPort();
        Router sender = sender("hosts: [\"127.0.0.1:" + port + "\"], reconnect-delay: 50ms, reconnect-delay-max: "
                + "200ms");
        MetricGroup g = relay(sender);
        send(sender.boundAddress("in"), 2, 500, c -> i -> rfc5424(c, i), true);
        assertThat(TestClient.await(() -> g.value("connectFailures") >= 3, 30_000)).isTrue();
        assertThat(text(g, "activeHost")).isEmpty();
        assertThat(text(g, "hosts")).contains("127.0.0.1:" + port + " down: connect failed");

        Path out = dir.resolve("late.log");
        receiver("tcp", "127.0.0.1:" + port, out);
        assertThat(TestClient.await(() -> TestClient.lines(out).size() >= 1_000, 30_000)).isTrue();
        assertOncePerConnectionInOrder(utf8Lines(out), 2, 500, c -> i -> rfc5424Fields(c, i));
        assertThat(g.value("written")).isEqualTo(1_000);
    }

    @Test
    void aSlowReceiverHoldsTheSendersBackAndLosesNothing() throws Exception {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress("127.0.0.1", 0));
            java.util.concurrent.CountDownLatch reading = new java.util.concurrent.CountDownLatch(1);
            AtomicLong lines = new AtomicLong();
            Thread reader = new Thread(() -> {
                try (Socket s = server.accept(); InputStream in = s.getInputStream()) {
                    byte[] buf = new byte[8192];
                    reading.await();
                    while (true) {
                        int n = in.read(buf);
                        if (n < 0) {
                            return;
                        }
                        for (int i = 0; i < n; i++) {
                            if (buf[i] == '\n') {
                                lines.incrementAndGet();
                            }
                        }
                    }
                } catch (Exception ignored) {
                    // the test ends
                }
            }, "slow-receiver");
            reader.setDaemon(true);
            reader.start();
            Router sender = sender("hosts: [\"127.0.0.1:" + server.getLocalPort() + "\"], format: rfc3164, "
                    + "template: \"${MSG}\"");
            int n = 200_000;
            AtomicLong sent = new AtomicLong();
            Thread client = new Thread(() -> {
                try (Socket s = new Socket()) {
                    s.connect(dev.logrouter.netty.HostPort.parse(sender.boundAddress("in")), 5000);
                    OutputStream o = new java.io.BufferedOutputStream(s.getOutputStream(), 8192);
                    for (int i = 0; i < n; i++) {
                        o.write(("<13>Nov 26 10:00:00 h p: m" + i + " " + "y".repeat(200) + "\n")
                                .getBytes(StandardCharsets.US_ASCII));
                        sent.incrementAndGet();
                    }
                    o.flush();
                } catch (IOException ignored) {
                    // reported by the count
                }
            }, "client");
            client.setDaemon(true);
            client.start();
            // the receiver reads nothing: socket buffers and the ring fill, then the source stops reading
            MetricGroup source = sender.metrics().require("Source", "in");
            assertThat(TestClient.await(() -> source.value("pauses") > 0, 30_000)).isTrue();
            Thread.sleep(500);
            long stuck = sent.get();
            Thread.sleep(500);
            assertThat(sent.get()).as("the client is held back").isEqualTo(stuck).isLessThan(n);
            assertThat(relay(sender).value("written")).isLessThan(n);

            reading.countDown();
            client.join(60_000);
            assertThat(sent.get()).isEqualTo(n);
            assertThat(TestClient.await(() -> lines.get() >= n, 60_000)).isTrue();
            assertThat(lines.get()).isEqualTo(n);
        }
    }

    @Test
    void aTlsReceiverWithACertificateNoCaSignedIsRefusedAndNeverGetsPlaintext() throws Exception {
        Path out = dir.resolve("rogue.log");
        Router rogue = receiver("rogue", "127.0.0.1:0", out);
        Path dead = dir.resolve("relay-dead.jsonl");
        Router sender = sender("hosts: [\"localhost:" + port(rogue.boundAddress("in")) + "\"], transport: tls, "
                + "tls: {ca-file: \"" + pki.caFile() + "\"}, reconnect-delay: 20ms, reconnect-delay-max: 50ms, "
                + "max-retries: 3, dead-letter: \"" + dead + "\"");
        MetricGroup g = relay(sender);
        TestClient.sendTcp(sender.boundAddress("in"), TestClient.octet("<13>1 2026-11-26T10:00:00Z h app - - - secret"));
        assertThat(TestClient.await(() -> g.value("givenUp") == 1, 30_000)).as(() -> text(g, "hosts")).isTrue();
        assertThat(g.value("connectFailures")).as("tried, and retried").isGreaterThanOrEqualTo(2);
        assertThat(g.value("connects")).isZero();
        assertThat(text(g, "hosts")).contains("connect failed").containsPattern("(?i)certif|pkix");
        assertThat(Files.readString(dead)).contains("secret");
        assertThat(rogue.metrics().require("Source", "in").value("received")).isZero();
        assertThat(TestClient.lines(out)).isEmpty();
    }

    @Test
    void roundRobinSpreadsBatchesOverAllHosts() throws Exception {
        Path a = dir.resolve("rr-a.log");
        Path b = dir.resolve("rr-b.log");
        Router ra = receiver("tcp", "127.0.0.1:0", a);
        Router rb = receiver("tcp", "127.0.0.1:0", b);
        Router sender = sender("hosts: [\"" + ra.boundAddress("in") + "\", \"" + rb.boundAddress("in") + "\"], "
                + "mode: round-robin, batch-size: 100");
        int n = 10_000;
        send(sender.boundAddress("in"), 1, n, c -> i -> rfc5424(0, i), true);
        assertThat(TestClient.await(() -> TestClient.lines(a).size() + TestClient.lines(b).size() >= n, 30_000))
                .isTrue();
        List<String> got = new ArrayList<>(utf8Lines(a));
        got.addAll(utf8Lines(b));
        assertThat(new HashSet<>(got)).hasSize(n);
        assertThat(got).hasSize(n);
        assertThat(utf8Lines(a)).as("host a").hasSizeGreaterThan(n / 10);
        assertThat(utf8Lines(b)).as("host b").hasSizeGreaterThan(n / 10);
        assertThat(relay(sender).value("connects")).isEqualTo(2);
        assertThat(text(relay(sender), "activeHost")).contains(ra.boundAddress("in")).contains(rb.boundAddress("in"));
    }

    /**
     * A receiver that resets its first three connections after reading a little keeps the sink reconnecting, not
     * failing; once it reads normally, what follows arrives. Bytes its kernel had accepted on a reset connection are
     * lost (plain TCP cannot know), so only the recovery is asserted.
     */
    @Test
    void aReceiverThatResetsConnectionsIsReconnectedTo() throws Exception {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress("127.0.0.1", 0));
            List<String> tail = java.util.Collections.synchronizedList(new ArrayList<>());
            Thread receiver = new Thread(() -> {
                try {
                    for (int conn = 0; ; conn++) {
                        Socket s = server.accept();
                        InputStream in = s.getInputStream();
                        byte[] buf = new byte[4096];
                        if (conn < 3) {
                            in.read(buf);
                            s.setSoLinger(true, 0);
                            s.close(); // a reset
                            continue;
                        }
                        StringBuilder line = new StringBuilder();
                        for (int n; (n = in.read(buf)) > 0; ) {
                            for (int i = 0; i < n; i++) {
                                if (buf[i] == '\n') {
                                    tail.add(line.toString());
                                    line.setLength(0);
                                } else {
                                    line.append((char) buf[i]);
                                }
                            }
                        }
                        s.close();
                    }
                } catch (IOException ignored) {
                    // the server socket closed: the test ended
                }
            }, "resetting-receiver");
            receiver.setDaemon(true);
            receiver.start();
            Router sender = sender("hosts: [\"127.0.0.1:" + server.getLocalPort() + "\"], format: rfc3164, "
                    + "template: \"${MSG}\", batch-size: 50, reconnect-delay: 20ms, reconnect-delay-max: 100ms");
            MetricGroup g = relay(sender);
            String in = sender.boundAddress("in");
            for (int round = 0; round < 20 && g.value("connects") < 4; round++) {
                long connects = g.value("connects");
                TestClient.sendTcp(in, ("<13>Nov 26 10:00:00 h p: round " + round + "\n").repeat(200));
                TestClient.await(() -> g.value("connects") > connects, 5_000); // the reset made it reconnect
            }
            assertThat(TestClient.await(() -> g.value("connects") >= 4, 30_000)).as(() -> text(g, "hosts")).isTrue();
            TestClient.sendTcp(in, "<13>Nov 26 10:00:00 h p: after the resets\n");
            assertThat(TestClient.await(() -> List.copyOf(tail).contains("<13>Nov 26 10:00:00 h p: after the "
                    + "resets"), 30_000))
                    .as(() -> text(g, "hosts")).isTrue();
            assertThat(sender.metrics().require("Sink", "relay").textValue("state")).as("running").isEqualTo("RUNNING");
        }
    }

    @Test
    void checkConfigLoadsTheSinksTlsFiles() throws Exception {
        Path cfg = dir.resolve("relay-bad-tls.yaml");
        Files.writeString(cfg, """
                sources:
                  - {name: in, type: tcp, bind: "127.0.0.1:0"}
                sinks:
                  - {name: relay, type: syslog, hosts: ["localhost:6514"], transport: tls, tls: {ca-file: "%s"}}
                """.formatted(dir.resolve("no-such-ca.pem")));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = Main.run(new String[] {"check-config", "--config", cfg.toString()},
                new java.io.PrintStream(out, true), new java.io.PrintStream(err, true));
        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("sink relay: tls: ca-file")
                .contains("no-such-ca.pem is not a readable file");

        Files.writeString(cfg, """
                sources:
                  - {name: in, type: tcp, bind: "127.0.0.1:0"}
                sinks:
                  - {name: relay, type: syslog, hosts: ["localhost:6514"], transport: tcp, framing: lf, tls: {}}
                """);
        err.reset();
        assertThat(Main.run(new String[] {"check-config", "--config", cfg.toString()},
                new java.io.PrintStream(out, true), new java.io.PrintStream(err, true))).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("tls: is given but transport is tcp");
    }

    private static int port(String address) {
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }
}
