package dev.logrouter.host.journald;

import dev.logrouter.core.config.ComponentRegistry;
import dev.logrouter.core.option.ConfigException;
import dev.logrouter.core.config.ConfigLoader;
import dev.logrouter.core.config.TestFileSinkConfig;
import dev.logrouter.host.HostComponents;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code type: journald} as the configuration loader reads it: defaults, the hints for syslog-ng's and rsyslog's
 * names, and refused values.
 *
 * <p>Threads: the test thread.
 */
class JournaldSourceConfigTest {

    private static final String SINK = "sinks:\n  - type: file\n    name: out\n    path: /tmp/x.log\n";

    private static ConfigLoader loader() {
        ComponentRegistry r = new ComponentRegistry();
        new HostComponents().register(r);
        r.sink("file", TestFileSinkConfig.class);
        return r.loader();
    }

    @Test
    void defaults() throws Exception {
        var cfg = loader().load("sources:\n  - type: journald\n    name: j\n" + SINK, "t.yaml");
        JournaldSourceConfig j = (JournaldSourceConfig) cfg.sources().get(0);
        assertThat(j.journalctl()).isEqualTo("journalctl");
        assertThat(j.directory()).isNull();
        assertThat(j.units()).isEmpty();
        assertThat(j.match()).isEmpty();
        assertThat(j.startAt()).isEqualTo(JournaldSourceConfig.StartAt.end);
        assertThat(j.cursorFile()).isEqualTo(Path.of("data/checkpoints/j.cursor"));
        assertThat(j.cursorInterval().millis()).isEqualTo(1000);
        assertThat(j.maxMessageSize().bytes()).isEqualTo(64 << 10);
        assertThat(j.prefix()).isEqualTo(".journald.");
        assertThat(new JournaldSource(j, null, () -> -1, 0, java.time.ZoneOffset.UTC,
                new dev.logrouter.core.metrics.MetricGroup("Source", "j")).command(null))
                .containsExactly("journalctl", "--output=json", "--all", "--follow", "--no-pager", "--lines=0");
    }

    @Test
    void optionsBecomeJournalctlArguments() throws Exception {
        var cfg = loader().load("sources:\n  - type: journald\n    name: j\n    directory: /d\n"
                + "    units: [a.service]\n    match: [_TRANSPORT=kernel, +, PRIORITY=3]\n    start-at: beginning\n"
                + SINK, "t.yaml");
        JournaldSource s = new JournaldSource((JournaldSourceConfig) cfg.sources().get(0), null, () -> -1, 0,
                java.time.ZoneOffset.UTC, new dev.logrouter.core.metrics.MetricGroup("Source", "j"));
        assertThat(s.command(null)).containsExactly("journalctl", "--output=json", "--all", "--follow",
                "--no-pager", "--directory=/d", "--lines=all", "--unit=a.service", "_TRANSPORT=kernel", "+",
                "PRIORITY=3");
        assertThat(s.command("s=1;i=2")).contains("--after-cursor=s=1;i=2").doesNotContain("--lines=all");
    }

    @Test
    void syslogNgAndRsyslogNamesPointHere() {
        for (String type : List.of("systemd-journal", "imjournal")) {
            Throwable t = catchThrowable(() -> loader().load("sources:\n  - type: " + type + "\n    name: j\n"
                    + SINK, "t.yaml"));
            assertThat(t).isInstanceOf(ConfigException.class).hasMessageContaining("type: journald");
        }
    }

    @Test
    void refusesAMatchWithoutAFieldName() {
        Throwable t = catchThrowable(() -> loader().load("sources:\n  - type: journald\n    name: j\n"
                + "    match: [ssh]\n" + SINK, "t.yaml"));
        assertThat(t).isInstanceOf(ConfigException.class).hasMessageContaining("FIELD=value");
    }
}
