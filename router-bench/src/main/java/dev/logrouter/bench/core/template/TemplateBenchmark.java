package dev.logrouter.bench.core.template;

import dev.logrouter.bench.SyslogSamples;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Template;
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

import java.time.ZoneId;
import java.util.concurrent.TimeUnit;

/**
 * Throughput (lines/s) of {@link Template#render(LogEvent, ByteBuilder)} for the file sink's line templates, on
 * one event parsed once in setup, into one reused {@link ByteBuilder} (reset per line, as a sink handler does).
 *
 * <p>Templates ({@code template}): {@code isodate} is the default file line
 * {@code ${ISODATE} ${HOST} ${MSGHDR}${MSG}\n}; {@code date} is syslog-ng's default
 * {@code ${DATE} ${HOST} ${MSGHDR}${MSG}\n}; {@code json} is the JSON-lines format
 * {@code $(format-json --scope rfc5424 --scope nv-pairs)\n} (header macros, structured data nested, ~8-11 keys);
 * {@code rfc5424} is {@code $(format-syslog-rfc5424)\n}. Messages ({@code kind}): ~400-byte RFC 3164 and RFC 5424 frames
 * (see {@link SyslogSamples}); the rendered line is ~400 bytes, most of it the MSG copy.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class TemplateBenchmark {

    @Param({"isodate", "date", "json", "rfc5424"})
    public String template;

    @Param({SyslogSamples.RFC3164, SyslogSamples.RFC5424})
    public String kind;

    private final LogEvent event = new LogEvent();
    private final ByteBuilder out = new ByteBuilder(1024);
    private Template compiled;

    @Setup
    public void setUp() {
        ZoneId zone = ZoneId.of("Europe/Budapest");
        String text = switch (template) {
            case "isodate" -> "${ISODATE} ${HOST} ${MSGHDR}${MSG}\n";
            case "date" -> "${DATE} ${HOST} ${MSGHDR}${MSG}\n";
            case "json" -> "$(format-json --scope rfc5424 --scope nv-pairs)\n";
            case "rfc5424" -> "$(format-syslog-rfc5424)\n";
            default -> throw new IllegalArgumentException("unknown template: " + template
                    + " (isodate, date, json, rfc5424)");
        };
        compiled = Template.compile(text, zone);
        byte[] raw = SyslogSamples.frame(kind, SyslogSamples.DEFAULT_SIZE);
        SyslogSamples.receive(event, raw, SyslogSamples.formatHint(kind));
        new SyslogHeaderParser(zone).parse(event);
        if (event.hasFlag(LogEvent.FLAG_PARSE_ERROR)) {
            throw new IllegalStateException(kind + " did not parse");
        }
        render();
    }

    @Benchmark
    public int render() {
        ByteBuilder b = out;
        b.reset();
        compiled.render(event, b);
        return b.length();
    }
}
