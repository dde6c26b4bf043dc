package dev.logrouter.server.jmx;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.management.JMException;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import javax.rmi.ssl.SslRMIClientSocketFactory;

/**
 * {@code logrouter stats}: the {@code syslog-ng-ctl stats} of logrouter. It connects to a running router over JMX
 * (remote with {@code --jmx HOST:PORT}, or by local attach to {@code --pid PID}, or to the one local router
 * it finds), reads every logrouter MBean and prints them as a table, JSON or Prometheus text.
 *
 * <pre>
 *   stats [--jmx HOST:PORT | --pid PID] [--format table|json|prometheus]
 *         [--user USER [--password-file FILE]] [--tls]
 * </pre>
 *
 * The password is read from {@code --password-file} (its first line) or the environment variable
 * {@code LOGROUTER_JMX_PASSWORD}, never from the command line (which other users can see). {@code --tls}
 * speaks TLS to the registry and the connector; the trust store is the JVM's
 * ({@code -Djavax.net.ssl.trustStore=…}). Exit status: 0 printed, 1 router unreachable or not a router,
 * 2 bad arguments.
 *
 * <p>Threads: the main thread; one helper thread bounds the connection time.
 */
public final class StatsCommand {

    /** How long connecting and reading may take before the router counts as unreachable. */
    static final long CONNECT_TIMEOUT_SECONDS = 15;
    /**
     * How long {@code reload} may take (a source's connections draining, the switch waiting behind a retrying sink:
     * up to three times the router's 60 s stop timeout).
     */
    static final long OPERATION_TIMEOUT_SECONDS = 200;
    /** The JDK's JNDI factory for {@code rmi://} registries (module jdk.naming.rmi, found by ServiceLoader). */
    public static final String REGISTRY_CONTEXT_FACTORY = "com.sun.jndi.rmi.registry.RegistryContextFactory";

