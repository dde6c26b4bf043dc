package dev.logrouter.bench.core.parse;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.parse.ParserConfig;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;

/**
 * What every message parser benchmark shares: throughput on one thread of one parser step on one event whose
 * syslog header was parsed once in setup (so MSG is the payload); each operation clears the event's field table
 * (what {@code LogEvent.clear()} does for it between messages) and parses the whole MSG. A subclass picks the
 * payload shape ({@code @Param}) and the parser in its {@code @Setup}, through {@link #receive}, {@link #create}
 * and {@link #checkParsed}, so that a failure path is never what is measured.
 *
 * <p>Threads: one JMH benchmark thread per instance.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public abstract class ParserBenchmark {

    protected final LogEvent event = new LogEvent();
    protected EventParser parser;

    /** One message: the field table reset, then the whole MSG parsed into fields; returns the field count. */
    @Benchmark
    public int parse() {
        LogEvent e = event;
        e.fields().clear();
        parser.parse(e);
        return e.fields().size();
    }

    /**
     * Fills the event with the frame {@code <134>1 2024-05-01T12:34:56.789Z <host> app 4242 - - <msg>} (UTF-8) and
     * parses its header.
     */
    protected void receive(String host, String msg) {
        byte[] raw = ("<134>1 2024-05-01T12:34:56.789Z " + host + " app 4242 - - " + msg)
                .getBytes(StandardCharsets.UTF_8);
        event.setRaw(raw, 0, raw.length);
        new SyslogHeaderParser(ZoneOffset.UTC).parse(event);
    }

    /** Sets {@link #parser} to the step of {@code cfg}, named {@code bench.<type>}, with its own metric group. */
    protected void create(ParserConfig cfg, String type) {
        String name = "bench." + type;
        parser = cfg.create(new ParseContext(name, type, ZoneOffset.UTC, new MetricGroup("Parser", name)));
    }

    /** Parses once and throws unless that wrote {@code expected} fields and no tag (no failure tag). */
    protected void checkParsed(String shape, int expected) {
        int fields = parse();
        if (fields != expected || event.tagCount() != 0) {
            throw new IllegalStateException(shape + " (" + event.rawLength() + " bytes) did not parse as intended: "
                    + fields + " fields (expected " + expected + "), " + event.tagCount() + " tags");
        }
    }
}
