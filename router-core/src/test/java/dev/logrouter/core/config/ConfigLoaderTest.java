package dev.logrouter.core.config;

import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.ConfigException;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.sink.FlushPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@link ConfigLoader} with test-only source and sink types: defaults from {@link Option}, error messages
 * with file, line and YAML path, value types, cross references.
 */
class ConfigLoaderTest {

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

    private final ConfigLoader loader = new ConfigLoader(Map.of("tcp", TestTcpSourceConfig.class),
            Map.of("file", TestFileSinkConfig.class));

    private RouterConfig load(String... lines) throws ConfigException {
        return loader.load(String.join("\n", lines) + "\n", ORIGIN);
    }

    private String failure(String... lines) {
        String yaml = String.join("\n", lines) + "\n";
        Throwable t = catchThrowable(() -> loader.load(yaml, ORIGIN));
        assertThat(t).as("loading should fail:%n%s", yaml).isInstanceOf(ConfigException.class);
        return t.getMessage();
    }

    // ------------------------------------------------------------------ defaults

    @Test
    void defaultsComeFromTheOptionDeclarations() throws Exception {
        RouterConfig cfg = loader.load(MINIMAL, ORIGIN);

        PipelineConfig p = cfg.pipeline();
        assertThat(p.ringSize()).isEqualTo(4096);
        assertThat(p.parseWorkers()).isEqualTo(1);
        assertThat(p.waitStrategy()).isEqualTo(PipelineConfig.WaitStrategyName.backoff);
        assertThat(p.ioThreads()).isEqualTo(1);
        assertThat(p.timeZone()).isEmpty();
        assertThat(p.idleParkOrDefault()).isEqualTo(new TimeSpan(TimeUnit.MICROSECONDS.toNanos(200)));
        assertThat(cfg.routes()).isEmpty();

        assertThat(cfg.sources()).containsExactly(new TestTcpSourceConfig("in", 514, new ByteSize(65536),
                new TimeSpan(TimeUnit.SECONDS.toNanos(5)), null));
        assertThat(cfg.sinks()).containsExactly(new TestFileSinkConfig("out", "/var/log/${HOST}.log", 1000,
                new ByteSize(1 << 20), new TimeSpan(TimeUnit.MILLISECONDS.toNanos(250)), -1, null));
        assertThat(cfg.sinks().get(0).flushPolicy())
                .isEqualTo(new FlushPolicy(1000, 1 << 20, TimeUnit.MILLISECONDS.toNanos(250)));
    }

    @Test
    void givenOptionsWinAndTheRestAreDefaulted() throws Exception {
        RouterConfig cfg = load(
                "pipeline:",
                "  parse-workers: 4",
                "  wait-strategy: busy-spin",
                "  idle-park: 50us",
                "sources:",
                "  - type: tcp",
                "    name: in",
                "    port: 6514",
                "    tls-key: /etc/key.pem",
                "sinks:",
                "  - type: file",
                "    name: out",
                "    path: /x",
                "    batch-size: 10",
                "    max-retries: 3",
                "    dead-letter: /var/dead/out.jsonl",
                "routes:",
                "  - name: all",
                "    to: [out]");
        assertThat(cfg.pipeline().ringSize()).isEqualTo(4096);
        assertThat(cfg.pipeline().parseWorkers()).isEqualTo(4);
        assertThat(cfg.pipeline().waitStrategy()).isEqualTo(PipelineConfig.WaitStrategyName.busySpin);
        assertThat(cfg.pipeline().idleParkOrDefault()).isEqualTo(new TimeSpan(TimeUnit.MICROSECONDS.toNanos(50)));
        TestTcpSourceConfig in = (TestTcpSourceConfig) cfg.sources().get(0);
        assertThat(in.port()).isEqualTo(6514);
        assertThat(in.tlsKey()).isEqualTo("/etc/key.pem");
        assertThat(in.maxMessageSize()).isEqualTo(new ByteSize(65536));
        assertThat(((TestFileSinkConfig) cfg.sinks().get(0)).batchSize()).isEqualTo(10);
        assertThat(cfg.sinks().get(0).maxRetries()).isEqualTo(3);
        assertThat(cfg.sinks().get(0).deadLetter()).isEqualTo("/var/dead/out.jsonl");
        assertThat(cfg.routes()).containsExactly(new RouteConfig("all", List.of(), null, List.of(), List.of(), List.of("out"), false, false));
    }

