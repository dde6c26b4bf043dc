package dev.logrouter.sinks.elasticsearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.logrouter.core.testing.Commands;
import dev.logrouter.core.testing.Conditions;
import dev.logrouter.core.testing.Ports;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real single-node Elasticsearch server for tests: the 8.19 server distribution that the build unpacks into
 * {@code target/elasticsearch/}, started as a child process ({@code bin/elasticsearch -d -p pid}) on free 127.0.0.1
 * ports with a 512 MB heap, with its config, data and logs under {@code target/es-<port>/}. Elasticsearch refuses to
 * run as root: when the tests run as root the server runs as the system user {@code logrouter-es} (created with
 * {@code useradd} if missing) through {@code runuser}. Ready when {@code _cluster/health?wait_for_status=yellow}
 * answers. {@link #stop()} sends SIGTERM and waits; {@link #start(Map)} starts it again on the same ports and data
 * (a server restart), optionally with other node settings (e.g. a tiny write queue).
 *
 * <p>{@link #launchSecured} turns on the security module the distribution has: https with a self-signed certificate
 * made by {@code openssl} for 127.0.0.1 ({@link #certificate()} is its PEM file) and basic authentication of the
 * file-realm user {@link #USER_NAME} / {@link #PASSWORD} (a superuser, made with {@code bin/elasticsearch-users}).
 * The REST helpers trust that certificate and authenticate.
 *
 * <p>Threads: used by one test thread.
 */
public final class ElasticsearchServer implements AutoCloseable {

    private static final String USER = "logrouter-es";
    /** The secured server's user and password. */
    public static final String USER_NAME = "logrouter";
    public static final String PASSWORD = "test-password";
    private static final long START_TIMEOUT_SECONDS = 120;

    private final Path home;
    private final Path dir;
    private final int port;
    private final int transportPort;
    private final boolean root;
    private final boolean secured;
    private HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private long pid = -1;
    private Thread shutdownHook;

    private ElasticsearchServer(Path home, Path dir, int port, int transportPort, boolean secured) {
        this.home = home;
        this.dir = dir;
        this.port = port;
        this.transportPort = transportPort;
        this.secured = secured;
        this.root = "root".equals(System.getProperty("user.name"));
    }

    /** Starts a server (http, no security) with the given extra node settings (elasticsearch.yml lines). */
    public static ElasticsearchServer launch(Map<String, String> settings) throws IOException, InterruptedException {
        return launch(settings, false);
    }

    /** Starts a server with https and basic authentication, and the given extra node settings. */
    public static ElasticsearchServer launchSecured(Map<String, String> settings)
            throws IOException, InterruptedException {
        return launch(settings, true);
    }

    private static ElasticsearchServer launch(Map<String, String> settings, boolean secured)
            throws IOException, InterruptedException {
        Path home = findHome();
        int port = Ports.freeLoopbackPort();
        ElasticsearchServer s = new ElasticsearchServer(home, Path.of("target", "es-" + port).toAbsolutePath(), port,
                Ports.freeLoopbackPort(), secured);
        s.start(settings);
        return s;
    }

    /** The unpacked distribution: {@code target/elasticsearch/elasticsearch-<version>} of the running module. */
    static Path findHome() throws IOException {
        Path base = Path.of("target", "elasticsearch").toAbsolutePath();
        if (Files.isDirectory(base)) {
            try (Stream<Path> s = Files.list(base)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    if (Files.isRegularFile(p.resolve("bin/elasticsearch"))) {
                        return p;
                    }
                }
            }
        }
        throw new IOException("no Elasticsearch distribution under " + base + ": the build unpacks it in "
                + "process-test-resources (maven-dependency-plugin, unpack-elasticsearch)");
    }

    public String url() {
        return (secured ? "https" : "http") + "://127.0.0.1:" + port;
    }

    /** The secured server's certificate (PEM), to trust. */
    public Path certificate() {
        return dir.resolve("config/http.crt");
    }

    public int port() {
        return port;
    }

    /** Starts (or restarts) the server with the given extra node settings and waits until it is ready. */
    public void start(Map<String, String> settings) throws IOException, InterruptedException {
        if (pid > 0) {
            throw new IllegalStateException("already running");
        }
        Path conf = dir.resolve("config");
        Files.createDirectories(dir.resolve("data"));
        Files.createDirectories(dir.resolve("logs"));
        if (!Files.exists(conf)) {
            copyTree(home.resolve("config"), conf);
            if (secured) {
                secure(conf);
            }
        }
        Map<String, String> yml = new LinkedHashMap<>();
        yml.put("cluster.name", "logrouter-test");
        yml.put("node.name", "node-" + port);
        yml.put("network.host", "127.0.0.1");
        yml.put("http.port", Integer.toString(port));
        yml.put("transport.port", Integer.toString(transportPort));
        yml.put("discovery.type", "single-node");
        yml.put("cluster.routing.allocation.disk.threshold_enabled", "false");
        yml.put("path.data", dir.resolve("data").toString());
        yml.put("path.logs", dir.resolve("logs").toString());
        yml.put("action.destructive_requires_name", "false");
        yml.put("xpack.security.enabled", Boolean.toString(secured));
        if (secured) {
            yml.put("xpack.security.http.ssl.enabled", "true");
            yml.put("xpack.security.http.ssl.key", "http.key");
            yml.put("xpack.security.http.ssl.certificate", "http.crt");
            yml.put("xpack.security.transport.ssl.enabled", "false");
            yml.put("xpack.security.authc.realms.file.file1.order", "0");
        }
        yml.putAll(settings);
        StringBuilder text = new StringBuilder();
        yml.forEach((k, v) -> text.append(k).append(": ").append(v).append('\n'));
        Files.writeString(conf.resolve("elasticsearch.yml"), text);
        Path pidFile = dir.resolve("es.pid");
        Files.deleteIfExists(pidFile);

        List<String> cmd = new ArrayList<>();
        if (root) {
            ensureUser();
            Commands.run(List.of("chown", "-R", USER + ":" + USER, dir.toString()));
            cmd.addAll(List.of("runuser", "-u", USER, "--"));
        }
        cmd.addAll(List.of("env", "ES_JAVA_HOME=" + System.getProperty("java.home"), "ES_PATH_CONF=" + conf,
                "ES_JAVA_OPTS=-Xms512m -Xmx512m", "bash", home.resolve("bin/elasticsearch").toString(), "-d", "-p",
                pidFile.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("launcher.log").toFile()).start();
        if (!p.waitFor(START_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("Elasticsearch did not start in " + START_TIMEOUT_SECONDS + " s" + logTail());
        }
        if (Files.exists(pidFile)) {
            pid = Long.parseLong(Files.readString(pidFile).trim());
        }
        if (shutdownHook == null) {
            shutdownHook = new Thread(this::stop, "es-stop-" + port);
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
        if (p.exitValue() != 0 || pid <= 0) {
            stop();
            throw new IOException("Elasticsearch failed to start (exit " + p.exitValue() + ")" + logTail());
        }
        // the launcher returns once the node has started; health says when its HTTP side answers
        if (!Conditions.await(this::healthy, Duration.ofSeconds(START_TIMEOUT_SECONDS))) {
            stop();
            throw new IOException("Elasticsearch not ready in " + START_TIMEOUT_SECONDS + " s" + logTail());
        }
    }

    private boolean healthy() {
        try {
            return request("GET", "/_cluster/health?wait_for_status=yellow&timeout=5s", null).status() == 200;
        } catch (IOException e) {
            return false; // not listening yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A self-signed certificate for 127.0.0.1, the file-realm user, and an HTTP client that trusts and uses them. */
    private void secure(Path conf) throws IOException, InterruptedException {
        Commands.run(List.of("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "3", "-subj",
                "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout",
                conf.resolve("http.key").toString(), "-out", conf.resolve("http.crt").toString()));
        Commands.run(List.of("env", "ES_JAVA_HOME=" + System.getProperty("java.home"), "ES_PATH_CONF=" + conf, "bash",
                home.resolve("bin/elasticsearch-users").toString(), "useradd", USER_NAME, "-p", PASSWORD, "-r",
                "superuser"));
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .sslContext(ElasticsearchClients.sslContext(conf.resolve("http.crt"))).build();
    }

    /** Stops the server with SIGTERM and waits for the process to end (its data stays). */
    public void stop() {
        if (pid <= 0) {
            return;
        }
        ProcessHandle.of(pid).ifPresent(h -> {
            h.destroy();
            try {
                h.onExit().get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
                h.destroyForcibly();
            }
        });
        pid = -1;
    }

    @Override
    public void close() {
        stop();
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // already shutting down
            }
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    public record Response(int status, String body) {
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A REST call with a JSON body (or none). */
    public Response request(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(
                        (USER_NAME + ":" + PASSWORD).getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Response(r.statusCode(), r.body());
    }

    /** A REST call that must answer 2xx. */
    public JsonNode call(String method, String path, String body) throws IOException, InterruptedException {
        Response r = request(method, path, body);
        if (r.status() / 100 != 2) {
            throw new IOException(method + " " + path + " answered " + r.status() + ": " + r.body());
        }
        return r.json();
    }

    /** Documents in {@code index} (a name or pattern) after a refresh. */
    public long count(String index) throws IOException, InterruptedException {
        call("POST", "/" + index + "/_refresh", null);
        return call("GET", "/" + index + "/_count", null).get("count").asLong();
    }

    /** Every document's {@code _source} in {@code index} (at most 10,000), after a refresh. */
    public List<JsonNode> documents(String index) throws IOException, InterruptedException {
        call("POST", "/" + index + "/_refresh", null);
        JsonNode hits = call("GET", "/" + index + "/_search?size=10000", null).get("hits").get("hits");
        List<JsonNode> out = new ArrayList<>();
        hits.forEach(h -> out.add(h.get("_source")));
        return out;
    }

    private String logTail() {
        StringBuilder s = new StringBuilder();
        for (Path log : List.of(dir.resolve("launcher.log"), dir.resolve("logs/logrouter-test.log"))) {
            try {
                List<String> lines = Files.readAllLines(log);
                s.append("\n--- ").append(log).append(" (tail) ---\n")
                        .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
            } catch (IOException e) {
                // no such log
            }
        }
        return s.toString();
    }

    private static void ensureUser() throws IOException, InterruptedException {
        if (new ProcessBuilder("id", "-u", USER).start().waitFor() == 0) {
            return;
        }
        int rc = new ProcessBuilder("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER)
                .redirectErrorStream(true).start().waitFor();
        if (rc != 0 && rc != 9) { // 9: the user exists (created meanwhile)
            throw new IOException("useradd " + USER + " failed with exit " + rc);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }

}
