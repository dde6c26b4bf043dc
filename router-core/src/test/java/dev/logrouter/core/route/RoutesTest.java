package dev.logrouter.core.route;

import dev.logrouter.core.config.ConfigLoader;
import dev.logrouter.core.config.CoreComponents;
import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.config.TestFileSinkConfig;
import dev.logrouter.core.config.TestTcpSourceConfig;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.core.parse.ParserConfig;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Route evaluation as the parse workers run it: {@link Routes} compiled from a configuration loaded by the
 * real {@link ConfigLoader}, evaluated on events parsed from real syslog lines.
 */
class RoutesTest {

    private static final String SOURCES_AND_SINKS = String.join("\n",
            "sources:",
            "  - {type: tcp, name: a}",
            "  - {type: tcp, name: b, port: 601}",
            "  - {type: tcp, name: c, port: 602}",
            "sinks:",
            "  - {type: file, name: s0, path: /0}",
            "  - {type: file, name: s1, path: /1}",
            "  - {type: file, name: s2, path: /2}",
            "");

    private static final Map<String, Class<? extends ParserConfig>> STEP_TYPES = new LinkedHashMap<>(CoreComponents.steps());

    static {
        STEP_TYPES.put("fail", FailingStepConfig.class);
    }

    private final ConfigLoader loader = new ConfigLoader(Map.of("tcp", TestTcpSourceConfig.class),
            Map.of("file", TestFileSinkConfig.class), STEP_TYPES);
    private final MetricRegistry metrics = new MetricRegistry();
    private final SyslogHeaderParser header = new SyslogHeaderParser(ZoneOffset.UTC);

    private RouteEvaluator evaluator(String... lines) throws Exception {
        RouterConfig cfg = loader.load(SOURCES_AND_SINKS + String.join("\n", lines) + "\n", "routes.yaml");
        Routes routes = new Routes(cfg, ZoneOffset.UTC, metrics, type -> STEP_TYPES.entrySet().stream()
                .filter(e -> e.getValue() == type).findFirst().orElseThrow().getKey());
        return routes.newEvaluator();
    }

    /** The sink mask the evaluator stamps on a message from source number {@code source}. */
    private long route(RouteEvaluator ev, int source, String line) {
        LogEvent e = new LogEvent();
        byte[] raw = line.getBytes(StandardCharsets.UTF_8);
        e.setRaw(raw, 0, raw.length);
        e.setSource(source, ("src" + source).getBytes(StandardCharsets.UTF_8), LogEvent.FORMAT_AUTO, 0L);
        header.parse(e);
        ev.parse(e);
        return e.sinkMask();
    }

    private long matched(String route) {
        return metrics.require("Route", route).value("matched");
    }

    private static final String LINE = "<14>Oct 11 22:14:15 host app[1]: hello";

    @Test
    void noRoutesSendsEverySourceToEverySink() throws Exception {
        RouteEvaluator ev = evaluator();
        for (int s = 0; s < 3; s++) {
            assertThat(route(ev, s, LINE)).as("source %d", s).isEqualTo(0b111L);
        }
        assertThat(metrics.require("Routes", "main").value("unrouted")).isZero();
    }

    @Test
    void finalStopsLaterRoutesOnlyForTheSourcesItTakes() throws Exception {
        RouteEvaluator ev = evaluator("routes:",
                "  - {name: a-only, from: [a], to: [s0], final: true}",
                "  - {name: everyone, to: [s1, s2], final: false}",
                "  - {name: c, from: [c], to: [s1]}");
        assertThat(route(ev, 0, LINE)).as("a: stopped by its final route").isEqualTo(0b001L);
        assertThat(route(ev, 1, LINE)).as("b: not taken by the final route, so it goes on").isEqualTo(0b110L);
        assertThat(route(ev, 2, LINE)).as("c: both later routes").isEqualTo(0b110L);
        assertThat(matched("a-only")).isEqualTo(1);
        assertThat(matched("everyone")).isEqualTo(2);
        assertThat(matched("c")).isEqualTo(1);
    }

    @Test
    void fallbackTakesOnlyWhatNoOtherRouteTook() throws Exception {
        RouteEvaluator ev = evaluator("routes:",
                "  - {name: rest, fallback: true, to: [s2]}",
                "  - {name: a, from: [a], to: [s0]}",
                "  - {name: b, from: [b], to: [s1]}");
        assertThat(route(ev, 0, LINE)).isEqualTo(0b001L);
        assertThat(route(ev, 1, LINE)).isEqualTo(0b010L);
        assertThat(route(ev, 2, LINE)).as("c: only the fallback").isEqualTo(0b100L);
        assertThat(matched("rest")).isEqualTo(1);
    }

    @Test
    void aMessageNoRouteTakesIsCountedAndGoesNowhere() throws Exception {
        RouteEvaluator ev = evaluator("routes:", "  - {name: ab, from: [a, b], to: [s1]}");
        assertThat(route(ev, 0, LINE)).isEqualTo(0b010L);
        assertThat(route(ev, 1, LINE)).isEqualTo(0b010L);
        assertThat(route(ev, 2, LINE)).isZero();
        assertThat(metrics.require("Routes", "main").value("unrouted")).isEqualTo(1);
    }

    @Test
    void theEvaluatorOverwritesWhateverMaskTheSourceSet() throws Exception {
        RouteEvaluator ev = evaluator("routes:", "  - {name: a, from: [a], to: [s2]}");
        LogEvent e = new LogEvent();
        byte[] raw = LINE.getBytes(StandardCharsets.UTF_8);
        e.setRaw(raw, 0, raw.length);
        e.setSource(0, "a".getBytes(StandardCharsets.UTF_8), LogEvent.FORMAT_AUTO, 0b011L);
        header.parse(e);
        ev.parse(e);
        assertThat(e.sinkMask()).isEqualTo(0b100L);
    }

    @Test
    void aRouteWithoutSinksLeavesTheMessageToTheFallbackUnlessItIsFinal() throws Exception {
        RouteEvaluator ev = evaluator(
                "rewrites:",
                "  mark: [{type: set-tag, tag: seen}]",
                "routes:",
                "  - {name: tag-only, rewrite: [mark]}",
                "  - {name: drop-c, from: [c], final: true, rewrite: [mark]}",
                "  - {name: rest, fallback: true, to: [s2]}");
        assertThat(route(ev, 0, LINE)).as("only tagged: the fallback still takes it").isEqualTo(0b100L);
        assertThat(route(ev, 2, LINE)).as("a final route without sinks drops it").isZero();
        assertThat(matched("tag-only")).isEqualTo(2);
        assertThat(matched("rest")).isEqualTo(1);
        assertThat(metrics.require("Routes", "main").value("unrouted")).isEqualTo(1);
    }

    @Test
    void aStepThatThrowsIsSkippedCountedAndTheMessageStillRouted() throws Exception {
        RouteEvaluator ev = evaluator(
                "rewrites:",
                "  buggy: [{type: fail}, {type: set-tag, tag: after-bug}]",
                "routes:",
                "  - {name: a, rewrite: [buggy], to: [s0]}",
                "  - {name: b, filter: 'tags(\"after-bug\")', to: [s1]}");
        assertThat(route(ev, 0, LINE)).as("both routes: the chain went on after the failing step").isEqualTo(0b011L);
        assertThat(metrics.require("Routes", "main").value("stepErrors")).isEqualTo(1);
    }
}
