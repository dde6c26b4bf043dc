package dev.logrouter.core.parse;

import dev.logrouter.core.config.ConfigLoader;
import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.config.TestFileSinkConfig;
import dev.logrouter.core.config.TestTcpSourceConfig;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;

import org.junit.jupiter.api.Assumptions;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Test-side helpers for the message parsers: real syslog frames run through {@link SyslogHeaderParser}, parser
 * steps loaded from YAML the way the router loads them (so defaults come from the {@code @Option} declarations),
 * and readers for MSG and the field table.
 */
public final class MessageParserFixture {

    /** The BSD header every test frame starts with; MSG is what follows. */
    public static final String HEADER = "<13>Nov 22 07:00:00 host1 app[1234]: ";
    private static final byte[] PEER = "127.0.0.1".getBytes(StandardCharsets.US_ASCII);

    private MessageParserFixture() {
    }

    /** A received frame {@code HEADER + msg} (UTF-8) with its syslog header parsed. */
    public static LogEvent syslogEvent(String msg) {
        return syslogEvent((HEADER + msg).getBytes(StandardCharsets.UTF_8));
    }

    public static LogEvent syslogEvent(byte[] frame) {
        LogEvent e = new LogEvent();
        fill(e, frame);
        return e;
    }

    /**
     * A frame {@code header + msg} (UTF-8) received by a {@code syslog()} source (format detected: RFC 5424 or
     * RFC 3164), header parsed; fails the test when the header does not parse.
     */
    public static LogEvent syslogEvent(String header, String msg) {
        return syslogEvent((header + msg).getBytes(StandardCharsets.UTF_8), LogEvent.FORMAT_AUTO);
    }

    /**
     * A received frame with its header parsed as a source that gives {@code formatHint} (a {@code LogEvent.FORMAT_*});
     * fails the test when the header does not parse.
     */
    public static LogEvent syslogEvent(byte[] frame, byte formatHint) {
        LogEvent e = new LogEvent();
        fill(e, frame, formatHint);
        assertThat(e.hasFlag(LogEvent.FLAG_PARSE_ERROR)).as("syslog header parse error").isFalse();
        return e;
    }

    /** {@code header} (UTF-8) followed by {@code msg} as it is, for MSG bytes that are not text. */
    public static byte[] frame(String header, byte[] msg) {
        byte[] head = header.getBytes(StandardCharsets.UTF_8);
        byte[] raw = Arrays.copyOf(head, head.length + msg.length);
        System.arraycopy(msg, 0, raw, head.length, msg.length);
        return raw;
    }

    /** Refills a reused event with a frame and parses its header, as a source and the parse worker do. */
    public static void fill(LogEvent e, byte[] frame) {
        fill(e, frame, LogEvent.FORMAT_RFC3164);
    }

    /** {@link #fill(LogEvent, byte[])} for a source that gives {@code formatHint} (a {@code LogEvent.FORMAT_*}). */
    public static void fill(LogEvent e, byte[] frame, byte formatHint) {
        e.clear();
        e.setRaw(frame, 0, frame.length);
        e.setPeer(PEER, 0, PEER.length);
        e.setSource(1, PEER, formatHint, 0L);
        e.setReceivedMillis(1_763_794_805_000L);
        new SyslogHeaderParser(ZoneOffset.UTC).parse(e);
    }

    /** A config loader with the test source ({@code tcp}) and sink ({@code file}) types and the core parsers. */
    public static ConfigLoader loader() {
        return new ConfigLoader(Map.of("tcp", TestTcpSourceConfig.class), Map.of("file", TestFileSinkConfig.class));
    }

    /** The one step of chain {@code p} in a minimal configuration whose chain is given as YAML lines. */
    public static ParserConfig loadStep(String... stepLines) throws Exception {
        StringBuilder yaml = new StringBuilder(String.join("\n",
                "sources:",
                "  - type: tcp",
                "    name: in",
                "sinks:",
                "  - type: file",
                "    name: out",
                "    path: /x",
                "parsers:",
                "  p:",
                ""));
        for (int i = 0; i < stepLines.length; i++) {
            yaml.append(i == 0 ? "    - " : "      ").append(stepLines[i]).append('\n');
        }
        RouterConfig cfg = loader().load(yaml.toString(), "test.yaml");
        List<ParserConfig> chain = cfg.parsers().get("p");
        return chain.get(0);
    }

    /**
     * The parser step {@code type: <type>} with the given further YAML option lines, loaded as the router loads it
     * and created with {@link #context}.
     */
    public static EventParser parserFromYaml(String type, MetricGroup metrics, String... options) throws Exception {
        String[] lines = new String[options.length + 1];
        lines[0] = "type: " + type;
        System.arraycopy(options, 0, lines, 1, options.length);
        return loadStep(lines).create(context(type, metrics));
    }

    /** {@link #syslogEvent(String)} of {@code msg}, then parsed by {@code p}. */
    public static LogEvent parse(EventParser p, String msg) {
        LogEvent e = syslogEvent(msg);
        p.parse(e);
        return e;
    }

    /**
     * Bytes this thread allocates while {@code p} parses {@code e} {@code runs} times (the field table cleared
     * before each), after {@code warmup} such parses; skips the test where the JVM cannot tell.
     */
    public static long allocatedBytes(EventParser p, LogEvent e, int warmup, int runs) {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(mx instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        for (int i = 0; i < warmup; i++) {
            e.fields().clear();
            p.parse(e);
        }
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        for (int i = 0; i < runs; i++) {
            e.fields().clear();
            p.parse(e);
        }
        return threads.getThreadAllocatedBytes(tid) - before;
    }

    public static ParseContext context(String type, MetricGroup metrics) {
        return new ParseContext(metrics.name(), type, ZoneOffset.UTC, metrics);
    }

    public static String msg(LogEvent e) {
        return new String(e.fieldArray(LogEvent.MSG), e.fieldOffset(LogEvent.MSG), e.fieldLength(LogEvent.MSG),
                StandardCharsets.UTF_8);
    }

    /** Every field in the table, in insertion order. */
    public static Map<String, String> fields(LogEvent e) {
        FieldTable t = e.fields();
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < t.size(); i++) {
            m.put(t.name(i), t.value(i));
        }
        return m;
    }
}
