package dev.logrouter.server;

import dev.logrouter.core.testing.Ports;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The RELP source against its real peer: rsyslog 8.2302 with {@code omrelp} (librelp 1.11, window 128) sends
 * 100,000 messages to a router in a child JVM, which writes each message's MSG as a line of a file sink. rsyslog
 * takes the messages over {@code imtcp} from the test and keeps them in its action queue
 * ({@code action.resumeRetryCount="-1"}, {@code action.resumeInterval="1"}); omrelp keeps every message until the
 * router acknowledged it, and the router acknowledges only what the file sink wrote.
 *
 * <p>The other way round, the syslog sink with {@code transport: relp} delivers to rsyslog's {@code imrelp}.
 *
 * <p>The kill test kills the router with {@code kill -9} ({@code Process.destroyForcibly}) twice while rsyslog
 * sends, and starts it again each time: every message ends in the file at least once, and the duplicates are at
 * most omrelp's window per kill (what was written and not yet acknowledged when the router died).
 *
 * <p>rsyslog runs privately, in the foreground, from the Debian packages unpacked under {@code /opt/peers/rsyslog-root}
 * (override: environment {@code RSYSLOG_ROOT}); {@code .ci/run} unpacks them there. Skipped without them.
 */
class RsyslogRelpTest {

    private static final Path ROOT = Path.of(System.getenv().getOrDefault("RSYSLOG_ROOT", "/opt/peers/rsyslog-root"));
    private static final Path LIBS = ROOT.resolve("usr/lib/x86_64-linux-gnu");
    private static final Path MODULES = LIBS.resolve("rsyslog");
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final int N = 100_000;
    /** omrelp's window (librelp's default, windowSize="128" below). */
    private static final int WINDOW = 128;
    private static final Pattern LINE = Pattern.compile("^ ?m (\\d+)$");

    @TempDir
    Path dir;
    private final List<Process> processes = new ArrayList<>();

    @BeforeAll
    static void rsyslogPresent() {
        Assumptions.assumeTrue(Files.isExecutable(ROOT.resolve("usr/sbin/rsyslogd"))
                && Files.exists(MODULES.resolve("omrelp.so")), "rsyslog with omrelp unpacked under " + ROOT);
    }

