package dev.logrouter.server;

import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.option.ConfigException;
import dev.logrouter.core.source.Source;
import dev.logrouter.server.jmx.MonitoringConfig;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Command line of {@code logrouter.jar}:
 *
 * <pre>
 *   run [--config FILE] [--log-level LEVEL]            start the router (default config/router.yaml, else
 *                                                      the embedded default)
 *   check-config [--config FILE] [--log-level LEVEL]   validate a configuration and exit (0 = valid, 1 = invalid)
 *   config-reference                every option, as Markdown
 *   stats [--jmx HOST:PORT | --pid PID] [--format table|json|prometheus]   every counter of a running router
 *   reload [--jmx HOST:PORT | --pid PID]   apply the changed configuration file to a running router (as SIGHUP)
 *   reopen [--jmx HOST:PORT | --pid PID]   make a running router's file sinks reopen their files (as SIGUSR1)
 *   pdb match|test|dump ...         the PatternDB tool (pdbtool's commands)
 *   test [--config FILE] --input FILE [--source NAME] [--format text|json] [--expect FILE] [--now TIME]
 *                                   sample messages through the configuration offline: what each sink would write
 *                                   ({@link TestCommand}; 0 = done or equal to --expect, 1 = differs or invalid)
 * </pre>
 *
 * SIGTERM or SIGINT stop the router cleanly (stop accepting, drain the ring, flush and close sinks)
 * and the process exits 0 when nothing was abandoned. SIGHUP reloads the configuration file ({@link Router#reload()}),
 * SIGUSR1 reopens the file sinks' files ({@link Router#reopen()}).
 *
 * <p>What a command answers (usage, a bad argument, an invalid configuration, {@code check-config}'s verdict, the
 * output of {@code stats}, {@code pdb} and {@code config-reference}) is printed as it is. What the router reports
 * while it runs (start, listening addresses, stop, the counters at exit, and every diagnostic of its components)
 * is logged, one line each with time, level and logger ({@link Logging}); {@code --log-level} (error, warn,
 * info, debug, trace; default info) sets how much.
 *
 * <p>Threads: the main thread runs the command and then waits; the signal handler thread stops the
 * router.
 */
public final class Main {

    static final String DEFAULT_CONFIG = "config/router.yaml";
    static final String EMBEDDED_CONFIG = "/router.yaml";

    private Main() {
    }

    public static void main(String[] args) {
        int code;
        try {
            code = run(args, System.out, System.err);
        } catch (Exception | Error e) {
            // e.g. a port in use: say why and end the process (threads already started must not keep it alive)
            log().log(Level.ERROR, e.toString());
            code = 1;
        }
        System.exit(code);
    }

    /**
     * Main's logger, created when first used: after {@link Logging#configure}, which a logger created in Main's
     * static initializer would precede (slf4j-simple reads its levels when a logger is created).
     */
    private static System.Logger log() {
        return System.getLogger(Main.class.getName());
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 0) {
            usage(err);
            return 2;
        }
        String command = args[0];
        if (command.equals("stats")) {
            return dev.logrouter.server.jmx.StatsCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length),
                    out, err);
        }
        if (command.equals("reload") || command.equals("reopen")) {
            return dev.logrouter.server.jmx.StatsCommand.control(command,
                    java.util.Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (command.equals("test")) {
            return TestCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (command.equals("pdb")) {
            return dev.logrouter.patterndb.cli.PdbCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length),
                    out, err);
        }
        String configFile = null;
        String logLevel = null;
        for (int i = 1; i < args.length; i++) {
            if ((args[i].equals("--config") || args[i].equals("-c")) && i + 1 < args.length) {
                configFile = args[++i];
            } else if (args[i].equals("--log-level") && i + 1 < args.length) {
                try {
                    logLevel = Logging.checkLevel(args[++i]);
                } catch (IllegalArgumentException e) {
                    err.println("logrouter: --log-level " + e.getMessage());
                    usage(err);
                    return 2;
                }
            } else {
                err.println("logrouter: unknown argument '" + args[i] + "'");
                usage(err);
                return 2;
            }
        }
        Logging.configure(logLevel); // before anything logs: see Logging
        switch (command) {
            case "run":
                return runRouter(configFile, logLevel, err);
            case "check-config":
                return checkConfig(configFile, logLevel, out, err);
            case "config-reference":
                out.print(ComponentTypes.reference());
                return 0;
            case "help":
            case "--help":
            case "-h":
                usage(out);
                return 0;
            default:
                err.println("logrouter: unknown command '" + command + "'");
                usage(err);
                return 2;
        }
    }

    private static void usage(PrintStream s) {
        s.println("usage: java -jar logrouter.jar run [--config FILE] [--log-level LEVEL]");
        s.println("       java -jar logrouter.jar check-config [--config FILE] [--log-level LEVEL]");
        s.println("       java -jar logrouter.jar config-reference    (every option, as Markdown)");
        s.println("       java -jar logrouter.jar stats [--jmx HOST:PORT | --pid PID] [--format table|json|prometheus]");
        s.println("                 [--user USER [--password-file FILE]] [--tls]   (counters of a running router)");
        s.println("       java -jar logrouter.jar reload|reopen [--jmx HOST:PORT | --pid PID]   (as SIGHUP / SIGUSR1)");
        s.println("       java -jar logrouter.jar pdb match|test|dump ...   (PatternDB tool, like pdbtool; pdb help)");
        s.println("       java -jar logrouter.jar test [--config FILE] --input FILE|- [--source NAME]");
        s.println("                 [--format text|json] [--expect FILE] [--now TIME]   (what each sink would write,");
        s.println("                 offline; for CI)");
        s.println("Default FILE: " + DEFAULT_CONFIG + " if it exists, else the embedded default configuration.");
        s.println("LEVEL of the router's diagnostics on stderr: " + String.join("|", Logging.LEVELS)
                + " (default info; libraries log warnings and errors)");
    }

    static RouterConfig load(String configFile) throws ConfigException, IOException {
        return load(configFile, null);
    }

    /**
     * Loads and checks the configuration; the file's {@code logging.level} is applied unless {@code commandLineLevel}
     * (from {@code --log-level}) is set.
     */
    static RouterConfig load(String configFile, String commandLineLevel) throws ConfigException, IOException {
        if (configFile == null && !Files.exists(Path.of(DEFAULT_CONFIG))) {
            try (InputStream in = Main.class.getResourceAsStream(EMBEDDED_CONFIG)) {
                if (in == null) {
                    throw new ConfigException("no " + DEFAULT_CONFIG + " and no embedded default configuration");
                }
                RouterConfig cfg = withLogLevel(ComponentTypes.loader().load(new String(in.readAllBytes(),
                        StandardCharsets.UTF_8), "embedded:router.yaml"), commandLineLevel);
                log().log(Level.WARNING, DEFAULT_CONFIG + " not found, using the embedded default configuration");
                return compiled(cfg, "embedded:router.yaml");
            }
        }
        String file = configFile == null ? DEFAULT_CONFIG : configFile;
        return compiled(withLogLevel(ComponentTypes.loader().load(Path.of(file)), commandLineLevel), file);
    }

    /** {@code 1 sink}, {@code 2 sinks}, {@code 0 sinks}: a count with its noun in the right number. */
    static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    /**
     * Applies the file's {@code logging.level}, when it sets one and the command line did not, before anything logs
     * (the checks that follow create loggers).
     */
    private static RouterConfig withLogLevel(RouterConfig cfg, String commandLineLevel) {
        String level = LoggingConfig.of(cfg).level();
        if (commandLineLevel == null && level != null) {
            Logging.configure(level);
        }
        return cfg;
    }

    /** Compiles the routes once (filters, regexes, parser options) so that their errors are config errors. */
    private static RouterConfig compiled(RouterConfig cfg, String origin) throws ConfigException {
        try {
            Router.compileRoutes(cfg, new dev.logrouter.core.metrics.MetricRegistry());
            dev.logrouter.server.jmx.RemoteJmx.check(MonitoringConfig.of(cfg).jmx());
            dev.logrouter.server.http.MonitoringHttp.check(MonitoringConfig.of(cfg).http());
            for (var source : cfg.sources()) {
                try {
                    source.check(); // loads the files it will read: bad ones fail here
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("source " + source.name() + ": " + e.getMessage(), e);
                }
            }
            for (var sink : cfg.sinks()) {
                try {
                    sink.check(); // loads the files it will read: bad ones fail here
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("sink " + sink.name() + ": " + e.getMessage(), e);
                }
            }
        } catch (IllegalArgumentException e) {
            throw new ConfigException(origin + ": " + e.getMessage(), e);
        }
        return cfg;
    }

    private static int checkConfig(String configFile, String logLevel, PrintStream out, PrintStream err)
            throws IOException {
        try {
            RouterConfig cfg = load(configFile, logLevel);
            out.println("configuration OK: " + count(cfg.sources().size(), "source") + ", "
                    + count(cfg.sinks().size(), "sink") + ", " + count(cfg.routes().size(), "route"));
            return 0;
        } catch (ConfigException e) {
            err.println("logrouter: invalid configuration: " + e.getMessage());
            return 1;
        }
    }

    private static int runRouter(String configFile, String logLevel, PrintStream err) throws Exception {
        RouterConfig cfg;
        try {
            cfg = load(configFile, logLevel);
        } catch (ConfigException e) {
            err.println("logrouter: invalid configuration: " + e.getMessage());
            return 1;
        }
        Router router = new Router(cfg);
        CountDownLatch stopped = new CountDownLatch(1);
        boolean[] clean = {true};
        System.Logger log = log();
        Runnable stop = () -> {
            try {
                log.log(Level.INFO, "stopping: no longer accepting, draining the ring, flushing sinks");
                java.util.Map<String, Long> before = StopSummary.snapshot(router.metrics());
                clean[0] = router.stop();
                for (var g : router.metrics().groups()) {
                    StringBuilder line = new StringBuilder("stats ").append(g.type()).append(' ')
                            .append(g.name()).append(':');
                    for (var m : g.metrics()) {
                        line.append(' ').append(m.name()).append('=').append(m.value().getAsLong());
                    }
                    log.log(Level.INFO, line.toString());
                }
                // the last line says what was lost, and the exit status follows it: never "cleanly" with a loss
                String abandoned = StopSummary.abandoned(router.metrics(), before);
                if (clean[0] && abandoned.isEmpty()) {
                    log.log(Level.INFO, "stopped cleanly");
                } else {
                    clean[0] = false;
                    log.log(Level.ERROR, "stopped, abandoning " + (abandoned.isEmpty()
                            ? "what the sinks had not flushed" : abandoned) + " (stop-timeout "
                            + router.config().pipeline().stopTimeoutOrDefault() + "; exit 1)");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                clean[0] = false;
            } catch (RuntimeException | Error e) {
                clean[0] = false;
                log.log(Level.ERROR, "error while stopping: " + e, e);
            } finally {
                stopped.countDown();
            }
        };
        Signals.onTermination(stop);
        router.configSource(() -> load(configFile, logLevel));
        Signals.on("HUP", router::reload);
        Signals.on("USR1", router::reopen);
        router.start();
        for (Source s : router.sources()) {
            log.log(Level.INFO, "source " + s.name() + " listening on " + s.boundAddress());
        }
        if (router.remoteJmxUrl() != null) {
            log.log(Level.INFO, "remote JMX on " + router.remoteJmxUrl()
                    + (MonitoringConfig.of(cfg).jmx().passwordFile() == null ? " (no authentication: loopback only)" : ""));
        }
        if (router.httpUrl() != null) {
            log.log(Level.INFO, "monitoring HTTP on " + router.httpUrl() + " (/metrics, /health)"
                    + (MonitoringConfig.of(cfg).http().passwordFile() == null ? "" : ", basic authentication"));
        }
        log.log(Level.INFO, "running (ring " + cfg.pipeline().ringSize() + ", "
                + count(cfg.pipeline().parseWorkers(), "parse worker") + ", " + count(cfg.sinks().size(), "sink")
                + "); SIGTERM stops, SIGHUP reloads, SIGUSR1 reopens");
        stopped.await();
        return clean[0] ? 0 : 1;
    }
}
