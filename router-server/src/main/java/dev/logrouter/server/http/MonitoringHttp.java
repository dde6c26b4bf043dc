package dev.logrouter.server.http;

import com.sun.net.httpserver.BasicAuthenticator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.server.jmx.JmxTlsConfig;
import dev.logrouter.server.jmx.RemoteJmx;
import dev.logrouter.server.jmx.Stats;
import dev.logrouter.server.jmx.StatsFormat;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

/**
 * The HTTP listener of {@code monitoring.http}, on the JDK's {@link HttpServer} ({@link HttpsServer} with
 * {@code tls}):
 * <ul>
 *   <li>{@code GET /metrics}: every metric of the router in the Prometheus text format 0.0.4, rendered by
 *       {@link StatsFormat#PROMETHEUS} from the in-process registry: the same text {@code stats --format prometheus}
 *       prints from JMX;</li>
 *   <li>{@code GET /health}: 200 {@code RUNNING} while the router runs and every component does its job; 503 with
 *       the state ({@code DEGRADED}, {@code STARTING}, {@code STOPPING}) and, when degraded, the reasons
 *       ({@code degradedBy}: a sink retrying, a sink stalled for {@code health.stale-after} with a backlog, a
 *       source not running or failing). {@code GET /health?verbose}: the same status code with the per-component
 *       states as JSON;</li>
 *   <li>{@code GET /status}: those states as JSON, always 200 (for people and dashboards, not probes).</li>
 * </ul>
 * Other paths answer 404, other methods than GET and HEAD 405. With {@code password-file} every request needs
 * HTTP basic authentication (401 otherwise).
 *
 * <p>Threads: started and closed by the thread that starts and stops the router; requests are served by one
 * daemon thread {@code monitoring-http-0}, which reads metrics and state (all thread-safe reads).
 */
public final class MonitoringHttp implements AutoCloseable {

    private static final Logger LOG = System.getLogger(MonitoringHttp.class.getName());
    private static final String TEXT = "text/plain; charset=utf-8";
    private static final String JSON = "application/json; charset=utf-8";
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final HttpServer server;
    private final ExecutorService executor;
    private final String url;

    private MonitoringHttp(HttpServer server, ExecutorService executor, String url) {
        this.server = server;
        this.executor = executor;
        this.url = url;
    }

    /**
     * Checks what {@link #start} reads: the password file (present, owner-only, well-formed) and the key and trust
     * stores; throws IllegalArgumentException with the reason (check-config reports it). Null: nothing to check.
     */
    public static void check(HttpConfig cfg) {
        if (cfg == null) {
            return;
        }
        if (cfg.passwordFile() != null) {
            PasswordFile.read(Path.of(cfg.passwordFile()), "monitoring.http.password-file");
        }
        if (cfg.tls() != null) {
            try {
                RemoteJmx.sslContext(cfg.tls());
            } catch (IOException | GeneralSecurityException e) {
                throw new IllegalArgumentException("monitoring.http.tls: " + e.getMessage(), e);
            }
        }
    }

