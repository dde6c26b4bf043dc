package dev.logrouter.server;

import dev.logrouter.core.testing.Ports;
import dev.logrouter.core.testing.TestPki;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The relay sink ({@code type: syslog}) checked against a real receiver: syslog-ng 3.38 parses every original
 * message sent to it directly, then the same message as a router forwarded it ({@code format: rfc3164} with LF
 * framing to a {@code network()} source, {@code format: rfc5424} octet-counted to a {@code syslog()} source), and
 * both parses must be identical, field by field: {@code ISODATE|PRI|HOST|PROGRAM|PID|MSGID|SDATA|MSG}.
 *
 * <p>What is compared, and why it is everything the formats carry:
 * <ul>
 *   <li>Every field is compared for both formats. The RFC 3164 originals carry no MSGID or structured data, so
 *       those columns are empty on both sides there (an rfc3164 sink could not carry them).</li>
 *   <li>{@code ISODATE} is printed with {@code frac-digits(6)}, so fractions of a second are compared too: the sink
 *       writes an RFC 5424 timestamp with the fraction it came with ({@code .123456}, {@code .003}, {@code .1}), in
 *       its own offset, and syslog-ng must read the relayed stamp to the microsecond it read the original. An RFC
 *       3164 stamp has no fraction (on both paths {@code .000000}).</li>
 *   <li>RFC 3164 stamps have neither year nor zone: syslog-ng reads both the original and the relayed stamp in
 *       {@code recv-time-zone("+00:00")} and guesses the same year for both; the router reads the original in
 *       {@code time-zone: UTC}, so the relayed wall-clock time is the original's.</li>
 *   <li>syslog-ng runs with {@code keep-hostname(yes)} (a relay must not have its own address stand in for the
 *       original host) and {@code use-dns(no)}; a 3164 original without a hostname gets the sender's address,
 *       127.0.0.1, on both paths.</li>
 *   <li>No original has a nil timestamp (it would be the receive time, different on each path) or a line break in
 *       MSG (it would split the output line).</li>
 * </ul>
 *
 * <p>An SD-ID repeated in one message ({@code [meta a="1"][x@1 b="2"][meta c="3"]}, invalid under RFC 5424 but seen
 * in the wild) is relayed as it came, and syslog-ng keeps its elements apart on both paths.
 *
 * <p>Dotted SD parameter names are left out of the comparison: syslog-ng 3.38 keeps SD as name-value pairs
 * {@code .SDATA.ID.NAME} and, writing them back, takes the last dot as the end of the SD-ID, so
 * {@code [origin x.y="1"]} comes out as {@code [origin.x y="1"]} even when sent to it directly
 * ({@link #syslogNgResplitsDottedSdNames}).
 *
 * <p>A chain of two routers keeps all of it: the first relays over TCP, TLS (mutual authentication), RELP or RELP
 * over TLS to the second, which relays to syslog-ng's {@code syslog()} source, and syslog-ng's parse of what the
 * second sent equals its parse of the originals ({@link #aChainOfTwoRoutersKeepsStampsToTheMicrosecondAndSdAsSent}).
 *
 * <p>One syslog-ng in the foreground for the class, on free loopback ports, all its files in the temporary
 * directory; skipped when {@code /usr/sbin/syslog-ng} is absent ({@code .ci/run} installs Debian's
 * {@code syslog-ng-core}).
 */
class SyslogNgRelayTest {

    private static final Path SYSLOG_NG = Path.of("/usr/sbin/syslog-ng");
    private static final long WAIT_MS = 10_000;

    /** RFC 3164 originals, LF-framed to syslog-ng's network() source. */
    private static final List<String> BSD = List.of(
            "<13>Nov 26 10:00:00 host1 app[123]: hello world",
            "<14>Nov 26 10:00:01 host1 app: no pid",
            "<165>Nov  6 10:00:02 my-host.example.com su: a day of one digit",
            "<0>Nov 26 10:00:03 h kernel: [1.2] kern.emerg, PRI 0",
            "<191>Nov 26 10:00:04 h prog[9]: ",
            "<134>Nov 26 10:00:05 h prog[9]: ünïcödé ✓ 日本語",
            "<13>Nov 26 10:00:06 h just a message without a colon after the tag",
            "<86>Nov 26 10:00:07 10.0.0.7 sshd[4711]: an IPv4 address as the host",
            "<13>Nov 26 10:00:08 UPPER_case-host_1 cron[1]: odd hostname characters",
            "<13>Nov 26 10:00:09 app[1]: no hostname: HOST is the sender's address",
            "<13>Nov 26 10:00:10 h prog: [origin x=\"1\"] structured data is plain text in RFC 3164",
            "<22>Nov 26 10:00:11 mail postfix/smtpd[2345]: a slash in the program name",
            "<13>Nov 26 10:00:12 h app:no space after the colon",
            "<13>Nov 26 10:00:13 h prog[abc]: a PID that is not a number");

    /** RFC 5424 originals, octet-counted to syslog-ng's syslog() source. */
    private static final List<String> IETF = List.of(
            "<165>1 2026-11-22T10:00:00.123456+02:00 mymachine.example.com evntslog 1234 ID47 [exampleSDID@32473 "
                    + "iut=\"3\" eventSource=\"Application\" eventID=\"1011\"][examplePriority@32473 class=\"high\"] "
                    + "An application event",
            "<13>1 2026-11-22T10:00:00Z h app - - - no structured data",
            "<13>1 2026-11-22T10:00:01Z h app - - [a@1 v=\"q\\\"uote\" w=\"br\\]acket\" x=\"back\\\\slash\"] escapes",
            "<13>1 2026-11-22T10:00:02Z h app - - -",
            "<13>1 2026-11-22T10:00:03Z h app - - [a@1 v=\"1\"]",
            "<13>1 2026-11-22T10:00:04Z h - - - - no app-name",
            "<13>1 2026-11-22T10:00:05Z h app - - [origin ip=\"192.0.2.1\" software=\"x\"][meta sequenceId=\"5\"] "
                    + "IANA SD-IDs",
            "<13>1 2026-11-22T10:00:06Z h app - - - \uFEFFBOM then ünïcödé ✓",
            "<86>1 2026-11-22T10:00:07-05:00 host-with.dots.and-dash sshd 4711 AUTH-FAIL - failed password",
            "<191>1 2026-11-22T10:00:08Z 2001:db8::1 app - - - an IPv6 address as the host",
            "<0>1 2026-11-22T10:00:09Z h app - ID0 [x@1 a=\"1\" b=\"2\"][y@2 c=\"\"][z@3 d=\"4\"] three elements, "
                    + "an empty value",
            "<13>1 2026-11-22T10:00:10Z h app - - - [not sd] MSG that begins with a bracket",
            "<22>1 2026-11-22T10:00:12Z mail postfix/smtpd 2345 - - a slash in the app-name",
            "<13>1 2026-11-22T10:00:11Z h app 12 - [a@1 v=\"multi word value with = and \\] inside\"] x",
            "<13>1 2026-11-22T10:00:13.003Z h app - - - three fraction digits",
            "<13>1 2026-11-22T10:00:14.1-05:00 h app - - - one fraction digit, a negative offset",
            "<13>1 2026-11-22T10:00:15.000100+05:30 h app - - - six digits, leading zeros",
            "<13>1 2026-11-22T10:00:16.25Z h app - - [meta a=\"1\"][x@1 b=\"2\"][meta c=\"3\"] a repeated SD-ID");

    @TempDir
    static Path dir;
    private static Process syslogNg;
    private static int bsdPort;
    private static int ietfPort;
    private static Path bsdOut;
    private static Path ietfOut;
    private static Path log;
    private static TestPki pki;
    private static final Thread killOnExit = new Thread(() -> syslogNg.destroyForcibly(), "kill-syslog-ng");

    @BeforeAll
    static void startSyslogNg() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(SYSLOG_NG), "syslog-ng not installed: .ci/run installs syslog-ng-core");
        bsdPort = Ports.freeLoopbackPort();
        ietfPort = Ports.freeLoopbackPort();
        bsdOut = dir.resolve("bsd.out");
        ietfOut = dir.resolve("ietf.out");
        log = dir.resolve("syslog-ng.log");
        String template = "template(\"${ISODATE}|${PRI}|${HOST}|${PROGRAM}|${PID}|${MSGID}|${SDATA}|${MSG}\\n\")";
        Path conf = dir.resolve("syslog-ng.conf");
        Files.writeString(conf, """
                @version: 3.38
                options { keep-hostname(yes); use-dns(no); chain-hostnames(no); recv-time-zone("+00:00");
                          frac-digits(6); stats-freq(0); };
                source s_bsd { network(transport(tcp) ip(127.0.0.1) port(%d)); };
                source s_ietf { syslog(transport(tcp) ip(127.0.0.1) port(%d)); };
                destination d_bsd { file("%s" %s); };
                destination d_ietf { file("%s" %s); };
                log { source(s_bsd); destination(d_bsd); };
                log { source(s_ietf); destination(d_ietf); };
                """.formatted(bsdPort, ietfPort, bsdOut, template, ietfOut, template));
        syslogNg = new ProcessBuilder(SYSLOG_NG.toString(), "-F", "-e", "--no-caps", "-f", conf.toString(),
                "--persist-file", dir.resolve("syslog-ng.persist").toString(),
                "--pidfile", dir.resolve("syslog-ng.pid").toString(),
                "--control", dir.resolve("syslog-ng.ctl").toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Runtime.getRuntime().addShutdownHook(killOnExit); // should the JVM end without running @AfterAll
        Path pkiDir = Files.createDirectory(dir.resolve("pki")); // while syslog-ng starts
        pki = new TestPki(pkiDir);
        pki.server("receiver", "localhost");
        pki.client("relay", "/O=Example/CN=relay-01");
        assertThat(TestClient.await(() -> !syslogNg.isAlive() || (listening(bsdPort) && listening(ietfPort)), WAIT_MS)
                && syslogNg.isAlive()).as(() -> "syslog-ng listens: " + diagnostics()).isTrue();
    }

    @AfterAll
    static void stopSyslogNg() throws Exception {
        if (syslogNg != null) {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
            syslogNg.destroy();
            if (!syslogNg.waitFor(10, TimeUnit.SECONDS)) {
                syslogNg.destroyForcibly();
                syslogNg.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Whether a listener accepts connections; the probe connection closes at once, sending nothing. */
    private static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String diagnostics() {
        try {
            return "syslog-ng " + (syslogNg.isAlive() ? "running" : "exited " + syslogNg.exitValue()) + ", its output:\n"
                    + (Files.exists(log) ? Files.readString(log) : "");
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** Writes {@code bytes} on one connection to {@code hostPort}, then waits for {@code n} more output lines. */
    private static List<String> sendAndCollect(String hostPort, byte[] bytes, Path out, int n) throws IOException {
        int before = lines(out).size();
        TestClient.sendTcp(hostPort, bytes);
        assertThat(TestClient.await(() -> lines(out).size() >= before + n, WAIT_MS))
                .as(() -> n + " lines more in " + out.getFileName() + ", have " + lines(out).subList(before,
                        lines(out).size()) + "; " + diagnostics()).isTrue();
        List<String> all = lines(out);
        assertThat(all).as("no extra lines").hasSize(before + n);
        return all.subList(before, all.size());
    }

    private static List<String> lines(Path file) {
        return TestClient.lines(file).stream().map(l -> new String(l, StandardCharsets.UTF_8)).toList();
    }

    private static byte[] lf(List<String> messages) {
        return String.join("", messages.stream().map(m -> m + "\n").toList()).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] octetCounted(List<String> messages) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (String m : messages) {
            b.writeBytes(TestClient.octet(m));
        }
        return b.toByteArray();
    }

    @Test
    void syslogNgParsesRelayedMessagesAsItParsesTheOriginals() throws Exception {
        String bsdDirect = "127.0.0.1:" + bsdPort;
        String ietfDirect = "127.0.0.1:" + ietfPort;
        List<String> bsdReference = sendAndCollect(bsdDirect, lf(BSD), bsdOut, BSD.size());
        List<String> ietfReference = sendAndCollect(ietfDirect, octetCounted(IETF), ietfOut, IETF.size());

        Router router = TestClient.startRouter("""
                sources:
                  - {name: bsd, type: tcp, bind: "127.0.0.1:0", framing: lf, format: rfc3164}
                  - {name: ietf, type: tcp, bind: "127.0.0.1:0", framing: octet-counted, format: rfc5424}
                pipeline: {ring-size: 1024, time-zone: UTC}
                routes:
                  - {name: bsd, from: [bsd], to: [bsd]}
                  - {name: ietf, from: [ietf], to: [ietf]}
                sinks:
                  - {name: bsd, type: syslog, hosts: ["%s"], format: rfc3164}
                  - {name: ietf, type: syslog, hosts: ["%s"], format: rfc5424}
                """.formatted(bsdDirect, ietfDirect));
        List<String> bsdRelayed;
        List<String> ietfRelayed;
        try {
            bsdRelayed = sendAndCollect(router.boundAddress("bsd"), lf(BSD), bsdOut, BSD.size());
            ietfRelayed = sendAndCollect(router.boundAddress("ietf"), octetCounted(IETF), ietfOut, IETF.size());
        } finally {
            router.stop();
        }

        SoftAssertions soft = new SoftAssertions();
        for (int i = 0; i < BSD.size(); i++) {
            soft.assertThat(bsdRelayed.get(i)).as("rfc3164 relay of %s", BSD.get(i)).isEqualTo(bsdReference.get(i));
        }
        for (int i = 0; i < IETF.size(); i++) {
            soft.assertThat(ietfRelayed.get(i)).as("rfc5424 relay of %s", IETF.get(i)).isEqualTo(ietfReference.get(i));
        }
        soft.assertAll();

        // the reference is what it should be: syslog-ng took the originals apart (a few spot checks)
        assertThat(bsdReference.get(0)).endsWith("|13|host1|app|123|||hello world");
        assertThat(bsdReference.get(9)).endsWith("|13|127.0.0.1|app|1|||no hostname: HOST is the sender's address");
        assertThat(ietfReference.get(0)).isEqualTo("2026-11-22T10:00:00.123456+02:00|165|mymachine.example.com|"
                + "evntslog|1234|ID47|[exampleSDID@32473 iut=\"3\" eventSource=\"Application\" eventID=\"1011\"]"
                + "[examplePriority@32473 class=\"high\"]|An application event");
        assertThat(ietfReference.get(7)).as("syslog-ng drops the BOM").endsWith("|13|h|app||||BOM then ünïcödé ✓");
        assertThat(ietfReference.get(2)).isEqualTo("2026-11-22T10:00:01.000000+00:00|13|h|app|||[a@1 v=\"q\\\"uote\" "
                + "w=\"br\\]acket\" x=\"back\\\\slash\"]|escapes");
        assertThat(ietfReference.get(14)).startsWith("2026-11-22T10:00:13.003000+00:00|");
        assertThat(ietfReference.get(15)).startsWith("2026-11-22T10:00:14.100000-05:00|");
        assertThat(ietfReference.get(16)).startsWith("2026-11-22T10:00:15.000100+05:30|");
        assertThat(ietfReference.get(17)).as("syslog-ng keeps a repeated SD-ID's elements apart")
                .isEqualTo("2026-11-22T10:00:16.250000+00:00|13|h|app|||[meta a=\"1\"][x@1 b=\"2\"][meta c=\"3\"]|"
                        + "a repeated SD-ID");
        assertThat(bsdReference.get(0)).startsWith("2026-11-26T10:00:00.000000+00:00|");
    }

    /**
     * logrouter → logrouter → syslog-ng: the first router relays each RFC 5424 original over {@code hop} (tcp; tls
     * and relp-tls with mutual authentication, to {@code localhost} as the receiver's certificate names it; relp) to
     * the second, which relays it octet-counted to syslog-ng's {@code syslog()} source. Two renderings and two parses
     * later, syslog-ng must read every field as it read the original sent to it directly: stamps to the microsecond
     * ({@code .123456}, {@code .003}, {@code .1}, {@code .000100}) in their own offsets ({@code +02:00}, {@code Z},
     * {@code -05:00}, {@code +05:30}), structured data as sent (escapes, an empty value, a repeated SD-ID's elements
     * apart).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tcp", "tls", "relp", "relp-tls"})
    void aChainOfTwoRoutersKeepsStampsToTheMicrosecondAndSdAsSent(String hop) throws Exception {
        List<String> reference = sendAndCollect("127.0.0.1:" + ietfPort, octetCounted(IETF), ietfOut, IETF.size());

        boolean tlsOn = hop.endsWith("tls");
        String serverTls = tlsOn ? ", tls: {cert-file: \"" + pki.cert("receiver") + "\", key-file: \""
                + pki.key("receiver") + "\", ca-file: \"" + pki.caFile() + "\", client-auth: required}" : "";
        String source = hop.startsWith("relp")
                ? "{name: in, type: relp, bind: \"127.0.0.1:0\"" + serverTls + "}"
                : "{name: in, type: tcp, bind: \"127.0.0.1:0\", framing: octet-counted, format: rfc5424"
                        + serverTls + "}";
        List<Router> routers = new ArrayList<>();
        List<String> relayed;
        try {
            Router second = TestClient.startRouter("""
                    sources:
                      - %s
                    pipeline: {ring-size: 1024, time-zone: UTC}
                    routes:
                      - {name: all, from: [in], to: [out]}
                    sinks:
                      - {name: out, type: syslog, hosts: ["127.0.0.1:%d"], format: rfc5424}
                    """.formatted(source, ietfPort));
            routers.add(second);
            String clientTls = tlsOn ? ", tls: {ca-file: \"" + pki.caFile() + "\", cert-file: \""
                    + pki.cert("relay") + "\", key-file: \"" + pki.key("relay") + "\"}" : "";
            // by name: the TLS server certificate names localhost, and verify-hostname is on
            String secondPort = second.boundAddress("in").substring(second.boundAddress("in").lastIndexOf(':') + 1);
            Router first = TestClient.startRouter("""
                    sources:
                      - {name: in, type: tcp, bind: "127.0.0.1:0", framing: octet-counted, format: rfc5424}
                    pipeline: {ring-size: 1024, time-zone: UTC}
                    routes:
                      - {name: all, from: [in], to: [hop]}
                    sinks:
                      - {name: hop, type: syslog, hosts: ["localhost:%s"], transport: %s, format: rfc5424%s}
                    """.formatted(secondPort, hop.startsWith("relp") ? "relp" : hop, clientTls));
            routers.add(first);
            relayed = sendAndCollect(first.boundAddress("in"), octetCounted(IETF), ietfOut, IETF.size());
            assertThat(TestClient.await(() -> first.metrics().require("Sink", "hop").value("written")
                    == IETF.size(), WAIT_MS)).as("the first router's sink counted every message written").isTrue();
            if (tlsOn) {
                assertThat(second.metrics().require("Source", "in").value("tlsHandshakes")).isEqualTo(1);
            }
            if (hop.startsWith("relp")) { // every message acknowledged by the second router's RELP source
                assertThat(TestClient.await(() -> second.metrics().require("Source", "in").value("acked")
                        == IETF.size(), WAIT_MS)).as("acked").isTrue();
            }
        } finally {
            for (int i = routers.size() - 1; i >= 0; i--) { // the first router first
                routers.get(i).stop();
            }
        }

        SoftAssertions soft = new SoftAssertions();
        for (int i = 0; i < IETF.size(); i++) {
            soft.assertThat(relayed.get(i)).as("%s chain relay of %s", hop, IETF.get(i)).isEqualTo(reference.get(i));
        }
        soft.assertAll();
        assertThat(reference.get(0)).startsWith("2026-11-22T10:00:00.123456+02:00|165|");
        assertThat(reference.get(14)).startsWith("2026-11-22T10:00:13.003000+00:00|");
        assertThat(reference.get(15)).startsWith("2026-11-22T10:00:14.100000-05:00|");
        assertThat(reference.get(16)).startsWith("2026-11-22T10:00:15.000100+05:30|");
        assertThat(reference.get(17)).contains("|[meta a=\"1\"][x@1 b=\"2\"][meta c=\"3\"]|");
    }

    /**
     * syslog-ng 3.38 keeps an SD parameter as {@code .SDATA.ID.NAME} and splits it back at the last dot, so a dot in
     * a parameter name moves into the SD-ID: {@code [origin x.y="1"]} sent straight to it comes out as
     * {@code [origin.x y="1"]}. That is why dotted names are not among the compared originals.
     */
    @Test
    void syslogNgResplitsDottedSdNames() throws Exception {
        List<String> parsed = sendAndCollect("127.0.0.1:" + ietfPort,
                TestClient.octet("<13>1 2026-11-22T11:00:00Z h app - - [origin x.y=\"1\"] dotted"), ietfOut, 1);
        assertThat(parsed).containsExactly("2026-11-22T11:00:00.000000+00:00|13|h|app|||[origin.x y=\"1\"]|dotted");
    }
}