    private StatsCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run("stats", null, args, out, err);
    }

    /**
     * {@code logrouter reload} / {@code logrouter reopen}: finds the router as {@code stats} does and invokes the
     * operation {@code operation} of its {@code type=Router,name=main} MBean; prints its answer. Exit status: 0 done,
     * 1 refused (a reload the router refused) or router unreachable, 2 bad arguments.
     */
    public static int control(String operation, String[] args, PrintStream out, PrintStream err) {
        return run(operation, operation, args, out, err);
    }

    private static int run(String command, String operation, String[] args, PrintStream out, PrintStream err) {
        String jmx = null;
        String pid = null;
        String user = null;
        String passwordFile = null;
        boolean tls = false;
        StatsFormat format = StatsFormat.TABLE;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--jmx" -> jmx = value(args, ++i);
                    case "--pid" -> pid = value(args, ++i);
                    case "--format" -> {
                        if (operation != null) {
                            throw new IllegalArgumentException("--format applies to stats only");
                        }
                        format = StatsFormat.parse(value(args, ++i));
                    }
                    case "--user" -> user = value(args, ++i);
                    case "--password-file" -> passwordFile = value(args, ++i);
                    case "--tls" -> tls = true;
                    default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
                }
            }
            if (jmx != null && pid != null) {
                throw new IllegalArgumentException("--jmx and --pid exclude each other");
            }
            if (jmx == null && (user != null || tls)) {
                throw new IllegalArgumentException("--user and --tls apply to --jmx only");
            }
        } catch (IllegalArgumentException e) {
            err.println("logrouter " + command + ": " + e.getMessage());
            err.println("usage: logrouter.jar " + command + " [--jmx HOST:PORT | --pid PID]"
                    + (operation == null ? " [--format table|json|prometheus]" : "")
                    + " [--user USER [--password-file FILE]] [--tls]");
            return 2;
        }
        String target = jmx != null ? jmx : pid != null ? "pid " + pid : "the local router";
        Stats stats;
        try {
            String password = null;
            if (user != null) {
                password = passwordFile != null
                        ? Files.readAllLines(Path.of(passwordFile), StandardCharsets.UTF_8).stream().findFirst().orElse("")
                        : System.getenv("LOGROUTER_JMX_PASSWORD");
                if (password == null) {
                    err.println("logrouter " + command + ": --user needs --password-file FILE or LOGROUTER_JMX_PASSWORD");
                    return 2;
                }
            }
            JMXServiceURL url = jmx != null ? remoteUrl(jmx) : localUrl(pid);
            if (operation != null) {
                String answer = call(url, user, password, tls, OPERATION_TIMEOUT_SECONDS, c -> String.valueOf(c.invoke(
                        dev.logrouter.core.metrics.MetricRegistry.objectName("Router", "main"), operation,
                        new Object[0], new String[0])));
                out.println(answer);
                out.flush();
                return answer.startsWith("refused") || answer.startsWith("partly") ? 1 : 0;
            }
            stats = read(url, user, password, tls);
        } catch (IOException | JMException | RuntimeException e) {
            err.println("logrouter " + command + (operation == null ? ": cannot read " : ": cannot reach ") + target + ": " + message(e));
            return 1;
        }
        if (stats.beans().isEmpty()) {
            err.println("logrouter stats: " + target + " has no logrouter MBeans (not a running router?)");
            return 1;
        }
        out.print(format.render(stats));
        out.flush();
        return 0;
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    static JMXServiceURL remoteUrl(String hostPort) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new IllegalArgumentException("--jmx wants HOST:PORT, not '" + hostPort + "'");
        }
        return new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + hostPort + "/jmxrmi");
    }

    /**
     * The local connector address of a JVM by pid (or of the one local router), through {@link LocalAttach}.
     * A JRE has no {@code jdk.attach} module: this class must not name its types, or {@code stats --jmx} would
     * fail to link on a JRE (the container image's runtime) too.
     */
    static JMXServiceURL localUrl(String pid) throws IOException {
        try {
            return LocalAttach.url(pid);
        } catch (NoClassDefFoundError e) {
            throw new IOException("attaching to a local process needs the jdk.attach module, which this Java "
                    + "runtime lacks (a JRE); give --jmx HOST:PORT (monitoring.jmx.port), or run stats with a JDK");
        }
    }

    /** Connects, reads every logrouter MBean and disconnects, all within {@link #CONNECT_TIMEOUT_SECONDS}. */
    static Stats read(JMXServiceURL url, String user, String password, boolean tls) throws IOException, JMException {
        return call(url, user, password, tls, CONNECT_TIMEOUT_SECONDS, Stats::read);
    }

    /** What is done over one JMX connection. */
    interface JmxCall<T> {
        T on(javax.management.MBeanServerConnection c) throws IOException, JMException;
    }

    /** Connects, runs {@code what} and disconnects, all within {@code timeoutSeconds}. */
    static <T> T call(JMXServiceURL url, String user, String password, boolean tls, long timeoutSeconds,
                      JmxCall<T> what) throws IOException, JMException {
        Map<String, Object> env = new HashMap<>();
        // the JDK's RMI registry context, whatever a jndi.properties on the class path names (Jetty ships one)
        env.put(javax.naming.Context.INITIAL_CONTEXT_FACTORY, REGISTRY_CONTEXT_FACTORY);
        if (user != null) {
            env.put(JMXConnector.CREDENTIALS, new String[] {user, password});
        }
        if (tls) {
            env.put("com.sun.jndi.rmi.factory.socket", new SslRMIClientSocketFactory());
        }
        ExecutorService connecting = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "stats-connect");
            t.setDaemon(true);
            return t;
        });
        try {
            Future<T> f = connecting.submit(() -> {
                try (JMXConnector connector = JMXConnectorFactory.connect(url, env)) {
                    return what.on(connector.getMBeanServerConnection());
                }
            });
            try {
                return f.get(timeoutSeconds, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                f.cancel(true);
                throw new IOException("no answer within " + timeoutSeconds + " s from " + url);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                if (e.getCause() instanceof JMException jm) {
                    throw jm;
                }
                if (e.getCause() instanceof SecurityException se) {
                    throw new IOException("refused: " + se.getMessage(), se);
                }
                throw new IOException(String.valueOf(e.getCause()), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        } finally {
            connecting.shutdownNow();
        }
    }

    /** The innermost useful message of a connection failure ("Connection refused to host: …"). */
    private static String message(Throwable e) {
        Throwable t = e;
        String m = String.valueOf(e.getMessage());
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
            if (t.getMessage() != null) {
                m = t.getMessage();
            }
        }
        return m + (t instanceof java.net.ConnectException || t instanceof java.rmi.ConnectException
                ? " (is the router running, with monitoring.jmx.port set?)" : "");
    }
}
