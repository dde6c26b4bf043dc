package dev.logrouter.core.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.logrouter.core.config.ConfigLoader;
import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.config.TestFileSinkConfig;
import dev.logrouter.core.config.TestTcpSourceConfig;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Sink masks computed by {@link RouteTable} from routes loaded by the real {@link ConfigLoader}.
 */
class RouteTableTest {

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

    private final ConfigLoader loader = new ConfigLoader(Map.of("tcp", TestTcpSourceConfig.class),
            Map.of("file", TestFileSinkConfig.class));

    private RouteTable table(String... routes) throws Exception {
        String yaml = SOURCES_AND_SINKS + (routes.length == 0 ? "" : "routes:\n" + String.join("\n", routes) + "\n");
        return new RouteTable(loader.load(yaml, "routes.yaml"));
    }

    @Test
    void noRoutesSendsEverySourceToEverySink() throws Exception {
        RouteTable t = table();
        for (int s = 0; s < 3; s++) {
            assertThat(t.sinkMask(s)).as("source %d", s).isEqualTo(0b111L);
        }
    }

    @Test
    void routesAddTheirSinksInOrderAndFinalStops() throws Exception {
        RouteTable t = table(
                "  - {name: a-only, from: [a], to: [s0], final: true}",
                "  - {name: everyone, to: [s1]}",
                "  - {name: b-too, from: [b], to: [s2, s0]}");
        assertThat(t.sinkMask(0)).as("a: stopped by its final route").isEqualTo(0b001L);
        assertThat(t.sinkMask(1)).as("b: not taken by the final route, so it goes on").isEqualTo(0b111L);
        assertThat(t.sinkMask(2)).as("c: only the route without from").isEqualTo(0b010L);
    }

    @Test
    void emptyFromTakesEverySourceAndAFinalOneEndsForAll() throws Exception {
        RouteTable t = table(
                "  - {name: all, from: [], to: [s2], final: true}",
                "  - {name: never, to: [s0]}");
        for (int s = 0; s < 3; s++) {
            assertThat(t.sinkMask(s)).as("source %d", s).isEqualTo(0b100L);
        }
    }

    @Test
    void sourceNoRouteTakesGetsNoSink() throws Exception {
        RouteTable t = table("  - {name: ab, from: [a, b], to: [s1]}");
        assertThat(t.sinkMask(0)).isEqualTo(0b010L);
        assertThat(t.sinkMask(1)).isEqualTo(0b010L);
        assertThat(t.sinkMask(2)).isZero();
    }

    @Test
    void sixtyFourSinksUseEveryBit() throws Exception {
        StringBuilder yaml = new StringBuilder("sources:\n  - {type: tcp, name: a}\nsinks:\n");
        for (int i = 0; i < 64; i++) {
            yaml.append("  - {type: file, name: s").append(i).append(", path: /x}\n");
        }
        RouterConfig all = loader.load(yaml.toString(), "64.yaml");
        assertThat(new RouteTable(all).sinkMask(0)).isEqualTo(-1L);
        RouterConfig last = loader.load(yaml + "routes:\n  - {name: r, to: [s63]}\n", "64.yaml");
        assertThat(new RouteTable(last).sinkMask(0)).isEqualTo(Long.MIN_VALUE);
    }
}
