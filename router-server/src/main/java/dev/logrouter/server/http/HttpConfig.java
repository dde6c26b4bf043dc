package dev.logrouter.server.http;

import dev.logrouter.core.option.Option;
import dev.logrouter.server.jmx.JmxTlsConfig;

/**
 * The {@code monitoring.http} section: an HTTP (or, with {@code tls}, HTTPS) listener serving {@code GET /metrics}
 * (Prometheus text format) and {@code GET /health} ({@link MonitoringHttp}). Off unless the section is given;
 * {@code port: 0} takes a free port (tests). The password file and the TLS options are those of remote JMX.
 *
 * <p>Threads: immutable, any thread.
 */
public record HttpConfig(
        @Option(doc = "Port of the /metrics and /health listener (0: a free port, for tests). The listener is off "
                + "unless monitoring.http is given.", defaultValue = Option.REQUIRED)
        Integer port,
        @Option(doc = "Address the listener binds (0.0.0.0 for every interface, e.g. in a container that "
                + "Prometheus scrapes from outside).", defaultValue = "127.0.0.1")
        String bind,
        @Option(doc = "Users and passwords for HTTP basic authentication, one 'user password' per line: the format "
                + "of monitoring.jmx.password-file (clear text, or the JDK's salted hashes 'user salt hash "
                + "algorithm'), which may be the same file. Must not be readable by group or others. Without it the endpoints "
                + "need no authentication (they are read-only).", defaultValue = Option.NONE)
        String passwordFile,
        @Option(doc = "HTTPS: the key store and TLS options of monitoring.jmx.tls. Without it the listener speaks "
                + "plain HTTP, and with password-file passwords cross the network in the clear.",
                defaultValue = Option.NONE)
        JmxTlsConfig tls) {

    /** Checks the options; null means "not given yet" (the loader builds records once before filling defaults). */
    public HttpConfig {
        if (port != null && (port < 0 || port > 65535)) {
            throw new IllegalArgumentException("port must be 0..65535, not " + port);
        }
    }
}
