package dev.logrouter.server;

import dev.logrouter.core.testing.TestPki;
import dev.logrouter.server.jmx.Stats;
import dev.logrouter.server.jmx.StatsFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code monitoring.http} end to end: a real router with the listener on a free loopback port, real TCP traffic,
 * and {@link HttpClient} requests. {@code /metrics} is checked by Prometheus' own parser ({@code promtool check
 * metrics}, Debian's prometheus package) and compared with what JMX holds and with {@code stats --format
 * prometheus}'s rendering of the JMX reading; {@code /health} follows the router's state through a sink failure;
 * basic authentication and HTTPS.
 */
class HttpMonitoringTest {

    @TempDir
    Path dir;

    private String config(String http) {
        return String.join("\n",
                "sources:",
                "  - {name: net, type: tcp, bind: 127.0.0.1:0}",
                "pipeline: {ring-size: 1024}",
                "routes:",
                "  - {name: all, to: [files]}",
                "sinks:",
                "  - name: files",
                "    type: file",
                "    path: \"" + dir + "/out/${HOST}.log\"",
                "    template: \"${MSG}\\n\"",
                "monitoring:",
                "  http: " + http,
                "");
    }

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private static HttpResponse<String> get(String url, String... headers) throws Exception {
        return get(CLIENT, url, headers);
    }