    @Test
    void loadsFromAFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("router.yaml");
        Files.writeString(file, MINIMAL);
        assertThat(loader.load(file).sources()).hasSize(1);
        assertThatThrownBy(() -> loader.load(dir.resolve("missing.yaml")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("missing.yaml: cannot read configuration");
    }

    // ------------------------------------------------------------------ unknown keys and bad values

    @Test
    void unknownOptionNamesFileLineAndPath() {
        String msg = failure(
                "sources:",
                "  - type: tcp",
                "    name: in",
                "    prot: 514",
                "sinks:",
                "  - type: file",
                "    name: out",
                "    path: /x");
        assertThat(msg).startsWith(ORIGIN + ":4:")
                .contains("sources[0].prot: unknown option 'prot'")
                .contains("port");
    }

    @Test
    void unknownOptionIsFoundWhenTypeIsNotTheFirstKey() {
        String msg = failure(
                "sources:",
                "  - name: in",
                "    type: tcp",
                "sinks:",
                "  - name: out",
                "    path: /x",
                "    type: file",
                "    batch-sise: 10");
        assertThat(msg).contains("sinks[0].batch-sise: unknown option 'batch-sise'");
        assertThat(msg).startsWith(ORIGIN + ":8:");
    }

    @Test
    void unknownNestedAndTopLevelOptions() {
        String nested = failure(
                "pipeline:",
                "  ring-size: 1024",
                "  ring-sise: 1024",
                MINIMAL);
        assertThat(nested).startsWith(ORIGIN + ":3:").contains("pipeline.ring-sise: unknown option 'ring-sise'");
        String top = failure(MINIMAL, "sink:", "  - name: x");
        // MINIMAL ends with a newline: line 8 is empty
        assertThat(top).startsWith(ORIGIN + ":9:").contains("unknown option 'sink'");
    }

    @Test
    void unknownOptionInTheMiddleOfAMappingPointsAtItsOwnLine() {
        String msg = failure(
                "sources:",
                "  - type: tcp",
                "    name: in",
                "    idle-timout: 5s",
                "    port: 601",
                "    max-message-size: 1MiB",
                "",
                "sinks:",
                "  - {type: file, name: out, path: /x}");
        assertThat(msg).startsWith(ORIGIN + ":4:5: sources[0].idle-timout: unknown option 'idle-timout'");
        String flow = failure(
                "sources:",
                "  - {type: tcp, name: in, prot: 5, port: 6}",
                "sinks:",
                "  - {type: file, name: out, path: /x}");
        assertThat(flow).startsWith(ORIGIN + ":2:27: sources[0].prot: unknown option 'prot'");
    }

    @Test
    void badValueNamesThePath() {
        String msg = failure(
                "pipeline:",
                "  ring-size: 1000",
                MINIMAL);
        assertThat(msg).isEqualTo(ORIGIN + ":1:1: pipeline: ring-size must be a power of two >= 64, got 1000");
    }

    @Test
    void badEnumAndBadTypeOfScalar() {
        assertThat(failure("pipeline:", "  wait-strategy: sleepy", MINIMAL))
                .startsWith(ORIGIN + ":2:").contains("pipeline.wait-strategy");
        assertThat(failure("pipeline:", "  parse-workers: many", MINIMAL))
                .startsWith(ORIGIN + ":2:").contains("pipeline.parse-workers");
    }

    @Test
    void constraintsCheckedByRecordConstructors() {
        assertThat(failure("pipeline:", "  parse-workers: 0", MINIMAL)).contains("parse-workers must be 1..64, got 0");
        assertThat(failure("sources:", "  - {type: tcp, name: in}", "sinks:",
                "  - {type: file, name: out, path: /x, max-retries: -2}"))
                .contains("sinks[0]").contains("max-retries must be -1 (forever) or >= 0, got -2");
        assertThat(failure("pipeline:", "  time-zone: Mars/Olympus", MINIMAL))
                .contains("unknown time-zone 'Mars/Olympus'");
        assertThat(failure("pipeline:", "  idle-park: 20ms", MINIMAL)).contains("idle-park must be at most 10ms");
    }

    @Test
    void modulesSectionsBindWithDefaultsAndErrorsNameTheirPath() throws Exception {
        ComponentRegistry r = new ComponentRegistry().source("tcp", TestTcpSourceConfig.class)
                .sink("file", TestFileSinkConfig.class)
                .section("extra", TestSection.class, "A module's section (test).");
        ConfigLoader withSection = r.loader();
        assertThat(withSection.load(MINIMAL, ORIGIN).section("extra", TestSection.class))
                .isEqualTo(new TestSection(7, "on"));
        assertThat(withSection.load("extra:\n  size: 9\n" + MINIMAL, ORIGIN).section("extra", TestSection.class))
                .isEqualTo(new TestSection(9, "on"));
        Throwable bad = catchThrowable(() -> withSection.load("extra:\n  size: -1\n" + MINIMAL, ORIGIN));
        // a record's own check fails at its key, like pipeline's
        assertThat(bad).isInstanceOf(ConfigException.class).hasMessageContaining(ORIGIN + ":1:")
                .hasMessageContaining("extra").hasMessageContaining("size must be >= 0");
        Throwable unknownKey = catchThrowable(() -> withSection.load("extra:\n  sise: 1\n" + MINIMAL, ORIGIN));
        assertThat(unknownKey).hasMessageContaining(ORIGIN + ":2:").hasMessageContaining("extra")
                .hasMessageContaining("unknown option 'sise'");
        Throwable unknownSection = catchThrowable(() -> withSection.load("extr:\n  size: 1\n" + MINIMAL, ORIGIN));
        assertThat(unknownSection).hasMessageContaining(ORIGIN + ":1:").hasMessageContaining("unknown option 'extr'")
                .hasMessageContaining("extra").hasMessageContaining("sources");
        // a loader without the section refuses the key
        assertThat(failure("extra:", "  size: 1", MINIMAL)).contains("unknown option 'extra'");
        // an empty section takes its defaults; an empty unknown key is still unknown
        assertThat(withSection.load("extra:\n" + MINIMAL, ORIGIN).section("extra", TestSection.class))
                .isEqualTo(new TestSection(7, "on"));
        for (String empty : new String[] {"bogus:\n", "bogus: ~\n"}) {
            Throwable t = catchThrowable(() -> withSection.load(empty + MINIMAL, ORIGIN));
            assertThat(t).as(empty).isInstanceOf(ConfigException.class).hasMessageContaining(ORIGIN + ":1:")
                    .hasMessageContaining("unknown option 'bogus'");
        }
        Throwable scalar = catchThrowable(() -> withSection.load("extra: 5\n" + MINIMAL, ORIGIN));
        assertThat(scalar).isInstanceOf(ConfigException.class).hasMessageContaining(ORIGIN + ":1:")
                .hasMessageContaining("extra is a map of options");
        // the sections are top-level keys: the record component that holds them is no key of its own
        Throwable sectionsKey = catchThrowable(() -> withSection.load("sections: {extra: {size: 1}}\n" + MINIMAL,
                ORIGIN));
        assertThat(sectionsKey).isInstanceOf(ConfigException.class).hasMessageContaining(ORIGIN + ":1:")
                .hasMessageContaining("unknown option 'sections'");
    }

    /** A module's top-level section, for {@link #modulesSectionsBindWithDefaultsAndErrorsNameTheirPath}. */
    record TestSection(@Option(doc = "A size.", defaultValue = "7") Integer size,
                       @Option(doc = "A mode.", defaultValue = "on") String mode) {
        TestSection {
            if (size != null && size < 0) {
                throw new IllegalArgumentException("size must be >= 0, got " + size);
            }
        }
    }

    // ------------------------------------------------------------------ sizes and durations

    @Test
    void sizesAndDurationsInYaml() throws Exception {
        String[][] cases = {
            {"64KiB", "65536", "250ms", "250000000"},
            {"65536", "65536", "5s", "5000000000"},
            {"1MiB", "1048576", "2m", "120000000000"},
            {"64KB", "64000", "1500", "1500000000"},
        };
        for (String[] c : cases) {
            RouterConfig cfg = load(
                    "sources:",
                    "  - type: tcp",
                    "    name: in",
                    "    max-message-size: " + c[0],
                    "    idle-timeout: " + c[2],
                    "sinks:",
                    "  - type: file",
                    "    name: out",
                    "    path: /x");
            TestTcpSourceConfig in = (TestTcpSourceConfig) cfg.sources().get(0);
            assertThat(in.maxMessageSize().bytes()).as(c[0]).isEqualTo(Long.parseLong(c[1]));
            assertThat(in.idleTimeout().nanos()).as(c[2]).isEqualTo(Long.parseLong(c[3]));
        }
    }

    @Test
    void badSizeAndDurationNameThePath() {
        String size = failure(
                "sources:",
                "  - type: tcp",
                "    name: in",
                "    max-message-size: 12XB",
                "sinks:",
                "  - type: file",
                "    name: out",
                "    path: /x");
        assertThat(size).startsWith(ORIGIN + ":4:")
                .contains("sources[0].max-message-size")
                .contains("not a size: '12XB' (write e.g. 65536, 64KiB, 1MiB)");
        String duration = failure(
                "sources:",
                "  - type: tcp",
                "    name: in",
                "sinks:",
                "  - type: file",
                "    name: out",
                "    path: /x",
                "    flush-timeout: soon");
        assertThat(duration).startsWith(ORIGIN + ":8:")
                .contains("sinks[0].flush-timeout")
                .contains("not a duration: 'soon' (write e.g. 250ms, 5s, 2m)");
    }

    @Test
    void byteSizeParsing() {
        assertThat(ByteSize.parse("64KiB").bytes()).isEqualTo(65536);
        assertThat(ByteSize.parse("65536").bytes()).isEqualTo(65536);
        assertThat(ByteSize.parse(65536).bytes()).isEqualTo(65536);
        assertThat(ByteSize.parse("1MiB").bytes()).isEqualTo(1048576);
        assertThat(ByteSize.parse("2GiB").bytes()).isEqualTo(2L << 30);
        assertThat(ByteSize.parse("64KB").bytes()).isEqualTo(64000);
        assertThat(ByteSize.parse("1mb").bytes()).isEqualTo(1_000_000);
        assertThat(ByteSize.parse("512B").bytes()).isEqualTo(512);
        assertThat(ByteSize.parse(" 8 k ").bytes()).isEqualTo(8192);
        assertThatThrownBy(() -> ByteSize.parse("12XB"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a size: '12XB' (write e.g. 65536, 64KiB, 1MiB)");
        assertThatThrownBy(() -> ByteSize.parse("1.5MiB")).hasMessageContaining("not a size: '1.5MiB'");
        assertThatThrownBy(() -> ByteSize.parse("99999999999GiB")).hasMessageContaining("not a size");
        assertThatThrownBy(() -> ByteSize.parse("-1")).hasMessageContaining("must not be negative");
        assertThat(new ByteSize(65536)).hasToString("64KiB");
        assertThat(new ByteSize(1 << 20)).hasToString("1MiB");
        assertThat(new ByteSize(1000)).hasToString("1000");
        assertThat(new ByteSize(0)).hasToString("0");
        assertThatThrownBy(() -> new ByteSize(3L << 30).intBytes()).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void timeSpanParsing() {
        assertThat(TimeSpan.parse("250ms").nanos()).isEqualTo(250_000_000L);
        assertThat(TimeSpan.parse("5s").nanos()).isEqualTo(5_000_000_000L);
        assertThat(TimeSpan.parse("2m").nanos()).isEqualTo(120_000_000_000L);
        assertThat(TimeSpan.parse("1h").millis()).isEqualTo(3_600_000L);
        assertThat(TimeSpan.parse("100us").nanos()).isEqualTo(100_000L);
        assertThat(TimeSpan.parse("7ns").nanos()).isEqualTo(7L);
        assertThat(TimeSpan.parse("1500").millis()).isEqualTo(1500L);
        assertThat(TimeSpan.parse(1500).millis()).isEqualTo(1500L);
        assertThatThrownBy(() -> TimeSpan.parse("12XB"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a duration: '12XB' (write e.g. 250ms, 5s, 2m)");
        assertThatThrownBy(() -> TimeSpan.parse("1.5s")).hasMessageContaining("not a duration: '1.5s'");
        assertThatThrownBy(() -> TimeSpan.parse("-5s")).hasMessageContaining("must not be negative");
        // 18446744073710 ms in nanos is 2^64 + 448384: it must fail, not wrap to 448 microseconds
        assertThatThrownBy(() -> TimeSpan.parse("18446744073710"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("18446744073710");
        assertThatThrownBy(() -> TimeSpan.parse(18446744073710L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("18446744073710");
        assertThatThrownBy(() -> TimeSpan.parse("18446744073710s")).hasMessageContaining("not a duration");
        assertThat(TimeSpan.parse("250ms")).hasToString("250ms");
        assertThat(TimeSpan.parse("2m")).hasToString("120s");
        assertThat(TimeSpan.parse("100us")).hasToString("100us");
    }

    // ------------------------------------------------------------------ types and required options

    @Test
    void unknownTypeFailsClearly() {
        String msg = failure(
                "sources:",
                "  - type: udp",
                "    name: in",
                "sinks:",
                "  - type: file",
                "    name: out",
                "    path: /x");
        assertThat(msg).startsWith(ORIGIN + ":2:")
                .contains("sources[0]")
                .contains("unknown or missing type 'udp'")
                .contains("(set 'type:' to one of: tcp)");
    }

    @Test
    void renamedTypeNamesItsReplacement() {
        ConfigLoader withHint = new ComponentRegistry().source("tcp", TestTcpSourceConfig.class)
                .sink("file", TestFileSinkConfig.class)
                .renamed(dev.logrouter.core.source.SourceConfig.class, "tls", "TLS is type: tcp with a tls: map")
                .loader();
        Throwable t = catchThrowable(() -> withHint.load(MINIMAL.replace("type: tcp", "type: tls"), ORIGIN));
        assertThat(t).isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown or missing type 'tls' (set 'type:' to one of: tcp); "
                        + "TLS is type: tcp with a tls: map");
    }

    @Test
    void missingTypeFailsClearly() {
        String msg = failure(
                "sources:",
                "  - type: tcp",
                "    name: in",
                "sinks:",
                "  - name: out",
                "    path: /x");
        assertThat(msg).contains("sinks[0]").contains("missing type");
    }

    @Test
    void missingRequiredOptionNamesThePath() {
        String msg = failure(
                "sources:",
                "  - type: tcp",
                "    name: in",
                "sinks:",
                "  - type: file",
                "    name: out");
        assertThat(msg).isEqualTo(ORIGIN + ": sinks[0].path: missing required option (Path template of the output "
                + "file.)");
        assertThat(failure("sources:", "  - type: tcp", "    name: in"))
                .isEqualTo(ORIGIN + ": sinks: missing required option (Destinations.)");
        assertThat(failure(MINIMAL, "routes:", "  - to: [out]")).contains("routes[0].name: missing required option");
    }

    @Test
    void emptyFileFails() {
        assertThatThrownBy(() -> loader.load("", ORIGIN))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(ORIGIN)
                .hasMessageContaining("empty configuration");
        assertThatThrownBy(() -> loader.load("# only a comment\n", ORIGIN))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("empty configuration");
    }

    @Test
    void emptyListsFail() {
        assertThat(failure("sources: []", "sinks:", "  - type: file", "    name: out", "    path: /x"))
                .isEqualTo(ORIGIN + ": sources: at least one source is needed");
        assertThat(failure("sources:", "  - type: tcp", "    name: in", "sinks: []"))
                .isEqualTo(ORIGIN + ": sinks: at least one sink is needed");
    }

    // ------------------------------------------------------------------ cross references

    @Test
    void duplicateSourceAndSinkNames() {
        assertThat(failure(
                "sources:",
                "  - {type: tcp, name: in}",
                "  - {type: tcp, name: in, port: 601}",
                "sinks:",
                "  - {type: file, name: out, path: /x}"))
                .isEqualTo(ORIGIN + ": sources[1].name: duplicate source name 'in'");
        assertThat(failure(
                "sources:",
                "  - {type: tcp, name: in}",
                "sinks:",
                "  - {type: file, name: out, path: /x}",
                "  - {type: file, name: other, path: /y}",
                "  - {type: file, name: out, path: /z}"))
                .isEqualTo(ORIGIN + ": sinks[2].name: duplicate sink name 'out'");
    }

    @Test
    void routesMustNameExistingSinksAndSources() {
        assertThat(failure(MINIMAL, "routes:", "  - {name: r, to: [out, nope]}"))
                .isEqualTo(ORIGIN + ": routes[0].to: no sink named 'nope' (sinks: [out])");
        assertThat(failure(MINIMAL, "routes:", "  - {name: r, to: [out]}", "  - {name: s, from: [net], to: [out]}"))
                .isEqualTo(ORIGIN + ": routes[1].from: no source named 'net' (sources: [in])");
        assertThat(failure(MINIMAL, "routes:", "  - {name: r, to: []}"))
                .isEqualTo(ORIGIN + ": routes[0].to: name at least one sink (a route without sinks must run "
                        + "parsers or rewrites, or be final to drop what it takes)");
        assertThat(failure(MINIMAL, "routes:", "  - {name: r, parsers: [p], to: [out]}"))
                .isEqualTo(ORIGIN + ": routes[0].parsers: no parser chain named 'p' (parsers: [])");
        assertThat(failure(MINIMAL, "parsers:", "  app:"))
                .isEqualTo(ORIGIN + ": parsers.app: empty chain; list at least one step (e.g. - {type: json}) or "
                        + "remove it");
        assertThat(failure(MINIMAL, "rewrites:", "  w: [~]"))
                .isEqualTo(ORIGIN + ": rewrites.w[0]: empty list item; remove it or give it a value");
        assertThat(failure(MINIMAL, "rewrites:", "  w: []"))
                .isEqualTo(ORIGIN + ": rewrites.w: empty chain; list at least one step (e.g. - {type: json}) or "
                        + "remove it");
        assertThat(failure(MINIMAL, "filters:", "  f: ''"))
                .isEqualTo(ORIGIN + ": filters.f: empty filter expression; write one, e.g. 'level(err..emerg)', or "
                        + "remove the entry");
        assertThat(failure(MINIMAL, "routes:", "  - {name: r, rewrite: [w], to: [out]}"))
                .isEqualTo(ORIGIN + ": routes[0].rewrite: no rewrite chain named 'w' (rewrites: [])");
        assertThat(failure(MINIMAL, "routes:", "  - {name: r, to: [out]}", "  - {name: r, to: [out]}"))
                .isEqualTo(ORIGIN + ": routes[1].name: duplicate route name 'r'");
    }

    @Test
    void atMost64Sinks() throws Exception {
        StringBuilder yaml = new StringBuilder("sources:\n  - {type: tcp, name: in}\nsinks:\n");
        for (int i = 0; i < 64; i++) {
            yaml.append("  - {type: file, name: s").append(i).append(", path: /x}\n");
        }
        assertThat(loader.load(yaml.toString(), ORIGIN).sinks()).hasSize(64);
        yaml.append("  - {type: file, name: s64, path: /x}\n");
        assertThatThrownBy(() -> loader.load(yaml.toString(), ORIGIN))
                .hasMessage(ORIGIN + ": sinks: at most 64 sinks are supported");
    }

    @Test
    void finalKeyOfARoute() throws Exception {
        RouterConfig cfg = load(MINIMAL, "routes:", "  - {name: r, from: [in], to: [out], final: true}");
        assertThat(cfg.routes()).containsExactly(new RouteConfig("r", List.of("in"), null, List.of(), List.of(), List.of("out"), true, false));
    }
}
