package dev.logrouter.bench.core.parse.syslog;

import dev.logrouter.bench.SyslogSamples;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
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
 * Throughput (messages/s) of {@link SyslogHeaderParser#parse} on one ~400-byte frame per message kind, as a parse
 * worker runs it on a ring slot.
 *
 * <p>Each operation refills one reused {@link LogEvent} the way a TCP source does ({@code clear()}, copy of the
 * 400 raw bytes with {@code setRaw}, peer, receive time, source and format hint) and then parses it, so the
 * figure <b>includes the 400-byte copy and the reset</b>; {@link #receiveOnly()} measures that part alone. The
 * format hint is the one the production source would give ({@code network()}: RFC 3164 for {@code rfc3164} and
 * {@code cisco}; {@code syslog()}: RFC 5424 for the others). The receiver zone is a region zone
 * ({@code Europe/Budapest}) so that the parser's hour cache is on the path. Setup checks that every kind parses
 * without error, so the replacement-message path is never what is measured.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class SyslogHeaderParserBenchmark {

    @Param({SyslogSamples.RFC3164, SyslogSamples.RFC5424, SyslogSamples.RFC5424_OCTET_SD, SyslogSamples.CISCO})
    public String kind;

    private final LogEvent event = new LogEvent();
    private SyslogHeaderParser parser;
    private byte[] raw;
    private byte formatHint;

    @Setup
    public void setUp() {
        parser = new SyslogHeaderParser(ZoneId.of("Europe/Budapest"));
        raw = SyslogSamples.frame(kind, SyslogSamples.DEFAULT_SIZE);
        formatHint = SyslogSamples.formatHint(kind);
        parse();
        check();
    }

    /** What a parse worker does per message, with the source's refill of the slot in front of it. */
    @Benchmark
    public int parse() {
        LogEvent e = event;
        e.clear();
        e.setRaw(raw, 0, raw.length);
        e.setPeer(SyslogSamples.PEER, 0, SyslogSamples.PEER.length);
        e.setReceivedMillis(SyslogSamples.RECEIVED_MILLIS);
        e.setSource(1, SyslogSamples.SOURCE_NAME, formatHint, 1L);
        parser.parse(e);
        return e.fieldLength(LogEvent.MSG) + e.fields().size();
    }

    /** Baseline: the refill of the slot without the parse (clear, 400-byte copy, peer, time, source). */
    @Benchmark
    public int receiveOnly() {
        LogEvent e = event;
        e.clear();
        e.setRaw(raw, 0, raw.length);
        e.setPeer(SyslogSamples.PEER, 0, SyslogSamples.PEER.length);
        e.setReceivedMillis(SyslogSamples.RECEIVED_MILLIS);
        e.setSource(1, SyslogSamples.SOURCE_NAME, formatHint, 1L);
        return e.rawLength();
    }

    private void check() {
        LogEvent e = event;
        int expectedSd = switch (kind) {
            case SyslogSamples.RFC5424 -> 3;
            case SyslogSamples.RFC5424_OCTET_SD -> 6;
            case SyslogSamples.CISCO -> 2;
            default -> 0;
        };
        boolean hostExpected = !SyslogSamples.CISCO.equals(kind);
        if (e.hasFlag(LogEvent.FLAG_PARSE_ERROR) || e.fieldLength(LogEvent.PROGRAM) == 0
                || e.fieldLength(LogEvent.MSG) == 0 || !e.isStampSet() || e.fields().size() != expectedSd
                || (hostExpected && e.fieldArray(LogEvent.HOST) != e.raw())) {
            throw new IllegalStateException(kind + " did not parse as intended: flags=" + e.flags()
                    + " program=" + e.fieldLength(LogEvent.PROGRAM) + " msg=" + e.fieldLength(LogEvent.MSG)
                    + " sd=" + e.fields().size());
        }
    }
}
