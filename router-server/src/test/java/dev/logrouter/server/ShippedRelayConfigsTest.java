package dev.logrouter.server;

import dev.logrouter.core.testing.Ports;
import dev.logrouter.core.testing.TestPki;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped relay examples run as operators run them (a child JVM, {@link RouterProcess}) while their first
 * central server is down, and a syslog sink whose first host name does not resolve.
 *
 * <p>{@code config/relay.yaml}, {@code config/relp.yaml} and {@code config/host.yaml}, materialized by
 * {@link ExampleConfigs} (certificates from a test PKI), are rewritten as text: the sink
 * {@code central}'s {@code central-1.example.net:PORT} becomes {@code localhost:} a free loopback port nobody listens
 * on, {@code central-2.example.net:PORT} {@code localhost:} the port of a live receiver (an in-process router with a
 * source of the kind the sink speaks: TLS with client certificates required, RELP over TLS, or TLS without client
 * certificates for host.yaml, whose sink presents none), every {@code 0.0.0.0:PORT} bind {@code 127.0.0.1:0}, and
 * the relative {@code data/} directories absolute under the test's directory. host.yaml's sources that cannot run in
 * a test as shipped are neutralised, nothing more: its {@code /dev/log} unix-dgram socket is bound in the test's
 * directory instead (a real socket: the test checks that it listens there), its journald source runs a
 * {@code journalctl} that does not exist (it logs that it cannot start it and retries, reading nothing: this machine's
 * journal is not read), and its file source tails {@code app/*.log} in the test's directory instead of
 * {@code /var/log/app}; the messages are written into that tailed file (host.yaml has no network source). Every
 * message must reach the live second host; {@code stats} must show the sink {@code RUNNING} with the first host down
 * (connect failed) and the second up; SIGTERM must end it with exit 0.
 *
 * <p>A host name that does not resolve ({@code no-such-host.invalid}) is that host's own failure, in
 * {@code failover} and in {@code round-robin} mode: every message reaches the live host, {@code connectFailures}
 * counts the tries and {@code hosts} says the name was not resolved.
 *
 * <p>No test looks a name up in DNS: every child JVM runs with {@code -Djdk.net.hosts.file} naming a file that holds
 * only {@code 127.0.0.1 localhost}, so the JDK resolves from that file alone ({@code localhost} to the loopback
 * address, anything else to nothing); this JVM connects by address only.
 */
class ShippedRelayConfigsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final int MESSAGES = 300;
    private static final long DELIVERY_MS = 90_000;

    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    @Test
    void relayYamlRunsWithItsFirstCentralServerDown() throws Exception {
        Path pki = dir.resolve("work/pki");
        String yaml = example("relay.yaml");
        Router receiver = receiver("tcp", mutualTls(pki));
        int down = Ports.freeLoopbackPort();
        RouterProcess relay = start("relay", rewrite(yaml, down, port(receiver)));

        List<String> ids = ids("relay", MESSAGES);
        TestClient.sendTcp(relay.address(), lines(ids));
        assertDeliveredWithFirstHostDown(relay, ids, down, port(receiver));
    }

    @Test
    void relpYamlRunsWithItsFirstCentralServerDown() throws Exception {
        Path pki = dir.resolve("work/pki");
        String yaml = example("relp.yaml");
        Router receiver = receiver("relp", mutualTls(pki));
        int down = Ports.freeLoopbackPort();
        RouterProcess relp = start("relp", rewrite(yaml, down, port(receiver)));

        List<String> ids = ids("relp", MESSAGES);
        // relp-in takes RELP over TLS and requires a client certificate: the PKI's relay-client
        try (RelpTestClient client = new RelpTestClient(relp.address(), clientContext(pki, "relay-client"))) {
            assertThat(client.open().status()).isEqualTo(200);
            for (String id : ids) {
                client.send("syslog", "<13>1 2026-12-07T10:00:00.000Z h app - - - " + id);
            }
            client.flush();
            // answered only once both sinks journaled it
            for (int i = 0; i < ids.size(); i++) {
                RelpTestClient.Frame rsp = client.read();
                assertThat(rsp).as(relp::log).isNotNull();
                assertThat(rsp.status()).as("%s", rsp).isEqualTo(200);
            }
        }
        assertDeliveredWithFirstHostDown(relp, ids, down, port(receiver));
    }

    @Test
    void hostYamlRunsWithItsFirstCentralServerDown() throws Exception {
        Path pki = dir.resolve("work/pki");
        String yaml = example("host.yaml");
        // host.yaml's sink trusts the CA and presents no certificate
        Router receiver = receiver("tcp", "{cert-file: \"" + pki.resolve("relay.pem") + "\", key-file: \""
                + pki.resolve("relay.key") + "\"}");
        int down = Ports.freeLoopbackPort();
        Path app = Files.createDirectories(dir.resolve("app"));
        String local = neutraliseHostSources(yaml);
        RouterProcess host = start("host", rewrite(local, down, port(receiver)));
        assertThat(host.address()).as("the first source, devlog, in the test's directory")
                .isEqualTo(dir.resolve("dev-log").toString());

        List<String> ids = ids("host", MESSAGES);
        // the file source takes each line as it is (format raw): the line is MSG
        Files.writeString(app.resolve("app.log"), String.join("\n", ids) + "\n", StandardOpenOption.CREATE_NEW);
        assertDeliveredWithFirstHostDown(host, ids, down, port(receiver));
        assertThat(host.log()).as("journald ran the journalctl that does not exist")
                .contains("cannot start " + dir.resolve("no-such-journalctl"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"failover", "round-robin"})
    void aHostNameThatDoesNotResolveIsThatHostsFailure(String mode) throws Exception {
        Router receiver = receiver("tcp", null);
        RouterProcess router = start("unresolved-" + mode, """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0"}
                pipeline: {time-zone: UTC}
                sinks:
                  - {name: central, type: syslog, hosts: ["no-such-host.invalid:514", "127.0.0.1:%d"], mode: %s,
                     format: rfc5424, batch-size: 50, reconnect-delay: 50ms, reconnect-delay-max: 500ms}
                """.formatted(port(receiver), mode));

        List<String> ids = ids(mode, MESSAGES);
        Set<String> want = new HashSet<>();
        for (int round = 0; round < 3; round++) { // several batches: round-robin picks a host for each
            List<String> part = ids.subList(round * MESSAGES / 3, (round + 1) * MESSAGES / 3);
            TestClient.sendTcp(router.address(), lines(part));
            want.addAll(part);
            assertThat(TestClient.await(() -> received().containsAll(want), DELIVERY_MS))
                    .as(() -> "received " + received().size() + " of " + want.size() + "\n" + router.log()).isTrue();
        }
        assertThat(received()).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(TestClient.await(() -> router.stat("/Sink/central/connectFailures") > 0, 30_000)).isTrue();
        // failover tries it again on its backoff ("connecting" until the sink's next look): wait for a look at it down
        String unresolved = "no-such-host.invalid:514 down: connect failed: java.net.UnknownHostException: "
                + "no-such-host.invalid: name not resolved";
        String live = "127.0.0.1:" + port(receiver) + " up";
        assertThat(TestClient.await(() -> {
            String hosts = router.statText("/Sink/central/hosts");
            return hosts != null && hosts.contains(unresolved) && hosts.contains(live);
        }, 30_000)).as(() -> "hosts: " + router.statText("/Sink/central/hosts") + "\n" + router.log()).isTrue();
        assertThat(router.statText("/Sink/central/state")).isEqualTo("RUNNING");
        stop(router);
    }

    /** Every message reached the live host; the sink runs with the first host down and the second up; exit 0. */
    private void assertDeliveredWithFirstHostDown(RouterProcess router, List<String> ids, int down, int live)
            throws Exception {
        assertThat(TestClient.await(() -> received().containsAll(ids), DELIVERY_MS))
                .as(() -> "received " + received().size() + " of " + ids.size() + "; hosts "
                        + router.statText("/Sink/central/hosts") + "\n" + router.log()).isTrue();
        assertThat(received()).containsExactlyInAnyOrderElementsOf(ids);
        String downHost = "localhost:" + down + " down: connect failed";
        String liveHost = "localhost:" + live + " up";
        // the first host is tried again on its backoff ("connecting" for a moment): wait for a look at it down
        assertThat(TestClient.await(() -> {
            String hosts = router.statText("/Sink/central/hosts");
            return hosts != null && hosts.contains(downHost) && hosts.contains(liveHost);
        }, 30_000)).as(() -> "hosts: " + router.statText("/Sink/central/hosts")).isTrue();
        assertThat(router.statText("/Sink/central/state")).isEqualTo("RUNNING");
        assertThat(router.statText("/Sink/central/activeHost")).isEqualTo("localhost:" + live);
        assertThat(router.stat("/Sink/central/connectFailures")).isPositive();
        stop(router);
    }

    private static void stop(RouterProcess router) throws InterruptedException {
        router.sigterm();
        assertThat(router.exitStatus(120)).as(router::log).isZero();
        assertThat(router.lastLine()).contains("stopped cleanly");
    }

    /** The materialized copy of {@code config/NAME} (certificates in {@code work/pki}). */
    private String example(String name) throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        for (ExampleConfigs.Example e : ExampleConfigs.materialize(ROOT, work)) {
            if (e.original().getFileName().toString().equals(name)) {
                return Files.readString(e.copy());
            }
        }
        throw new AssertionError("no config/" + name);
    }

    /**
     * The central hosts pointed at loopback ports, every {@code 0.0.0.0:PORT} bind at {@code 127.0.0.1:0}, the
     * relative {@code data/} directories under the test's directory.
     */
    private String rewrite(String yaml, int downPort, int livePort) {
        String out = yaml.replaceAll("central-1\\.example\\.net:\\d+", "localhost:" + downPort)
                .replaceAll("central-2\\.example\\.net:\\d+", "localhost:" + livePort)
                .replaceAll("0\\.0\\.0\\.0:\\d+", "127.0.0.1:0")
                .replaceAll("(?<=[\\s\"\\[])data/", Matcher.quoteReplacement(dir.resolve("data") + "/"));
        assertThat(out).doesNotContain("example.net").doesNotContain("0.0.0.0")
                .doesNotContainPattern("[\\s\"\\[]data/").doesNotContain("/etc/logrouter")
                .contains("localhost:" + downPort + "\", \"localhost:" + livePort);
        return out;
    }

    /**
     * host.yaml's sources that cannot run in a test: /dev/log made in the test's directory, journald given a
     * journalctl that does not exist, the tailed /var/log/app in the test's directory.
     */
    private String neutraliseHostSources(String yaml) {
        String out = yaml.replace("path: /dev/log", "path: \"" + dir.resolve("dev-log") + "\"")
                .replace("\n    type: journald", "\n    type: journald\n    journalctl: \""
                        + dir.resolve("no-such-journalctl") + "\"")
                .replace("\"/var/log/app/*.log\"", "\"" + dir.resolve("app") + "/*.log\"");
        assertThat(out).doesNotContain("path: /dev/log").doesNotContain("/var/log/app")
                .contains("journalctl: \"" + dir.resolve("no-such-journalctl"));
        return out;
    }

    /** An in-process receiver: source {@code in} of {@code type} (with {@code tls}, or null), MSG lines to a file. */
    private Router receiver(String type, String tls) throws Exception {
        Router r = TestClient.startRouter("""
                sources:
                  - {name: in, type: %s, bind: "127.0.0.1:0"%s}
                pipeline: {time-zone: UTC}
                sinks:
                  - {name: out, type: file, path: "%s", template: "${MSG}\\n"}
                """.formatted(type, tls == null ? "" : ", tls: " + tls, dir.resolve("received.log")));
        open.add(r::stop);
        return r;
    }

    private static String mutualTls(Path pki) {
        return "{cert-file: \"" + pki.resolve("relay.pem") + "\", key-file: \"" + pki.resolve("relay.key")
                + "\", ca-file: \"" + pki.resolve("ca.pem") + "\", client-auth: required}";
    }

    private Set<String> received() {
        return new HashSet<>(TestClient.textLines(dir.resolve("received.log")));
    }

    private static int port(Router r) {
        String a = r.boundAddress("in");
        return Integer.parseInt(a.substring(a.lastIndexOf(':') + 1));
    }

    /** A router in a child JVM that resolves names from a hosts file holding only localhost (no DNS). */
    private RouterProcess start(String name, String yaml) throws Exception {
        Path hosts = dir.resolve("hosts");
        if (!Files.exists(hosts)) {
            Files.writeString(hosts, "127.0.0.1 localhost\n");
        }
        RouterProcess r = RouterProcess.start(dir, name, yaml, List.of("-Djdk.net.hosts.file=" + hosts));
        open.add(r);
        return r;
    }

    private static List<String> ids(String prefix, int n) {
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(prefix + "-" + i);
        }
        return out;
    }

    /** RFC 5424 lines with these messages, LF-framed. */
    private static String lines(List<String> ids) {
        StringBuilder sb = new StringBuilder();
        for (String id : ids) {
            sb.append("<13>1 2026-12-07T10:00:00.000Z h app - - - ").append(id).append('\n');
        }
        return sb.toString();
    }

    /** Trusts the PKI's CA and presents {@code client}'s certificate (its PKCS#12 file). */
    private static SSLContext clientContext(Path pki, String client) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(pki.resolve("ca.pem"))) {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(pki.resolve(client + ".p12"))) {
            keys.load(in, TestPki.PASSWORD.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, TestPki.PASSWORD.toCharArray());
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return ctx;
    }
}