    /**
     * Opens the listener on {@code cfg.bind():cfg.port()}.
     *
     * @param metrics the router's registry, read at every scrape
     * @param state   the router's state (RUNNING, DEGRADED, STARTING, STOPPING)
     * @param reason  why it is degraded ({@code degradedBy}), empty when it is not
     * @param status  the per-component states as JSON ({@code /status}, {@code /health?verbose})
     */
    public static MonitoringHttp start(HttpConfig cfg, MetricRegistry metrics, Supplier<String> state,
                                       Supplier<String> reason, Supplier<String> status) throws IOException {
        PasswordFile passwords = cfg.passwordFile() == null ? null
                : PasswordFile.read(Path.of(cfg.passwordFile()), "monitoring.http.password-file");
        String bind = cfg.bind().startsWith("[") && cfg.bind().endsWith("]")
                ? cfg.bind().substring(1, cfg.bind().length() - 1) : cfg.bind();
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(bind), cfg.port());
        HttpServer server;
        if (cfg.tls() != null) {
            SSLContext ctx;
            try {
                ctx = RemoteJmx.sslContext(cfg.tls());
            } catch (GeneralSecurityException e) {
                throw new IOException("monitoring.http.tls: " + e.getMessage(), e);
            }
            HttpsServer https = HttpsServer.create(address, 50);
            https.setHttpsConfigurator(new Configurator(ctx, cfg.tls()));
            server = https;
        } else {
            server = HttpServer.create(address, 50);
        }
        var context = server.createContext("/", exchange -> serve(exchange, metrics, state, reason, status));
        if (passwords != null) {
            context.setAuthenticator(new BasicAuthenticator("logrouter") {
                @Override
                public boolean checkCredentials(String user, String password) {
                    return passwords.matches(user, password);
                }
            });
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "monitoring-http-" + THREADS.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.start();
        InetSocketAddress bound = server.getAddress();
        String host = bound.getAddress().getHostAddress();
        String url = (cfg.tls() != null ? "https" : "http") + "://" + (host.contains(":") ? "[" + host + "]" : host)
                + ":" + bound.getPort();
        return new MonitoringHttp(server, executor, url);
    }

    /** The address the listener is bound to (its real port when configured with 0). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** {@code http(s)://HOST:PORT}, without a path. */
    public String url() {
        return url;
    }

    private static void serve(HttpExchange exchange, MetricRegistry metrics, Supplier<String> state,
                              Supplier<String> reason, Supplier<String> status) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            boolean head = method.equals("HEAD");
            if (!head && !method.equals("GET")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                reply(exchange, 405, TEXT, "method " + method + " not allowed: GET or HEAD\n", false);
                return;
            }
            switch (exchange.getRequestURI().getPath()) {
                case "/metrics" -> reply(exchange, 200, StatsFormat.PROMETHEUS_CONTENT_TYPE,
                        StatsFormat.PROMETHEUS.render(Stats.of(metrics)), head);
                case "/health" -> {
                    String s = state.get();
                    int code = s.equals("RUNNING") ? 200 : 503;
                    String query = exchange.getRequestURI().getQuery();
                    if (query != null && java.util.Arrays.asList(query.split("&")).contains("verbose")) {
                        reply(exchange, code, JSON, status.get(), head);
                    } else if (code == 200) {
                        reply(exchange, 200, TEXT, "RUNNING\n", head);
                    } else {
                        String why = reason.get();
                        reply(exchange, 503, TEXT, s + (why == null || why.isEmpty() ? "" : ": " + why) + "\n", head);
                    }
                }
                case "/status" -> reply(exchange, 200, JSON, status.get(), head);
                default -> reply(exchange, 404, TEXT, "not found: /metrics, /health or /status\n", head);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "monitoring HTTP " + exchange.getRequestURI() + ": " + e, e);
            throw e;
        }
    }

    private static void reply(HttpExchange exchange, int status, String contentType, String body, boolean head)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        if (head) {
            exchange.getResponseHeaders().set("Content-Length", Integer.toString(bytes.length));
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** Stops accepting, gives open exchanges no grace, frees the port and ends the thread. Idempotent. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    /** The TLS protocols and client-certificate rule of {@code monitoring.http.tls}. */
    private static final class Configurator extends HttpsConfigurator {
        private final JmxTlsConfig tls;

        Configurator(SSLContext context, JmxTlsConfig tls) {
            super(context);
            this.tls = tls;
        }

        @Override
        public void configure(HttpsParameters params) {
            var ssl = getSSLContext().getDefaultSSLParameters();
            ssl.setProtocols(tls.protocols().toArray(String[]::new));
            ssl.setNeedClientAuth(Boolean.TRUE.equals(tls.clientAuth()));
            params.setSSLParameters(ssl);
        }
    }
}
