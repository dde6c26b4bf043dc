package dev.logrouter.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.testing.Ports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /health} tells the truth: it goes 503, with the reason, in each state where the router is not doing its job
 * although it runs, and back to 200 when the state clears. Real routers (in this JVM), real receivers, a real
 * journalctl stand-in; {@code health.stale-after} shortened to 2 s.
 */
class HealthTest {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static HttpResponse<String> get(String url) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static int status(String url) {
        try {
            return get(url).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private static String body(String url) {
        try {
            return get(url).body();
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static RouterConfig load(String yaml) throws Exception {
        return ComponentTypes.loader().load(yaml, "test.yaml");
    }

    /**
     * A journaled relay sink whose destination is down: the ring moves on (the journal takes everything), so the
     * sink never retries; after stale-after without a delivery while the journal holds records, /health is 503
     * naming the sink and its backlog. When the receiver comes up the backlog drains and /health is 200 again.
     */
    @Test
    void aJournaledSinkWhoseDestinationIsDownIs503AfterStaleAfter() throws Exception {
        int port = Ports.freeLoopbackPort();
        Router router = TestClient.startRouter("""
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0"}
                health: {stale-after: 2s}
                sinks:
                  - {name: central, type: syslog, hosts: ["127.0.0.1:%d"], buffer: journal, reconnect-delay: 50ms,
                     reconnect-delay-max: 200ms, journal: {dir: "%s", free-disk-reserve: 0}}
                monitoring:
                  http: {port: 0}
                """.formatted(port, dir.resolve("journal")));
        Router receiver = null;
        try {
            String health = router.httpUrl() + "/health";
            assertThat(status(health)).isEqualTo(200);
            TestClient.sendTcp(router.boundAddress("net"), "<13>Nov 22 10:00:00 web1 app: one\n");
            assertThat(TestClient.await(() -> status(health) == 503, 20_000)).as(() -> body(health)).isTrue();
            assertThat(body(health)).startsWith("DEGRADED: sink central: no delivery for ")
                    .contains("records in the journal").contains("Connection refused");
            JsonNode verbose = JSON.readTree(get(health + "?verbose").body());
            assertThat(verbose.at("/state").asText()).isEqualTo("DEGRADED");
            assertThat(verbose.at("/sinks/central/state").asText()).as("the handler itself runs").isEqualTo("RUNNING");
            assertThat(verbose.at("/sinks/central/stalled").asText()).contains("no delivery for");
            assertThat(get(router.httpUrl() + "/status").statusCode()).as("/status is informational").isEqualTo(200);

            Path out = dir.resolve("received.log");
            receiver = TestClient.startRouter("""
                    sources:
                      - {name: in, type: tcp, bind: "127.0.0.1:%d"}
                    sinks:
                      - {name: out, type: file, path: "%s", template: "${MSG}\\n"}
                    """.formatted(port, out));
            assertThat(TestClient.await(() -> status(health) == 200, 30_000)).as(() -> body(health)).isTrue();
            assertThat(TestClient.textLines(out)).containsExactly("one");
        } finally {
            router.stop();
            if (receiver != null) {
                receiver.stop();
            }
        }
    }

    /**
     * A reload that ends "partly reloaded": the source's new address is taken, so no socket listens for it. /health
     * is 503 at once, naming the source; a reload back to a free address clears it.
     */
    @Test
    void aSourceThatAReloadCouldNotStartIs503() throws Exception {
        String yaml = """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:%d"}
                sinks:
                  - {name: out, type: file, path: "%s", template: "${MSG}\\n"}
                monitoring:
                  http: {port: 0}
                """;
        Path out = dir.resolve("out.log");
        Router router = TestClient.startRouter(yaml.formatted(Ports.freeLoopbackPort(), out));
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String health = router.httpUrl() + "/health";
            assertThat(status(health)).isEqualTo(200);
            String answer = router.reload(load(yaml.formatted(taken.getLocalPort(), out)));
            assertThat(answer).startsWith("partly reloaded").contains("source net did not start");
            assertThat(status(health)).isEqualTo(503);
            assertThat(body(health)).startsWith("DEGRADED: source net is not running: did not start at the reload");
            JsonNode verbose = JSON.readTree(get(health + "?verbose").body());
            assertThat(verbose.at("/sources/net/running").asBoolean()).isFalse();

            int free = Ports.freeLoopbackPort();
            assertThat(router.reload(load(yaml.formatted(free, out)))).startsWith("reloaded");
            assertThat(status(health)).isEqualTo(200);
            TestClient.sendTcp("127.0.0.1:" + free, "<13>Nov 22 10:00:00 web1 app: back\n");
            assertThat(TestClient.await(() -> TestClient.textLines(out).contains("back"), 10_000)).isTrue();
        } finally {
            router.stop();
        }
    }

    /**
     * A journald source whose journalctl cannot start (the path names nothing): after stale-after of failures,
     * /health is 503 naming the source; once a journalctl that runs is there, it clears.
     */
    @Test
    void aJournaldSourceWhoseJournalctlCannotStartIs503AfterStaleAfter() throws Exception {
        Path journalctl = dir.resolve("bin/journalctl");
        Router router = TestClient.startRouter("""
                sources:
                  - {name: journal, type: journald, journalctl: "%s", cursor-dir: "%s"}
                health: {stale-after: 2s}
                sinks:
                  - {name: out, type: file, path: "%s", template: "${MSG}\\n"}
                monitoring:
                  http: {port: 0}
                """.formatted(journalctl, dir.resolve("cursor"), dir.resolve("out.log")));
        try {
            String health = router.httpUrl() + "/health";
            assertThat(TestClient.await(() -> status(health) == 503, 20_000)).as(() -> body(health)).isTrue();
            assertThat(body(health)).startsWith("DEGRADED: source journal: failing for ")
                    .contains("cannot start " + journalctl);

            // a journalctl that runs: it follows (prints nothing, keeps running); other calls print nothing
            Files.createDirectories(journalctl.getParent());
            Files.writeString(journalctl, """
                    #!/bin/sh
                    case " $* " in *" --follow "*) exec sleep 600 ;; esac
                    exit 0
                    """);
            Files.setPosixFilePermissions(journalctl, PosixFilePermissions.fromString("rwxr-xr-x"));
            assertThat(TestClient.await(() -> status(health) == 200, 60_000)).as(() -> body(health)).isTrue();
        } finally {
            router.stop();
        }
    }
}
