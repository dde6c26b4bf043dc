package dev.logrouter.bench.core.rewrite;

import dev.logrouter.bench.SyslogSamples;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.parse.ParserConfig;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.rewrite.SetConfig;
import dev.logrouter.core.rewrite.SubstConfig;
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
 * Throughput (messages/s) of one rewrite rule on a ~400-byte message. Every operation refills the event
 * from the frame and runs the header parser first (a rewrite changes the event, so it must start from the
 * same state each time); {@code rule=none} measures that alone, to subtract.
 *
 * <p>Rules ({@code rule}): {@code set-host} sets HOST from a template reading HOST; {@code subst-first}
 * replaces the first {@code user=(\w+)} in MSG with a group reference; {@code subst-global} masks every
 * {@code \d+} in MSG (about 20 matches in the filler text).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class RewriteBenchmark {

    @Param({"none", "set-host", "subst-first", "subst-global"})
    public String rule;

    private final LogEvent event = new LogEvent();
    private byte[] raw;
    private SyslogHeaderParser header;
    private EventParser step;

    @Setup
    public void setUp() {
        ZoneId zone = ZoneId.of("Europe/Budapest");
        header = new SyslogHeaderParser(zone);
        raw = SyslogSamples.frame(SyslogSamples.RFC3164, SyslogSamples.DEFAULT_SIZE);
        ParserConfig cfg = switch (rule) {
            case "none" -> null;
            case "set-host" -> new SetConfig(null, "HOST", "${HOST}.example.com");
            case "subst-first" -> new SubstConfig(null, "MSG", "user=(\\w+)", "regex", "user=<$1>", false, false);
            case "subst-global" -> new SubstConfig(null, "MSG", "\\d+", "regex", "N", true, false);
            default -> throw new IllegalArgumentException("unknown rule: " + rule
                    + " (none, set-host, subst-first, subst-global)");
        };
        step = cfg == null ? e -> { } : cfg.create(new ParseContext("bench", rule, zone, new MetricGroup("Parser",
                "bench")));
        run();
    }

    @Benchmark
    public int run() {
        LogEvent e = event;
        SyslogSamples.receive(e, raw, LogEvent.FORMAT_RFC3164);
        header.parse(e);
        step.parse(e);
        return e.fieldLength(LogEvent.MSG) + e.fieldLength(LogEvent.HOST);
    }
}
