package dev.logrouter.core.config;

/**
 * JMX exposure. Counters are always registered on the platform MBean server (local attach, jconsole,
 * the {@code stats} command); remote JMX is not offered in this version.
 *
 * <p>Threads: immutable, any thread.
 */
public record JmxConfig(
        @Option(doc = "0 = local attach only. Remote JMX (port > 0) is not supported yet.", defaultValue = "0")
        Integer port,
        @Option(doc = "Address for remote JMX.", defaultValue = "127.0.0.1")
        String bind) {

    public JmxConfig {
        if (port != null && port != 0) {
            throw new IllegalArgumentException("remote JMX (port > 0) is not supported yet; use port: 0 and attach "
                    + "locally (jconsole, the stats command)");
        }
    }
}
