package dev.logrouter.server;

import org.slf4j.bridge.SLF4JBridgeHandler;

import java.util.List;
import java.util.Locale;

/**
 * The router's log: one backend, one line format, one level setting, applied once per process before anything
 * logs.
 *
 * <p>Every diagnostic ends in slf4j-simple, which writes one line per record to stderr in the format of
 * {@code simplelogger.properties}: time (ISO-8601 with offset), thread, level, logger, message:
 * <pre>
 *   2026-03-02T10:15:30.123+01:00 [sink-files] WARN dev.logrouter.core.pipeline.SinkHandler - sink files: ...
 * </pre>
 * The router's modules log through {@link System.Logger} (logger = class name; no dependency in the modules), which
 * {@code slf4j-jdk-platform-logging} (the {@code System.LoggerFinder} service) hands to SLF4J, as it does the JDK's
 * own; the libraries log through SLF4J (Kafka and Hadoop clients, Netty), commons-logging 1.3, which finds SLF4J
 * (Elasticsearch client), or {@code java.util.logging} (the Guava and protobuf shaded into the Hadoop and Kafka
 * clients), which {@link #configure} hands to SLF4J.
 *
 * <p>The level applies to the router's loggers ({@code dev.logrouter.*}); the libraries stay at {@code warn}, or
 * {@code error} when the level is {@code error}. Without a level the defaults of {@code simplelogger.properties}
 * hold: the router at {@code info}, the libraries at {@code warn}. One library is made more verbose with its own
 * system property, e.g. {@code -Dorg.slf4j.simpleLogger.log.org.apache.kafka=debug}.
 *
 * <p><b>Once, early.</b> slf4j-simple reads its settings, the libraries' level among them, when its first logger is
 * created, and each logger's own level when that logger is created; neither is read again. So the system properties
 * {@link #configure} sets must be set before the first logger of any kind exists: {@link Main} calls it with
 * {@code --log-level} right after reading its arguments, before it loads the configuration, and creates its own
 * logger only afterwards (the router's classes create theirs when they are initialized). A later call reaches only
 * the router's loggers created after it.
 *
 * <p><b>The configuration's level.</b> {@code logging.level} ({@link LoggingConfig}) is applied by calling
 * {@code configure(config.logging().level())} when no {@code --log-level} was given (the command line overrides the
 * configuration), as soon as the YAML is bound: before {@code Main.compiled} checks the routes, PatternDB files, TLS
 * files and JMX settings (the first loggers are created there: {@code PatternDbService}, {@code RemoteJmx}, Netty's)
 * and before the {@link Router} is built. Binding the YAML creates no logger (checked with {@code -verbose:class} on
 * every example configuration), so then the level reaches every logger, the libraries' included.
 *
 * <p>Threads: the main thread, before the router starts.
 */
public final class Logging {

    /** The accepted levels, from the fewest lines to the most. */
    public static final List<String> LEVELS = List.of("error", "warn", "info", "debug", "trace");

    /** slf4j-simple's level for the loggers whose names start with {@code dev.logrouter}. */
    static final String ROUTER_LEVEL_PROPERTY = "org.slf4j.simpleLogger.log.dev.logrouter";
    /** slf4j-simple's level for every other logger: the libraries'. */
    static final String DEFAULT_LEVEL_PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";

    private Logging() {
    }

    /**
     * Sets the level of the router's diagnostics (and {@code error} for the libraries when it is {@code error}) as
     * system properties that slf4j-simple reads when its loggers are created, so before anything logs (see above);
     * null leaves the levels of {@code simplelogger.properties}. Either way hands {@code java.util.logging} to SLF4J
     * (once per process: its console handler, with a format of its own, is removed).
     *
     * @param level one of {@link #LEVELS} in any case, or null
     * @throws IllegalArgumentException for another level
     */
    public static synchronized void configure(String level) {
        if (level != null) {
            String l;
            try {
                l = checkLevel(level);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("log level " + e.getMessage(), e);
            }
            System.setProperty(ROUTER_LEVEL_PROPERTY, l);
            System.setProperty(DEFAULT_LEVEL_PROPERTY, l.equals("error") ? "error" : "warn");
        }
        if (!SLF4JBridgeHandler.isInstalled()) { // creates no SLF4J logger: one per record, when it is published
            SLF4JBridgeHandler.removeHandlersForRootLogger();
            SLF4JBridgeHandler.install();
        }
    }

    /**
     * {@code level} in lower case when it is one of {@link #LEVELS} (in any case).
     *
     * @throws IllegalArgumentException "must be one of …, not '…'" otherwise, for the caller to prefix with what
     *         the level was given as
     */
    public static String checkLevel(String level) {
        String l = level.toLowerCase(Locale.ROOT);
        if (!LEVELS.contains(l)) {
            throw new IllegalArgumentException("must be one of " + String.join(", ", LEVELS) + ", not '" + level + "'");
        }
        return l;
    }
}
