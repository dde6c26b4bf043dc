package dev.logrouter.core.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.logrouter.core.config.ConfigLoader;
import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.config.TestFileSinkConfig;
import dev.logrouter.core.config.TestTcpSourceConfig;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.filter.FilterExpression;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Filters as routes use them: compiled from YAML with named filters, evaluated per message into a sink mask. */
class RouteFilterTest {

    private static final ConfigLoader LOADER = new ConfigLoader(Map.of("tcp", TestTcpSourceConfig.class),
            Map.of("file", TestFileSinkConfig.class));

    private static final String YAML = """
            sources:
              - {name: net, type: tcp}
            filters:
              f_auth: 'facility(auth, authpriv) or program("^(sshd|sudo)$")'
            routes:
              - {name: security, filter: 'filter(f_auth)', to: [auth], final: true}
              - {name: errors, filter: 'level(err..emerg) and not message("(?i)healthcheck")', to: [errors]}
              - {name: evil, filter: 'message("((a+)+)+$")', to: [errors]}
              - {name: rest, fallback: true, to: [other]}
            sinks:
              - {name: auth, type: file, path: a.log}
              - {name: errors, type: file, path: e.log}
              - {name: other, type: file, path: o.log}
            """;

    private static LogEvent event(String line) {
        LogEvent e = new LogEvent();
        e.clear();
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        e.setRaw(b, 0, b.length);
        e.setSource(0, "net".getBytes(StandardCharsets.US_ASCII), LogEvent.FORMAT_AUTO, 0);
        new SyslogHeaderParser(ZoneOffset.UTC).parse(e);
        return e;
    }

    private static Routes routes(String yaml, MetricRegistry metrics) throws Exception {
        RouterConfig cfg = LOADER.load(yaml, "test.yaml");
        return new Routes(cfg, ZoneOffset.UTC, metrics, type -> "test");
    }

    @Test
    void filtersSelectSinksFinalStopsAndFallbackTakesTheRest() throws Exception {
        MetricRegistry metrics = new MetricRegistry();
        RouteEvaluator ev = routes(YAML, metrics).newEvaluator();

        LogEvent sshErr = event("<35>Feb  5 17:32:18 web1 sshd[4721]: error: PAM: Authentication failure");
        ev.parse(sshErr);
        assertThat(sshErr.sinkMask()).isEqualTo(0b001); // security is final: errors not evaluated

        LogEvent dbErr = event("<11>Feb  5 17:32:19 db2 postgres[911]: ERROR: relation \"users\" does not exist");
        ev.parse(dbErr);
        assertThat(dbErr.sinkMask()).isEqualTo(0b010);

        LogEvent health = event("<11>Feb  5 17:32:19 lb1 haproxy[77]: HealthCheck failed for backend app");
        ev.parse(health);
        assertThat(health.sinkMask()).isEqualTo(0b100); // no route took it: fallback

        LogEvent evil = event("<14>Feb  5 17:32:19 h app: " + "a".repeat(40) + "!");
        ev.parse(evil);
        assertThat(evil.sinkMask()).isEqualTo(0b100);

        assertThat(metrics.require("Route", "security").value("matched")).isEqualTo(1);
        assertThat(metrics.require("Route", "errors").value("matched")).isEqualTo(1);
        assertThat(metrics.require("Route", "rest").value("matched")).isEqualTo(2);
        assertThat(metrics.require("Route", "evil").value(FilterExpression.BUDGET_COUNTER)).isEqualTo(1);
        assertThat(metrics.require("Route", "errors").value(FilterExpression.BUDGET_COUNTER)).isZero();
    }

    @Test
    void aBadFilterFailsAtStartupNamingTheRoute() {
        String yaml = YAML.replace("level(err..emerg)", "level(err..emrg)");
        assertThatThrownBy(() -> routes(yaml, new MetricRegistry()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("routes.errors.filter: column 12: unknown severity 'emrg'");
    }

    @Test
    void anUnusedNamedFilterIsCheckedToo() {
        String yaml = YAML.replace("filters:\n", "filters:\n  f_unused: 'filter(f_unused)'\n");
        assertThatThrownBy(() -> routes(yaml, new MetricRegistry()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("filters.f_unused:")
                .hasMessageContaining("refers to itself: f_unused -> f_unused");
    }
}
