package dev.logrouter.bench.core.route;

import dev.logrouter.bench.SyslogSamples;
import dev.logrouter.core.config.ConfigLoader;
import dev.logrouter.core.config.CoreComponents;
import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.core.parse.ParserConfig;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.route.RouteEvaluator;
import dev.logrouter.core.route.Routes;
import dev.logrouter.netty.tcp.TcpSourceConfig;
import dev.logrouter.sinks.file.FileSinkConfig;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Throughput (messages/s) of route evaluation ({@link RouteEvaluator#parse}) as a parse worker runs it after the
 * syslog header parser: five routes with the filters operators typically write, then a fallback, compiled from
 * YAML by {@link ConfigLoader} and {@link Routes} exactly as the server does:
 *
 * <pre>
 *   security  filter(f_auth)  = facility(auth, authpriv) or program("^(sshd|sudo|su)$")     final
 *   errors    level(err..emerg) or tags(".parse.json.failed")
 *   app-5xx   program("app" type(string)) and message("status=5" type(string) flags(substring))
 *   app       program("^app") and level(info..emerg) and message("request (served|failed)")
 *   events    "${.SDATA.exampleSDID@32473.eventID}" >= "1000"
 *   rest      fallback
 * </pre>
 *
 * <p>Messages ({@code shape}), each ~400 bytes, parsed once in setup (the operation is the evaluation only; it
 * only writes the event's sink mask): {@code app-rfc3164} — user.notice from {@code app}, evaluated through every
 * route, taken by {@code app}; {@code sd-rfc5424} — local4.notice with structured data, taken by {@code app} and
 * {@code events} (the comparison reads the SD value in place); {@code sshd-auth} — auth.info from {@code sshd},
 * taken by the first, final route.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class RouteBenchmark {

    static final String CONFIG = """
            sources:
              - {name: net, type: tcp}
            filters:
              f_auth: 'facility(auth, authpriv) or program("^(sshd|sudo|su)$")'
            routes:
              - {name: security, filter: 'filter(f_auth)', to: [auth], final: true}
              - {name: errors, filter: 'level(err..emerg) or tags(".parse.json.failed")', to: [errors]}
              - name: app-5xx
                filter: 'program("app" type(string)) and message("status=5" type(string) flags(substring))'
                to: [errors]
              - name: app
                filter: 'program("^app") and level(info..emerg) and message("request (served|failed)")'
                to: [app]
              - {name: events, filter: '"${.SDATA.exampleSDID@32473.eventID}" >= "1000"', to: [app]}
              - {name: rest, fallback: true, to: [other]}
            sinks:
              - {name: auth, type: file, path: "data/auth.log"}
              - {name: errors, type: file, path: "data/errors.log"}
              - {name: app, type: file, path: "data/app.log"}
              - {name: other, type: file, path: "data/other.log"}
            """;

    /** Expected sink masks per shape (bit k = sink k above), checked in setup. */
    private static final Map<String, Long> EXPECTED = Map.of(
            "app-rfc3164", 0b0100L,
            "sd-rfc5424", 0b0100L,
            "sshd-auth", 0b0001L);

    @Param({"app-rfc3164", "sd-rfc5424", "sshd-auth"})
    public String shape;

    private final LogEvent event = new LogEvent();
    private RouteEvaluator evaluator;

    @Setup
    public void setUp() throws Exception {
        ZoneId zone = ZoneId.of("Europe/Budapest");
        ConfigLoader loader = new ConfigLoader(Map.of("tcp", TcpSourceConfig.class),
                Map.of("file", FileSinkConfig.class));
        RouterConfig cfg = loader.load(CONFIG, "RouteBenchmark.yaml");
        Routes routes = new Routes(cfg, zone, new MetricRegistry(), RouteBenchmark::parserTypeName);
        evaluator = routes.newEvaluator();

        byte[] raw = frame(shape);
        byte hint = shape.equals("sd-rfc5424") ? LogEvent.FORMAT_RFC5424 : LogEvent.FORMAT_RFC3164;
        SyslogSamples.receive(event, raw, hint);
        event.setSource(0, SyslogSamples.SOURCE_NAME, hint, 0L);
        new SyslogHeaderParser(zone).parse(event);
        if (event.hasFlag(LogEvent.FLAG_PARSE_ERROR)) {
            throw new IllegalStateException(shape + " did not parse");
        }
        long mask = route();
        if (mask != EXPECTED.get(shape)) {
            throw new IllegalStateException(shape + " routed to " + Long.toBinaryString(mask) + ", expected "
                    + Long.toBinaryString(EXPECTED.get(shape)));
        }
    }

    /** Evaluates every route for the message and returns its sink mask. */
    @Benchmark
    public long route() {
        evaluator.parse(event);
        return event.sinkMask();
    }

    private static byte[] frame(String shape) {
        switch (shape) {
            case "app-rfc3164":
                return SyslogSamples.frame(SyslogSamples.RFC3164, SyslogSamples.DEFAULT_SIZE);
            case "sd-rfc5424":
                return SyslogSamples.frame(SyslogSamples.RFC5424, SyslogSamples.DEFAULT_SIZE);
            case "sshd-auth": {
                StringBuilder sb = new StringBuilder("<38>Nov 22 07:00:00 host1 sshd[4721]: Failed password for "
                        + "invalid user admin from 203.0.113.9 port 51234 ssh2");
                while (sb.length() < SyslogSamples.DEFAULT_SIZE) {
                    sb.append(" [preauth] Connection closed by invalid user admin 203.0.113.9 port 51234");
                }
                sb.setLength(SyslogSamples.DEFAULT_SIZE);
                return sb.toString().getBytes(StandardCharsets.US_ASCII);
            }
            default:
                throw new IllegalArgumentException("unknown shape: " + shape + " (app-rfc3164, sd-rfc5424, sshd-auth)");
        }
    }

    private static String parserTypeName(Class<? extends ParserConfig> type) {
        for (Map.Entry<String, Class<? extends ParserConfig>> e : CoreComponents.steps().entrySet()) {
            if (e.getValue() == type) {
                return e.getKey();
            }
        }
        throw new IllegalArgumentException("unregistered parser type " + type.getName());
    }
}
