package dev.logrouter.core.parse;

import dev.logrouter.core.config.ConfigLoader;
import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.config.TestFileSinkConfig;
import dev.logrouter.core.config.TestTcpSourceConfig;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    /** Refills a reused event with a frame and parses its header, as a source and the parse worker do. */
    public static void fill(LogEvent e, byte[] frame) {
        e.clear();
        e.setRaw(frame, 0, frame.length);
        e.setPeer(PEER, 0, PEER.length);
        e.setSource(1, PEER, LogEvent.FORMAT_RFC3164, 0L);
        e.setReceivedMillis(1_763_794_805_000L);
        new SyslogHeaderParser(ZoneOffset.UTC).parse(e);
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
        ConfigLoader loader = new ConfigLoader(Map.of("tcp", TestTcpSourceConfig.class),
                Map.of("file", TestFileSinkConfig.class));
        RouterConfig cfg = loader.load(yaml.toString(), "test.yaml");
        List<ParserConfig> chain = cfg.parsers().get("p");
        return chain.get(0);
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
