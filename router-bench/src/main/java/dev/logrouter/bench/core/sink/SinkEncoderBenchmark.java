package dev.logrouter.bench.core.sink;

import dev.logrouter.bench.SyslogSamples;
import dev.logrouter.core.config.ComponentRegistry;
import dev.logrouter.core.config.ConfigLoader;
import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.parse.ParserConfig;
import dev.logrouter.core.parse.json.JsonParserConfig;
import dev.logrouter.core.parse.kv.KvParserConfig;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.sink.SinkConfig;
import dev.logrouter.core.sink.SinkContext;
import dev.logrouter.core.sink.SinkEncoder;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.util.Clock;
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
 * Throughput (records/s on one thread) of each sink's {@link SinkEncoder}: one parsed event to the record the sink's
 * delivery (or its journal) takes, into one reused {@link ByteBuilder} (reset per record, as a batch is). Run with
 * {@code -prof gc}: every encoder should allocate nothing per record.
 *
 * <p>The encoders are built as the router builds them: the YAML below is loaded by the router's
 * {@link ConfigLoader} with every registered component type, and each sink's {@link SinkConfig#encoder} makes the
 * encoder ({@code create} would also make its delivery). Each sink has its default line or document template and a
 * typical configuration:
 * <ul>
 *   <li>{@code file}: path {@code /var/log/remote/${HOST}/${YEAR}-${MONTH}-${DAY}.log}, the default line
 *       {@code ${DATE} ${HOST} ${MSGHDR}${MSG}\n};</li>
 *   <li>{@code hdfs}: path {@code /logs/${HOST}/${YEAR}${MONTH}${DAY}.log}, the same default line;</li>
 *   <li>{@code kafka}: topic {@code logs-${FACILITY}}, key {@code ${HOST}}, a header {@code program: ${PROGRAM}},
 *       the default value (format-json of the RFC 5424 macros and every name-value pair);</li>
 *   <li>{@code elasticsearch}: index {@code logs-${YEAR}.${MONTH}.${DAY}}, generated {@code _id}, the built-in
 *       {@code syslog} document;</li>
 *   <li>{@code syslog}: TCP, format rfc5424, octet-counted (the default framing for it), MSG as the body.</li>
 * </ul>
 * Events ({@code kind}), received and parsed once in setup (header, then a message parser, as a route's chain does):
 * {@code rfc3164} is the ~400-byte BSD frame of {@link SyslogSamples} whose access-log text is parsed by a
 * {@code kv} parser (8 fields); {@code rfc5424} is the ~400-byte RFC 5424 frame (3 structured-data parameters), kv
 * parsed too; {@code json} is an RFC 5424 header with a 360-byte JSON MSG parsed by the {@code json} parser under
 * {@code .json.} (12 fields, a nested object and an array). Setup checks that every event parsed as intended and
 * that every encoder writes a record.
 *
 * <p>Threads: one JMH benchmark thread per instance (the encoders keep scratch state, as on a sink's thread).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class SinkEncoderBenchmark {

    /** The sinks, each with its default template and a typical configuration. */
    static final String SINKS = """
            sources:
              - {name: net, type: tcp, bind: "127.0.0.1:5514"}
            routes:
              - {name: all, to: [file, hdfs, kafka, elasticsearch, syslog]}
            sinks:
              - name: file
                type: file
                path: "/var/log/remote/${HOST}/${YEAR}-${MONTH}-${DAY}.log"
              - name: hdfs
                type: hdfs
                uri: "hdfs://127.0.0.1:8020"
                path: "/logs/${HOST}/${YEAR}${MONTH}${DAY}.log"
              - name: kafka
                type: kafka
                bootstrap-servers: "127.0.0.1:9092"
                topic: "logs-${FACILITY}"
                key: "${HOST}"
                headers: {program: "${PROGRAM}"}
              - name: elasticsearch
                type: elasticsearch
                hosts: ["http://127.0.0.1:9200"]
                index: "logs-${YEAR}.${MONTH}.${DAY}"
                generate-id: true
              - name: syslog
                type: syslog
                hosts: ["127.0.0.1:6514"]
                transport: tcp
                format: rfc5424
            """;

    /** The JSON MSG of {@code kind: json}: a line of the end-to-end harness's JSON payload (12 fields). */
    static final String JSON_MSG = "{\"ts\":\"2026-11-22T06:00:00.000Z\",\"user\":\"oscar\",\"action\":\"read\","
            + "\"status\":200,\"bytes\":555857,\"duration_ms\":358.4,\"src\":{\"ip\":\"192.0.2.5\",\"port\":13291},"
            + "\"req_id\":\"bf5a4cfdea036c67\",\"tags\":[\"web\",\"prod\"],\"msg\":\"do eiusmod aliquip ipsum enim "
            + "laboris enim ipsum eiusmod ad quis enim et veniam nostrud dolore ipsum enim et veniam sit dolore "
            + "aliqua magna ex amet ven\"}";

    @Param({SyslogSamples.RFC3164, SyslogSamples.RFC5424, "json"})
    public String kind;

    private final LogEvent event = new LogEvent();
    private final ByteBuilder out = new ByteBuilder(4096);
    private SinkEncoder file;
    private SinkEncoder hdfs;
    private SinkEncoder kafka;
    private SinkEncoder elasticsearch;
    private SinkEncoder syslog;

    @Setup
    public void setUp() throws Exception {
        ZoneId zone = ZoneId.of("Europe/Budapest");
        RouterConfig cfg = new ConfigLoader(ComponentRegistry.load()).load(SINKS, "SinkEncoderBenchmark");
        file = encoder(cfg, "file", zone);
        hdfs = encoder(cfg, "hdfs", zone);
        kafka = encoder(cfg, "kafka", zone);
        elasticsearch = encoder(cfg, "elasticsearch", zone);
        syslog = encoder(cfg, "syslog", zone);

        byte[] raw;
        byte hint;
        ParserConfig step;
        int fields;
        switch (kind) {
            case SyslogSamples.RFC3164, SyslogSamples.RFC5424 -> {
                raw = SyslogSamples.frame(kind, SyslogSamples.DEFAULT_SIZE);
                hint = SyslogSamples.formatHint(kind);
                step = new KvParserConfig(null, "", "${MSG}", "=", ", ", null);
                fields = SyslogSamples.RFC5424.equals(kind) ? 11 : 8; // 3 SD parameters + 8 pairs
            }
            case "json" -> {
                raw = ("<165>1 2025-11-22T07:00:00.123456+01:00 host1.example.com app 1234 ID47 - " + JSON_MSG)
                        .getBytes(StandardCharsets.UTF_8);
                hint = LogEvent.FORMAT_RFC5424;
                step = new JsonParserConfig(null, ".json.", "${MSG}", null, ".", 64, 65536);
                fields = 12;
            }
            default -> throw new IllegalArgumentException("unknown kind " + kind + " (rfc3164, rfc5424, json)");
        }
        SyslogSamples.receive(event, raw, hint);
        new SyslogHeaderParser(zone).parse(event);
        EventParser parser = step.create(new ParseContext("bench.step", "step", zone,
                new MetricGroup("Parser", "bench.step")));
        parser.parse(event);
        if (event.hasFlag(LogEvent.FLAG_PARSE_ERROR) || event.tagCount() != 0 || event.fields().size() != fields) {
            throw new IllegalStateException(kind + " did not parse as intended: " + event.fields().size()
                    + " fields (expected " + fields + "), " + event.tagCount() + " tags");
        }
        for (SinkEncoder e : new SinkEncoder[] {file, hdfs, kafka, elasticsearch, syslog}) {
            out.reset();
            e.encode(event, out);
            if (out.length() < 100) {
                throw new IllegalStateException(e + " wrote " + out.length() + " bytes");
            }
        }
    }

    private static SinkEncoder encoder(RouterConfig cfg, String name, ZoneId zone) {
        for (SinkConfig s : cfg.sinks()) {
            if (s.name().equals(name)) {
                SinkEncoder e = s.encoder(new SinkContext(name, zone, Clock.SYSTEM, new MetricGroup("Sink", name),
                        null));
                if (e == null) {
                    throw new IllegalStateException("sink " + name + " has no encoder");
                }
                return e;
            }
        }
        throw new IllegalStateException("no sink " + name);
    }

    /** The record of {@code e}; returns its length. */
    private int encode(SinkEncoder e) {
        ByteBuilder b = out;
        b.reset();
        e.encode(event, b);
        return b.length();
    }

    @Benchmark
    public int file() {
        return encode(file);
    }

    @Benchmark
    public int hdfs() {
        return encode(hdfs);
    }

    @Benchmark
    public int kafka() {
        return encode(kafka);
    }

    @Benchmark
    public int elasticsearch() {
        return encode(elasticsearch);
    }

    @Benchmark
    public int syslog() {
        return encode(syslog);
    }

    /** For a look at what the encoders write: {@code java -cp router-bench.jar ...SinkEncoderBenchmark KIND}. */
    public static void main(String[] args) throws Exception {
        SinkEncoderBenchmark b = new SinkEncoderBenchmark();
        b.kind = args.length > 0 ? args[0] : SyslogSamples.RFC5424;
        b.setUp();
        for (Map.Entry<String, SinkEncoder> e : Map.of("file", b.file, "hdfs", b.hdfs, "kafka", b.kafka,
                "elasticsearch", b.elasticsearch, "syslog", b.syslog).entrySet()) {
            int n = b.encode(e.getValue());
            System.out.println(e.getKey() + ": " + e.getValue().describe(b.out.array(), 0, n));
        }
    }
}
