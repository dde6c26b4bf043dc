package dev.logrouter.server.jmx;

import dev.logrouter.core.config.ComponentRegistry;
import dev.logrouter.core.config.ConfigLoader;
import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.option.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The {@code monitoring:} section as every build loads it (the registry of the class path): defaults and the rules of
 * remote JMX, checked when the file is loaded.
 */
class MonitoringConfigTest {

    private static final String ORIGIN = "router.yaml";

    private static final String MINIMAL = String.join("\n",
            "sources:",
            "  - type: tcp",
            "    name: in",
            "sinks:",
            "  - type: file",
            "    name: out",
            "    path: /var/log/${HOST}.log",
            "");

    private final ConfigLoader loader = ComponentRegistry.load().loader();

    private RouterConfig load(String... lines) throws ConfigException {
        return loader.load(String.join("\n", lines) + "\n", ORIGIN);
    }

    private String failure(String... lines) {
        String yaml = String.join("\n", lines) + "\n";
        Throwable t = catchThrowable(() -> loader.load(yaml, ORIGIN));
        assertThat(t).as("loading should fail:%n%s", yaml).isInstanceOf(ConfigException.class);
        return t.getMessage();
    }

    @Test
    void defaultIsLocalAttachOnly() throws Exception {
        assertThat(MonitoringConfig.of(load(MINIMAL)).jmx()).isEqualTo(new JmxConfig(0, "127.0.0.1", null, null, null));
    }

    @Test
    void remoteJmxWithoutAuthenticationOnlyOnLoopback() throws Exception {
        assertThat(failure("monitoring:", "  jmx:", "    port: 9999", "    bind: 0.0.0.0", MINIMAL))
                .contains("monitoring.jmx")
                .contains("refusing unauthenticated remote JMX on 0.0.0.0:9999: 0.0.0.0 is not a loopback address")
                .contains("set password-file (and tls), or bind: 127.0.0.1");
        assertThat(failure("monitoring:", "  jmx:", "    port: 70000", MINIMAL)).contains("port must be 0..65535");
        assertThat(failure("monitoring:", "  jmx:", "    password-file: /etc/jmx.password", MINIMAL))
                .contains("apply to remote JMX only");
        assertThat(failure("monitoring:", "  jmx:", "    port: 9999", "    access-file: /etc/jmx.access", MINIMAL))
                .contains("access-file needs password-file");
        assertThat(failure("monitoring:", "  jmx:", "    port: 9999", "    tls:", "      keystore: k.p12", MINIMAL))
                .contains("keystore-password");
        assertThat(failure("monitoring:", "  jmx:", "    port: 9999", "    tls: {keystore: k.p12, keystore-password: x,"
                + " protocols: [TLSv1.1]}", MINIMAL)).contains("only TLSv1.2 and TLSv1.3 are allowed, not TLSv1.1");

        JmxConfig loopback = load("monitoring:", "  jmx:", "    port: 9999", MINIMAL).section(MonitoringConfig.KEY, MonitoringConfig.class).jmx();
        assertThat(loopback).isEqualTo(new JmxConfig(9999, "127.0.0.1", null, null, null));
        JmxConfig open = load("monitoring:", "  jmx:", "    port: 9999", "    bind: 0.0.0.0",
                "    password-file: /etc/jmx.password", "    tls: {keystore: k.p12, keystore-password: x}", MINIMAL)
                .section(MonitoringConfig.KEY, MonitoringConfig.class).jmx();
        assertThat(open.tls()).isEqualTo(new JmxTlsConfig("k.p12", "x", "PKCS12", false, null, null,
                List.of("TLSv1.3", "TLSv1.2")));
    }
}
