package dev.logrouter.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.logrouter.core.testing.Ports;
import dev.logrouter.server.TestClient.StatsOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;

import static dev.logrouter.server.TestClient.stats;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code stats} command across process boundaries: local attach by pid, or found by its main class, to a
 * router running in a child JVM (as an operator runs it next to a router), and remote JMX over TLS, where the client runs in a child JVM with
 * the trust store given as JSSE system properties (as docs/operations.md says to run it).
 */
class StatsCommandTest {

    @TempDir
    Path dir;

    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    private static String config(Path dir, String jmx) {
        return String.join("\n",
                "sources:",
                "  - {name: net, type: tcp, bind: 127.0.0.1:0}",
                "routes:",
                "  - {name: all, to: [files]}",
                "sinks:",
                "  - name: files",
                "    type: file",
                "    path: \"" + dir + "/out/${HOST}.log\"",
                "monitoring:",
                "  jmx:",
                jmx,
                "");
    }

    private static long received(StatsOutput json) {
        try {
            return new ObjectMapper().readTree(json.out()).at("/Source/net/received").asLong(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    @Test
    void attachesByPidToARouterInAnotherJvm() throws Exception {
        Path cfg = dir.resolve("router.yaml");
        Files.writeString(cfg, config(dir, "    port: 0"));
        Path log = dir.resolve("router.log");
        Process p = new ProcessBuilder(JAVA, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "run", "--config", cfg.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertThat(TestClient.await(() -> TestClient.listening(log) != null, 30_000)).as("router started").isTrue();
            TestClient.sendTcp(TestClient.listening(log), "<13>Nov 22 10:00:00 web1 app: one\n<13>Nov 22 10:00:00 web1 app: two\n");
            String pid = Long.toString(p.pid());
            assertThat(TestClient.await(() -> received(stats("--pid", pid, "--format", "json")) == 2, 30_000))
                    .as("received read by attach").isTrue();
            StatsOutput table = stats("--pid", pid);
            assertThat(table.code()).as(table.err()).isZero();
            assertThat(table.out().lines()).anyMatch(l -> l.matches("Router +main +state +RUNNING"))
                    .anyMatch(l -> l.matches("Sink +files +written +2"));

            StatsOutput notAJvm = stats("--pid", "999999999");
            assertThat(notAJvm.code()).isEqualTo(1);
            assertThat(notAJvm.err()).startsWith("logrouter stats: cannot read pid 999999999: ");
        } finally {
            p.destroy(); // SIGTERM: clean stop
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("the router did not stop within 60 s: " + Files.readString(log));
            }
        }
        assertThat(p.exitValue()).as(Files.readString(log)).isZero();
    }

    /**
     * {@code stats} without {@code --pid} finds a router started as {@code java -jar <any name>.jar run} from
     * another directory: by the jar's manifest, not its name. The jar holds only a manifest whose Class-Path is
     * this test's class path, so it runs the classes under test.
     */
    @Test
    void findsTheLocalRouterOfARenamedJarByItsMainClass() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        Path jar = work.resolve("router-renamed-2.0.jar");
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, Main.class.getName());
        mf.getMainAttributes().put(Attributes.Name.CLASS_PATH, Arrays.stream(
                System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .map(e -> Path.of(e).toAbsolutePath().toUri().toString()).collect(Collectors.joining(" ")));
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), mf)) {
            out.flush();
        }
        Path cfg = dir.resolve("router.yaml");
        Files.writeString(cfg, config(dir, "    port: 0"));
        Path log = dir.resolve("router.log");
        // a relative jar path: the lookup resolves it against the router's working directory
        Process p = new ProcessBuilder(JAVA, "-jar", jar.getFileName().toString(), "run", "--config", cfg.toString())
                .directory(work.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertThat(TestClient.await(() -> TestClient.listening(log) != null, 30_000)).as("router started").isTrue();
            TestClient.sendTcp(TestClient.listening(log), "<13>Nov 22 10:00:00 web1 app: one\n");
            assertThat(TestClient.await(() -> received(stats("--format", "json")) == 1, 30_000))
                    .as("found without --pid: %s", stats("--format", "json").err()).isTrue();
        } finally {
            p.destroy(); // SIGTERM: clean stop
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("the router did not stop within 60 s: " + Files.readString(log));
            }
        }
        assertThat(Files.readString(log)).contains("running (ring 4096, 1 parse worker, 1 sink); SIGTERM stops");
        StatsOutput none = stats();
        assertThat(none.code()).isEqualTo(1);
        assertThat(none.err()).contains("no local logrouter process of this user found");
    }

    @Test
    void readsOverTlsWithTheTrustStoreOfTheClientJvm() throws Exception {
        Path keystore = dir.resolve("jmx.p12");
        Path cert = dir.resolve("jmx.crt");
        Path truststore = dir.resolve("trust.p12");
        keytool("-genkeypair", "-alias", "jmx", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=127.0.0.1",
                "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", keystore.toString(),
                "-storepass", "secret1", "-keypass", "secret1");
        keytool("-exportcert", "-alias", "jmx", "-keystore", keystore.toString(), "-storepass", "secret1",
                "-file", cert.toString());
        keytool("-importcert", "-noprompt", "-alias", "jmx", "-file", cert.toString(), "-storetype", "PKCS12",
                "-keystore", truststore.toString(), "-storepass", "secret2");
        int port = Ports.freeLoopbackPort();
        Router router = TestClient.startRouter(config(dir, String.join("\n", "    port: " + port,
                "    tls: {keystore: " + keystore + ", keystore-password: secret1}")));
        try {
            TestClient.sendTcp(router.boundAddress("net"), "<13>Nov 22 10:00:00 web1 app: over tls\n");
            assertThat(TestClient.await(() -> router.metrics().require("Sink", "files").value("written") == 1,
                    10_000)).isTrue();

            // plaintext against the TLS registry: refused
            StatsOutput plain = stats("--jmx", "127.0.0.1:" + port);
            assertThat(plain.code()).isEqualTo(1);
            assertThat(plain.err()).startsWith("logrouter stats: cannot read 127.0.0.1:" + port);

            Path out = dir.resolve("stats.json");
            Path err = dir.resolve("stats.err");
            List<String> cmd = new ArrayList<>(List.of(JAVA, "-Djavax.net.ssl.trustStore=" + truststore,
                    "-Djavax.net.ssl.trustStorePassword=secret2", "-cp", System.getProperty("java.class.path"),
                    Main.class.getName(), "stats", "--jmx", "127.0.0.1:" + port, "--tls", "--format", "json"));
            Process client = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            assertThat(finished(client)).isTrue();
            assertThat(client.exitValue()).as(Files.readString(err)).isZero();
            JsonNode json = new ObjectMapper().readTree(out.toFile());
            assertThat(json.at("/Source/net/received").asLong()).isEqualTo(1);
            assertThat(json.at("/Sink/files/written").asLong()).isEqualTo(1);
            assertThat(json.at("/Router/main/state").asText()).isEqualTo("RUNNING");

            // a client that trusts nothing of ours fails the handshake
            Process untrusting = new ProcessBuilder(JAVA, "-cp", System.getProperty("java.class.path"),
                    Main.class.getName(), "stats", "--jmx", "127.0.0.1:" + port, "--tls")
                    .redirectErrorStream(true).redirectOutput(dir.resolve("untrusting.log").toFile()).start();
            assertThat(finished(untrusting)).isTrue();
            assertThat(untrusting.exitValue()).isEqualTo(1);
            assertThat(Files.readString(dir.resolve("untrusting.log"))).contains("cannot read 127.0.0.1:" + port);
        } finally {
            router.stop();
        }
    }

    /** Waits up to 60 s for a child JVM; kills it when it does not end. */
    private static boolean finished(Process p) throws InterruptedException {
        if (p.waitFor(60, TimeUnit.SECONDS)) {
            return true;
        }
        p.destroyForcibly();
        return false;
    }

    private void keytool(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        Path log = dir.resolve("keytool.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("keytool %s: %s", args[0], Files.readString(log)).isZero();
    }
}