    private static HttpResponse<String> get(HttpClient client, String url, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** {@code promtool check metrics} on {@code text}: its exit status and output (problems, lint findings). */
    private static String[] promtool(String text) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true).start();
        p.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new String[] {Integer.toString(p.exitValue()), out};
    }

    /** The samples of an exposition: {@code name{labels}} → value. */
    private static Map<String, String> samples(String text) {
        Map<String, String> m = new HashMap<>();
        for (String l : text.lines().toList()) {
            if (!l.startsWith("#") && !l.isEmpty()) {
                int space = l.lastIndexOf(' ');
                m.put(l.substring(0, space), l.substring(space + 1));
            }
        }
        return m;
    }

    private static void send(Router router, int n) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append("<13>Nov 22 10:00:00 web1 app: message ").append(i).append('\n');
        }
        TestClient.sendTcp(router.boundAddress("net"), b.toString());
    }

    @Test
    void metricsArePrometheusTextWithTheValuesJmxHolds() throws Exception {
        Router router = TestClient.startRouter(config("{port: 0}"));
        try {
            String base = router.httpUrl();
            assertThat(base).matches("http://127\\.0\\.0\\.1:\\d+");
            send(router, 3);
            assertThat(TestClient.await(() -> router.metrics().require("Sink", "files").value("written") == 3, 10_000))
                    .isTrue();

            HttpResponse<String> r = get(base + "/metrics");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
            String[] check = promtool(r.body());
            assertThat(check[0]).as("promtool check metrics: %s", check[1]).isEqualTo("0");
            assertThat(check[1]).as("no lint findings").isBlank();

            Map<String, String> s = samples(r.body());
            var mbs = ManagementFactory.getPlatformMBeanServer();
            ObjectName sink = new ObjectName("dev.logrouter:type=Sink,name=files");
            ObjectName source = new ObjectName("dev.logrouter:type=Source,name=net");
            assertThat(s).containsEntry("logrouter_sink_written_total{sink=\"files\"}", "3")
                    .containsEntry("logrouter_sink_written_total{sink=\"files\"}",
                            mbs.getAttribute(sink, "written").toString())
                    .containsEntry("logrouter_sink_bytes_total{sink=\"files\"}",
                            mbs.getAttribute(sink, "bytes").toString())
                    .containsEntry("logrouter_source_received_total{source=\"net\"}",
                            mbs.getAttribute(source, "received").toString())
                    .containsEntry("logrouter_source_bytes_total{source=\"net\"}",
                            mbs.getAttribute(source, "bytes").toString())
                    .containsEntry("logrouter_ring_capacity{ring=\"main\"}", "1024")
                    .containsEntry("logrouter_router_state{router=\"main\",state=\"RUNNING\"}", "1")
                    .containsEntry("logrouter_sink_state{sink=\"files\",state=\"RUNNING\"}", "1");
            assertThat(r.body()).contains("# TYPE logrouter_sink_written_total counter\n",
                    "# TYPE logrouter_ring_capacity gauge\n",
                    "# HELP logrouter_sink_written_total Events written out by this sink");
            assertThat(r.body()).as("texts other than states are no samples").doesNotContain("last_error")
                    .doesNotContain("degraded_by");

            // the same text as stats --format prometheus renders from JMX, but for the clock
            String fromJmx = StatsFormat.PROMETHEUS.render(Stats.read(mbs));
            assertThat(withoutUptime(r.body())).isEqualTo(withoutUptime(fromJmx));

            HttpResponse<String> head = CLIENT.send(HttpRequest.newBuilder(URI.create(base + "/metrics"))
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(head.statusCode()).isEqualTo(200);
            assertThat(head.body()).isEmpty();
            assertThat(get(base + "/other").statusCode()).isEqualTo(404);
            HttpResponse<String> post = CLIENT.send(HttpRequest.newBuilder(URI.create(base + "/metrics"))
                    .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(405);
        } finally {
            router.stop();
        }
        assertThat(router.httpUrl()).as("closed with the router").isNull();
    }

    private static List<String> withoutUptime(String text) {
        return text.lines().filter(l -> !l.startsWith("logrouter_router_uptime_seconds{")).toList();
    }

    @Test
    void healthIs200WhileRunningAnd503WithTheReasonWhileASinkFails() throws Exception {
        // the sink's base directory is a file: its files cannot be opened, so the sink retries until the file is gone
        Path blocker = dir.resolve("out");
        Files.writeString(blocker, "not a directory");
        Router router = TestClient.startRouter(config("{port: 0, bind: 127.0.0.1}"));
        String url;
        try {
            url = router.httpUrl() + "/health";
            HttpResponse<String> ok = get(url);
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.body()).isEqualTo("RUNNING\n");

            send(router, 1);
            assertThat(TestClient.await(() -> status(url) == 503, 10_000)).isTrue();
            HttpResponse<String> degraded = get(url);
            assertThat(degraded.statusCode()).isEqualTo(503);
            assertThat(degraded.body()).startsWith("DEGRADED: sink files: APPEND: ").contains(blocker.toString());
            assertThat(samples(get(router.httpUrl() + "/metrics").body()))
                    .containsEntry("logrouter_router_state{router=\"main\",state=\"DEGRADED\"}", "1")
                    .containsEntry("logrouter_sink_state{sink=\"files\",state=\"RETRYING\"}", "1");

            Files.delete(blocker);
            assertThat(TestClient.await(() -> status(url) == 200, 15_000)).isTrue();
            assertThat(get(url).body()).isEqualTo("RUNNING\n");
        } finally {
            router.stop();
        }
        assertThatThrownBy(() -> get(url)).as("the port is closed").isInstanceOf(ConnectException.class);
    }

    private static int status(String url) {
        try {
            return get(url).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    @Test
    void basicAuthenticationWithClearTextAndHashedPasswords() throws Exception {
        byte[] salt = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
        MessageDigest d = MessageDigest.getInstance("SHA3-512");
        d.update(salt);
        byte[] hash = d.digest("hashed-secret".getBytes(StandardCharsets.UTF_8));
        Path passwords = dir.resolve("http.password");
        Files.writeString(passwords, "# users\nmonitor s3cret\nhashed " + Base64.getEncoder().encodeToString(salt) + " "
                + Base64.getEncoder().encodeToString(hash) + " SHA3-512\n");
        Files.setPosixFilePermissions(passwords, PosixFilePermissions.fromString("rw-------"));
        Router router = TestClient.startRouter(config("{port: 0, password-file: \"" + passwords + "\"}"));
        try {
            String url = router.httpUrl() + "/metrics";
            HttpResponse<String> anonymous = get(url);
            assertThat(anonymous.statusCode()).isEqualTo(401);
            assertThat(anonymous.headers().firstValue("WWW-Authenticate"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("Basic realm=\"logrouter\""));
            assertThat(get(url, "Authorization", basic("monitor", "wrong")).statusCode()).isEqualTo(401);
            assertThat(get(url, "Authorization", basic("nobody", "s3cret")).statusCode()).isEqualTo(401);
            assertThat(get(router.httpUrl() + "/health").statusCode()).as("health too").isEqualTo(401);
            assertThat(get(url, "Authorization", basic("monitor", "s3cret")).statusCode()).isEqualTo(200);
            assertThat(get(url, "Authorization", basic("hashed", "hashed-secret")).statusCode()).isEqualTo(200);
            assertThat(get(url, "Authorization", basic("hashed", "hashed-secreT")).statusCode()).isEqualTo(401);
        } finally {
            router.stop();
        }
    }

    @Test
    void aPasswordFileReadableByOthersIsRefusedAtStart() throws Exception {
        Path passwords = dir.resolve("http.password");
        Files.writeString(passwords, "monitor s3cret\n");
        Files.setPosixFilePermissions(passwords, PosixFilePermissions.fromString("rw-r--r--"));
        Router router = new Router(ComponentTypes.loader().load(
                config("{port: 0, password-file: \"" + passwords + "\"}"), "test.yaml"));
        assertThatThrownBy(router::start).hasMessageContaining("monitoring.http.password-file " + passwords
                + " must be readable by its owner only");
        router.stop();
        var mbs = ManagementFactory.getPlatformMBeanServer();
        assertThat(mbs.isRegistered(new ObjectName("dev.logrouter:type=Router,name=main"))).as("MBeans unregistered")
                .isFalse();
    }

    @Test
    void httpsWithTheKeyStoreOptionsOfRemoteJmx() throws Exception {
        TestPki pki = new TestPki(Files.createDirectories(dir.resolve("pki")));
        pki.server("router", "localhost");
        Router router = TestClient.startRouter(config("{port: 0, tls: {keystore: \"" + pki.p12("router")
                + "\", keystore-password: " + TestPki.PASSWORD + "}}"));
        try {
            String base = router.httpUrl();
            assertThat(base).startsWith("https://127.0.0.1:");
            HttpClient trusting = HttpClient.newBuilder().sslContext(pki.clientContext(null, "TLSv1.3")).build();
            HttpResponse<String> r = get(trusting, base + "/health");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("RUNNING\n");
            assertThatThrownBy(() -> get(base + "/health")).as("a client that does not trust the certificate")
                    .isInstanceOf(javax.net.ssl.SSLHandshakeException.class);
        } finally {
            router.stop();
        }
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
