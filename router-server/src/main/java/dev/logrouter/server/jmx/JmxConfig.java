package dev.logrouter.server.jmx;

import dev.logrouter.core.option.Option;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * JMX exposure. Counters are always registered on the platform MBean server (local attach, jconsole,
 * the {@code stats} command); {@code port > 0} also opens a remote JMX (RMI) connector on {@code bind}.
 * Without a password file the connector may only listen on a loopback address: that rule is checked here,
 * so that {@code check-config} refuses such a configuration.
 *
 * <p>Threads: immutable, any thread.
 */
public record JmxConfig(
        @Option(doc = "0 = local attach only (jconsole, the stats command by pid). A port > 0 opens remote JMX: "
                + "the RMI registry and the connector both listen on this one port.", defaultValue = "0")
        Integer port,
        @Option(doc = "Address remote JMX listens on. Any address that is not loopback needs password-file.",
                defaultValue = "127.0.0.1")
        String bind,
        @Option(doc = "Users and passwords, one 'user password' per line (the JDK's jmxremote.password format: clear "
                + "text, or the JDK's salted hashes; the file is never rewritten). Must not be readable by group or others. Without it remote JMX is unauthenticated, which only a "
                + "loopback bind allows.", defaultValue = Option.NONE)
        String passwordFile,
        @Option(doc = "Access levels, one 'user readonly|readwrite' per line (the JDK's jmxremote.access format); "
                + "readonly users cannot invoke operations (reset, flush, reload). Without it every user of "
                + "password-file has readwrite access.", defaultValue = Option.NONE)
        String accessFile,
        @Option(doc = "TLS for remote JMX (registry and connector), see monitoring.jmx.tls. Without it remote JMX "
                + "is plaintext: passwords cross the network in the clear.", defaultValue = Option.NONE)
        JmxTlsConfig tls) {

    /** Checks the options; null means "not given yet" (the loader builds records once before filling defaults). */
    public JmxConfig {
        int p = port == null ? 0 : port;
        if (p < 0 || p > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, not " + p);
        }
        if (p > 0 && passwordFile == null && bind != null && !isLoopback(bind)) {
            throw new IllegalArgumentException("refusing unauthenticated remote JMX on " + bind + ":" + p
                    + ": " + bind + " is not a loopback address, so anyone who reaches the port could read every "
                    + "counter and invoke reset, flush and reload; set password-file (and tls), or bind: 127.0.0.1");
        }
        if (port != null && p == 0 && (passwordFile != null || accessFile != null || tls != null)) {
            throw new IllegalArgumentException("password-file, access-file and tls apply to remote JMX only: "
                    + "set port > 0, or leave them out");
        }
        if (accessFile != null && passwordFile == null) {
            throw new IllegalArgumentException("access-file needs password-file");
        }
    }

    /** True when remote JMX is configured. */
    public boolean remote() {
        return port != null && port > 0;
    }

    private static boolean isLoopback(String address) {
        try {
            for (InetAddress a : InetAddress.getAllByName(address)) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("bind: cannot resolve '" + address + "'", e);
        }
    }
}
