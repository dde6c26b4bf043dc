package dev.logrouter.core.parse;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The output budget of the message parsers ({@link FieldParser#outputBudget}): a message whose flattened names
 * repeat one long parent path thousands of times (found while fuzzing: the fields grow with path length × members)
 * is a parse failure that leaves the event's table small, while
 * ordinary nesting parses.
 */
class OutputBudgetTest {

    private static final String LONG_KEY = "k".repeat(8000);

    /** {@code {"<8000 k>":{"0":1,"1":1,...}}}: about 16 KiB that flattens to about 11 MB of names. */
    static String jsonBomb() {
        StringBuilder sb = new StringBuilder("{\"" + LONG_KEY + "\":{");
        for (int i = 0; sb.length() < 16_000; i++) {
            sb.append(i == 0 ? "" : ",").append('"').append(Integer.toString(i, 36)).append("\":1");
        }
        return sb.append("}}").toString();
    }

    /** {@code <kkk…><e0>1</e0><e1>1</e1>…</kkk…>}: the same in XML. */
    static String xmlBomb() {
        StringBuilder sb = new StringBuilder("<" + LONG_KEY + ">");
        for (int i = 0; sb.length() < 24_000; i++) {
            String n = "e" + Integer.toString(i, 36);
            sb.append('<').append(n).append(">1</").append(n).append('>');
        }
        return sb.append("</").append(LONG_KEY).append('>').toString();
    }

    private static LogEvent parse(String type, String msg, String... options) throws Exception {
        EventParser p = MessageParserFixture.parserFromYaml(type, new MetricGroup("Parser", "budget." + type), options);
        LogEvent e = ParserFuzzing.messageEvent(msg.getBytes(StandardCharsets.UTF_8));
        p.parse(e);
        return e;
    }

    @Test
    void jsonFlatteningFarBeyondItsSizeFailsAndKeepsTheTableSmall() throws Exception {
        String bomb = jsonBomb();
        LogEvent e = parse("json", bomb, "prefix: \".json.\"");
        assertThat(ParserFuzzing.taggedFailed(e, "json")).isTrue();
        assertThat(e.fields().size()).isZero();
        assertThat(e.fields().data().length).isLessThanOrEqualTo(2 * FieldParser.outputBudget(bomb.length()));
    }

    @Test
    void xmlFlatteningFarBeyondItsSizeFailsAndKeepsTheTableSmall() throws Exception {
        String bomb = xmlBomb();
        LogEvent e = parse("xml", bomb);
        assertThat(ParserFuzzing.taggedFailed(e, "xml")).isTrue();
        assertThat(e.fields().size()).isZero();
        assertThat(e.fields().data().length).isLessThanOrEqualTo(2 * FieldParser.outputBudget(bomb.length()));
    }

    @Test
    void jsonEnvelopeFlatteningFarBeyondItsSizeFallsBackToTheSyslogParsers() {
        byte[] frame = jsonBomb().getBytes(StandardCharsets.UTF_8);
        LogEvent e = new LogEvent();
        e.setRaw(frame, 0, frame.length);
        e.setSource(1, new byte[0], LogEvent.FORMAT_JSON, 0L);
        e.setReceivedMillis(1_763_794_805_000L);
        new SyslogHeaderParser(ZoneOffset.UTC).parse(e);
        assertThat(e.fields().size()).as("no envelope member kept").isLessThanOrEqualTo(1);
        assertThat(e.fields().data().length).isLessThanOrEqualTo(2 * FieldParser.outputBudget(frame.length));
    }

    @Test
    void ordinaryNestingWithinTheBudgetParses() throws Exception {
        StringBuilder sb = new StringBuilder("{\"kubernetes\":{\"labels\":{");
        for (int i = 0; i < 2000; i++) {
            sb.append(i == 0 ? "" : ",").append("\"l").append(i).append("\":\"v\"");
        }
        LogEvent e = parse("json", sb.append("}}}").toString(), "prefix: \".json.\"");
        assertThat(ParserFuzzing.taggedFailed(e, "json")).isFalse();
        assertThat(e.fields().size()).isEqualTo(2000);
        assertThat(e.fields().get(".json.kubernetes.labels.l1999")).isEqualTo("v");
    }
}