    @AfterEach
    void stop() throws Exception {
        for (Process p : processes) {
            p.destroy();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void everyMessageRsyslogSendsOverRelpArrivesOnce() throws Exception {
        int relpPort = Ports.freeLoopbackPort();
        Path out = dir.resolve("out.log");
        Path log = dir.resolve("router.log");
        router(relpPort, out, log);
        assertThat(TestClient.await(() -> TestClient.listening(log) != null, 60_000)).as("router started").isTrue();
        int tcpPort = rsyslog(relpPort);
        send(tcpPort);
        assertThat(TestClient.await(() -> TestClient.textLines(out).size() >= N, 120_000))
                .as(() -> "lines " + TestClient.textLines(out).size()).isTrue();
        Counts c = counts(out);
        assertThat(c.missing).as("missing").isEmpty();
        assertThat(c.duplicates).as("duplicates").isZero();
        assertThat(c.other).as("other lines").isEmpty();
    }

    @Test
    void killMinusNineTwiceMidStreamLosesNothingAndRepeatsAtMostTheWindowPerKill() throws Exception {
        int relpPort = Ports.freeLoopbackPort();
        Path out = dir.resolve("out.log");
        int kills = 0;
        Process router = router(relpPort, out, dir.resolve("router-0.log"));
        assertThat(TestClient.await(() -> TestClient.listening(dir.resolve("router-0.log")) != null, 60_000)).isTrue();
        int tcpPort = rsyslog(relpPort);
        send(tcpPort);
        for (int at : new int[] {N * 3 / 10, N * 6 / 10}) {
            assertThat(TestClient.await(() -> TestClient.textLines(out).size() >= at, 120_000))
                    .as("delivery reaches %d", at).isTrue();
            router.destroyForcibly();
            assertThat(router.waitFor(30, TimeUnit.SECONDS)).isTrue();
            processes.remove(router);
            kills++;
            Path log = dir.resolve("router-" + kills + ".log");
            router = router(relpPort, out, log);
            assertThat(TestClient.await(() -> TestClient.listening(log) != null, 60_000)).isTrue();
        }
        assertThat(TestClient.await(() -> counts(out).missing.isEmpty(), 180_000))
                .as(() -> "missing " + counts(out).missing.size()).isTrue();
        Counts c = counts(out);
        System.out.printf("RsyslogRelpTest: %d kills, %d duplicates, %d cut lines, %d lines%n", kills, c.duplicates,
                c.other.size(), TestClient.textLines(out).size());
        assertThat(c.duplicates).as("duplicates after %d kills", kills).isLessThanOrEqualTo(kills * WINDOW);
        // a kill between two writes of one batch may leave a line cut short, joined to the next one written
        assertThat(c.other).as("cut lines").hasSizeLessThanOrEqualTo(kills);
    }

    @Test
    void theSyslogSinkOverRelpDeliversToRsyslogsImrelpOnce() throws Exception {
        int relpPort = Ports.freeLoopbackPort();
        Path work = Files.createDirectories(dir.resolve("imrelp"));
        Path received = work.resolve("received.log");
        Path conf = work.resolve("rsyslog.conf");
        Files.writeString(conf, """
                global(workDirectory="%s" maxMessageSize="64k")
                module(load="imrelp")
                template(name="msgonly" type="string" string="%%msg%%\\n")
                input(type="imrelp" port="%d" address="127.0.0.1")
                action(type="omfile" file="%s" template="msgonly")
                """.formatted(work, relpPort, received));
        start(conf, work);
        assertThat(TestClient.await(() -> listens(relpPort), 30_000)).as("rsyslog listens").isTrue();
        Router router = TestClient.startRouter("""
                sources:
                  - {name: in, type: tcp, bind: "127.0.0.1:0"}
                sinks:
                  - {name: relay, type: syslog, hosts: ["127.0.0.1:%d"], transport: relp, format: rfc5424}
                """.formatted(relpPort));
        try {
            int n = 10_000;
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < n; i++) {
                sb.append("<13>Nov 26 10:00:00 h app: m ").append(i).append('\n');
            }
            TestClient.sendTcp(router.boundAddress("in"), sb.toString());
            assertThat(TestClient.await(() -> TestClient.textLines(received).size() >= n, 60_000))
                    .as(() -> "received " + TestClient.textLines(received).size()).isTrue();
            assertThat(TestClient.await(() -> router.metrics().require("Sink", "relay").value("written") == n,
                    10_000)).isTrue();
        } finally {
            router.stop();
        }
        Counts c = counts(received, 10_000);
        assertThat(c.missing).isEmpty();
        assertThat(c.duplicates).isZero();
        assertThat(c.other).isEmpty();
    }

    /** A router in a child JVM: a RELP source on {@code port} into a file sink. */
    private Process router(int port, Path out, Path log) throws IOException {
        Path cfg = dir.resolve("router.yaml");
        Files.writeString(cfg, """
                sources:
                  - {name: in, type: relp, bind: "127.0.0.1:%d"}
                pipeline: {ring-size: 4096}
                sinks:
                  - {name: out, type: file, path: "%s", template: "${MSG}\\n"}
                """.formatted(port, out));
        Process p = new ProcessBuilder(JAVA, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "run", "--config", cfg.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.add(p);
        return p;
    }

    /** Starts rsyslog: imtcp on a free port (returned) into an omrelp action to {@code relpPort}. */
    private int rsyslog(int relpPort) throws Exception {
        int tcpPort = Ports.freeLoopbackPort();
        Path work = Files.createDirectories(dir.resolve("rsyslog"));
        Path conf = work.resolve("rsyslog.conf");
        Files.writeString(conf, """
                global(workDirectory="%s" maxMessageSize="64k")
                module(load="imtcp")
                module(load="omrelp")
                input(type="imtcp" port="%d" address="127.0.0.1")
                action(type="omrelp" target="127.0.0.1" port="%d" template="RSYSLOG_SyslogRFC5424Format"
                       windowSize="%d" timeout="30" conn.timeout="5"
                       queue.type="LinkedList" queue.size="400000" queue.dequeueBatchSize="128"
                       action.resumeRetryCount="-1" action.resumeInterval="1")
                """.formatted(work, tcpPort, relpPort, WINDOW));
        start(conf, work);
        assertThat(TestClient.await(() -> listens(tcpPort), 30_000)).as("rsyslog listens").isTrue();
        return tcpPort;
    }

    /** Starts rsyslogd in the foreground with {@code conf}, its pid file and output in {@code work}. */
    private void start(Path conf, Path work) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(ROOT.resolve("usr/sbin/rsyslogd").toString(), "-n", "-f",
                conf.toString(), "-i", work.resolve("rsyslogd.pid").toString(), "-M", MODULES.toString())
                .redirectErrorStream(true).redirectOutput(work.resolve("rsyslogd.out").toFile());
        pb.environment().put("LD_LIBRARY_PATH", LIBS.toString());
        processes.add(pb.start());
    }

    private static boolean listens(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Sends the N messages to rsyslog's imtcp, LF-framed, over one connection. */
    private static void send(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            OutputStream o = new java.io.BufferedOutputStream(s.getOutputStream(), 64 * 1024);
            for (int i = 0; i < N; i++) {
                o.write(("<13>Nov 26 10:00:00 h app: m " + i + "\n").getBytes(StandardCharsets.US_ASCII));
            }
            o.flush();
        }
    }

    private record Counts(List<Integer> missing, int duplicates, List<String> other) {
    }

    private static Counts counts(Path out) {
        return counts(out, N);
    }

    private static Counts counts(Path out, int n) {
        Map<Integer, Integer> seen = new HashMap<>();
        List<String> other = new ArrayList<>();
        for (String line : TestClient.textLines(out)) {
            Matcher m = LINE.matcher(line);
            if (m.matches()) {
                seen.merge(Integer.parseInt(m.group(1)), 1, Integer::sum);
            } else {
                other.add(line);
            }
        }
        List<Integer> missing = new ArrayList<>();
        int dups = 0;
        for (int i = 0; i < n; i++) {
            int k = seen.getOrDefault(i, 0);
            if (k == 0) {
                missing.add(i);
            }
            dups += Math.max(0, k - 1);
        }
        return new Counts(missing, dups, other);
    }
}
