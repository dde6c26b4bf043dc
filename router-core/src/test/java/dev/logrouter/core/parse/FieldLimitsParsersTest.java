package dev.logrouter.core.parse;

import static dev.logrouter.core.parse.MessageParserFixture.context;
import static dev.logrouter.core.parse.MessageParserFixture.fields;
import static dev.logrouter.core.parse.MessageParserFixture.fill;
import static dev.logrouter.core.parse.MessageParserFixture.parserFromYaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.rewrite.SetConfig;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The field limits as the writers of an event's fields meet them: the json parser (fast path, composed escapes and
 * the Jackson path), kv, RFC 5424 structured data, the JSON envelope and a rewrite {@code set}. A limit hit is not a
 * parse failure: the parser succeeds with what fits.
 */
class FieldLimitsParsersTest {

    private final MetricGroup metrics = new MetricGroup("Parser", "limits");

    /** A received frame parsed by the header parser into an event limited as a ring slot would be. */
    private static LogEvent event(int maxFields, int maxValueLength, String frame, byte format) {
        LogEvent e = new LogEvent();
        e.fields().setLimits(maxFields, maxValueLength);
        fill(e, frame.getBytes(StandardCharsets.UTF_8), format);
        return e;
    }

    private static LogEvent bsd(int maxFields, int maxValueLength, String msg) {
        return event(maxFields, maxValueLength, MessageParserFixture.HEADER + msg, LogEvent.FORMAT_RFC3164);
    }

    private LogEvent parsed(String type, LogEvent e, String... options) throws Exception {
        parserFromYaml(type, metrics, options).parse(e);
        assertThat(metrics.value("failed")).as("a limit is not a failure").isZero();
        assertThat(metrics.value("parsed")).isEqualTo(1);
        return e;
    }

    @Test
    void jsonKeepsTheFirstMaxFieldsMembersAndCutsLongStrings() throws Exception {
        LogEvent e = parsed("json", bsd(3, 5, "{\"a\":\"12345\",\"b\":\"123456\",\"c\":7,\"d\":\"x\",\"e\":1}"),
                "prefix: .j.");
        assertThat(fields(e)).containsExactly(entry(".j.a", "12345"), entry(".j.b", "12345"), entry(".j.c", "7"));
        assertThat(e.fields().fieldsDropped()).isEqualTo(2);
        assertThat(e.fields().valuesTruncated()).isEqualTo(1);
    }

    @Test
    void jsonEscapedStringsAreCutAtACharacterBoundary() throws Exception {
        // composed in the table (escapes), and through Jackson (a surrogate pair escape)
        LogEvent e = parsed("json", bsd(10, 5,
                "{\"esc\":\"ab\\nc\\u00e9d\",\"pair\":\"\\ud83d\\ude00xyz\",\"fits\":\"a\\tb\"}"), "prefix: .j.");
        assertThat(fields(e)).containsExactly(entry(".j.esc", "ab\nc"), entry(".j.pair", "😀x"),
                entry(".j.fits", "a\tb"));
        assertThat(e.fields().valuesTruncated()).isEqualTo(2);
    }

    @Test
    void kvKeepsTheFirstMaxFieldsPairs() throws Exception {
        LogEvent e = parsed("kv", bsd(2, 4, "a=1 b=long-value c=3"));
        assertThat(fields(e)).containsExactly(entry("a", "1"), entry("b", "long"));
        assertThat(e.fields().fieldsDropped()).isEqualTo(1);
        assertThat(e.fields().valuesTruncated()).isEqualTo(1);
    }

    @Test
    void structuredDataIsLimitedLikeParserOutput() {
        LogEvent e = event(2, 4, "<165>1 2003-10-11T22:14:15.000003-07:00 host app 77 ID47 "
                + "[x@1 a=\"1\" b=\"wxyz\\\"q\" c=\"3\"] the message", LogEvent.FORMAT_RFC5424);
        assertThat(e.hasFlag(LogEvent.FLAG_PARSE_ERROR)).isFalse();
        assertThat(fields(e)).containsExactly(entry(".SDATA.x@1.a", "1"), entry(".SDATA.x@1.b", "wxyz"));
        assertThat(e.fields().fieldsDropped()).isEqualTo(1);
        assertThat(e.fields().valuesTruncated()).isEqualTo(1);
    }

    @Test
    void theJsonEnvelopeIsLimitedToo() {
        LogEvent e = event(1, 3, "{\"MESSAGE\":\"m\",\"HOST\":\"h\",\"custom\":\"value\",\"other\":\"x\"}",
                LogEvent.FORMAT_JSON);
        assertThat(e.hasFlag(LogEvent.FLAG_PARSE_ERROR)).isFalse();
        assertThat(fields(e)).containsExactly(entry("custom", "val"));
        assertThat(e.fields().fieldsDropped()).isEqualTo(1);
        assertThat(e.fields().valuesTruncated()).isEqualTo(1);
    }

    @Test
    void aRewriteSetIsCutAndANewNameOnAFullEventDropped() {
        LogEvent e = bsd(1, 6, "hello world");
        new SetConfig(null, "composed", "${MSG} ${MSG}").create(context("set", metrics)).parse(e);
        new SetConfig(null, "second", "x").create(context("set", metrics)).parse(e);
        assertThat(fields(e)).containsExactly(entry("composed", "hello "));
        assertThat(e.fields().valuesTruncated()).isEqualTo(1);
        assertThat(e.fields().fieldsDropped()).isEqualTo(1);
    }
}
