package dev.logrouter.netty.unix;

import dev.logrouter.core.config.ComponentRegistry;
import dev.logrouter.core.config.ConfigLoader;
import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.option.ConfigException;
import dev.logrouter.core.source.SyslogFormat;
import dev.logrouter.netty.tcp.Framing;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code type: unix-dgram} and {@code type: unix-stream} as every build loads them (the registry of the class path):
 * defaults, the required path, perm as an octal string, and the hints for syslog-ng's and rsyslog's names.
 */
class UnixConfigTest {

    private static final String ORIGIN = "router.yaml";
    private static final String SINKS = String.join("\n",
            "sinks:",
            "  - type: syslog",
            "    name: out",
            "    hosts: [127.0.0.1:6514]",
            "");

    private final ConfigLoader loader = ComponentRegistry.load().loader();

    private RouterConfig load(String... sources) throws ConfigException {
        return loader.load("sources:\n" + String.join("\n", sources) + "\n" + SINKS, ORIGIN);
    }

    private String failure(String... sources) {
        Throwable t = catchThrowable(() -> load(sources));
        assertThat(t).isInstanceOf(ConfigException.class);
        return t.getMessage();
    }

    @Test
    void defaultsAreThoseOfSyslogNg() throws Exception {
        RouterConfig cfg = load(
                "  - type: unix-dgram",
                "    name: devlog",
                "    path: /dev/log",
                "  - type: unix-stream",
                "    name: stream",
                "    path: /run/logrouter/stream.sock",
                "    perm: \"0660\"",
                "    group: adm");
        UnixDgramSourceConfig dgram = (UnixDgramSourceConfig) cfg.sources().get(0);
        assertThat(dgram.path()).isEqualTo("/dev/log");
        assertThat(dgram.perm()).isEqualTo("0666");
        assertThat(dgram.owner()).isNull();
        assertThat(dgram.group()).isNull();
        assertThat(dgram.format()).isEqualTo(SyslogFormat.auto);
        assertThat(dgram.maxMessageSize().bytes()).isEqualTo(65536);
        assertThat(dgram.receiveBuffer().bytes()).isZero();
        UnixStreamSourceConfig stream = (UnixStreamSourceConfig) cfg.sources().get(1);
        assertThat(stream.perm()).isEqualTo("0660");
        assertThat(stream.group()).isEqualTo("adm");
        assertThat(stream.framing()).isEqualTo(Framing.auto);
        assertThat(stream.maxConnections()).isEqualTo(256);
    }

    @Test
    void permIsReadAsChmodReadsItQuotedOrNot() throws Exception {
        // the YAML scalar's text, never a number YAML made of it (0644 as octal 420, then "420")
        for (String v : new String[]{"0644", "\"0644\"", "644"}) {
            UnixDgramSourceConfig c = (UnixDgramSourceConfig) load("  - type: unix-dgram", "    name: devlog",
                    "    path: /dev/log", "    perm: " + v).sources().get(0);
            assertThat(UnixSocketFile.parsePerm(c.perm())).isEqualTo(UnixSocketFile.parsePerm("0644"));
        }
    }

    @Test
    void pathIsRequiredAndPermMustBeAnOctalMode() {
        assertThat(failure("  - type: unix-dgram", "    name: devlog")).contains("path");
        assertThat(failure("  - type: unix-stream", "    name: s", "    path: /dev/log", "    perm: \"0668\""))
                .contains("perm must be an octal mode");
        assertThat(failure("  - type: unix-dgram", "    name: devlog", "    path: /dev/log", "    perm: 0o644"))
                .contains("perm must be an octal mode");
        assertThat(failure("  - type: unix-dgram", "    name: devlog", "    path: /x/" + "y".repeat(120)))
                .contains("longer than a Unix socket address holds");
    }

    @Test
    void syslogNgAndRsyslogNamesPointHere() {
        assertThat(failure("  - type: system", "    name: s")).contains("type: unix-dgram");
        assertThat(failure("  - type: imuxsock", "    name: s")).contains("type: unix-dgram");
    }
}
