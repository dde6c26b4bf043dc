package dev.logrouter.core.parse.syslog;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Template;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Events read back from the JSON a Kafka sink writes ({@link LogEvent#FORMAT_JSON}), through the real
 * {@link SyslogHeaderParser}: header, PRI, stamp, tags, flattened name-value pairs, and the fallback to the
 * syslog parsers when the value is not one JSON object. (The round trip through a real broker is in
 * router-sinks' KafkaSinkTest.)
 */
class JsonEnvelopeParserTest {

    private static final long RECEIVED = 1_763_800_000_000L; // 2025-11-22T08:26:40Z

    private final SyslogHeaderParser parser = new SyslogHeaderParser(ZoneOffset.UTC);
    private final LogEvent e = new LogEvent();

    private void parse(String value) {
        parse(value, LogEvent.FORMAT_JSON);
    }

    private void parse(String value, byte hint) {
        e.clear();
        byte[] b = value.getBytes(StandardCharsets.UTF_8);
        e.setRaw(b, 0, b.length);
        e.setSource(0, "k".getBytes(StandardCharsets.US_ASCII), hint, 1L);
        e.setReceivedMillis(RECEIVED);
        parser.parse(e);
    }

    private String render(String template) {
        ByteBuilder out = new ByteBuilder(64);
        Template.compile(template, ZoneOffset.UTC).render(e, out);
        return out.toString();
    }

    @Test
    void headerPriStampAndPairsComeBack() {
        parse("{\"FACILITY\":\"auth\",\"PRIORITY\":\"err\",\"HOST\":\"web1\",\"PROGRAM\":\"sshd\",\"PID\":\"77\","
                + "\"MESSAGE\":\"Failed password\",\"ISODATE\":\"2026-03-01T10:00:00-05:00\",\"USEC\":\"000250\","
                + "\"DATE\":\"Mar  1 10:00:00\",\"_SDATA\":{\"origin\":{\"ip\":\"10.0.0.1\"}},"
                + "\"user\":{\"name\":\"bob\",\"ids\":[1,2.5,true,null]},\"empty\":null,\"TAGS\":\"a,b\"}\n");
        assertThat(e.hasFlag(LogEvent.FLAG_PARSE_ERROR)).isFalse();
        assertThat(render("${FACILITY}.${LEVEL} ${HOST} ${PROGRAM}[${PID}] ${MSG}"))
                .isEqualTo("auth.err web1 sshd[77] Failed password");
        assertThat(render("${ISODATE} ${USEC}")).isEqualTo("2026-03-01T10:00:00-05:00 000250");
        assertThat(render("${.SDATA.origin.ip}|${user.name}|${user.ids[0]}|${user.ids[1]}|${user.ids[2]}|"
                + "${user.ids[3]}|${TAGS}")).isEqualTo("10.0.0.1|bob|1|2.5|true||a,b");
        assertThat(render("${SDATA}")).as("structured data from the envelope is written back as an element")
                .isEqualTo("[origin ip=\"10.0.0.1\"]");
        assertThat(e.fields().get("empty")).isNull();
        assertThat(e.fields().get("DATE")).isNull();
        assertThat(e.stampFracDigits()).as("USEC: microseconds").isEqualTo(6);
    }

    @Test
    void fractionDigitsComeFromUsecOrFromIsodate() {
        parse("{\"ISODATE\":\"2026-03-01T10:00:00-05:00\",\"USEC\":\"3\",\"MESSAGE\":\"x\"}");
        assertThat(e.stampMicros()).isEqualTo(3);
        assertThat(e.stampFracDigits()).isEqualTo(6);
        parse("{\"ISODATE\":\"2026-03-01T10:00:00.003-05:00\",\"MESSAGE\":\"x\"}");
        assertThat(e.stampMicros()).isEqualTo(3_000);
        assertThat(e.stampFracDigits()).as("as ISODATE had them").isEqualTo(3);
        parse("{\"ISODATE\":\"2026-03-01T10:00:00-05:00\",\"MESSAGE\":\"x\"}");
        assertThat(e.stampFracDigits()).isZero();
        parse("{\"ISODATE\":\"2026-03-01T10:00:00-05:00\",\"USEC\":\"1234567\",\"MESSAGE\":\"x\"}");
        assertThat(e.stampFracDigits()).as("an unreadable USEC is ignored").isZero();
        parse("{\"MESSAGE\":\"no stamp\",\"USEC\":\"000250\"}");
        assertThat(e.stampFracDigits()).as("the receive time").isZero();
    }

    @Test
    void numbersForFacilityAndSeverityAndTheReceiveTimeWithoutIsodate() {
        parse("{\"FACILITY\":16,\"PRIORITY\":6,\"MESSAGE\":\"x\"}");
        assertThat(e.pri()).isEqualTo(16 * 8 + 6);
        assertThat(render("${ISODATE}")).isEqualTo("2025-11-22T08:26:40+00:00");
        parse("{\"MESSAGE\":\"no pri\"}");
        assertThat(e.pri()).isEqualTo(LogEvent.DEFAULT_PRI);
    }

    @Test
    void aValueThatIsNotOneJsonObjectIsParsedAsSyslog() {
        parse("<13>Mar  1 10:00:00 host app: {\"not\":\"a frame\"}");
        assertThat(render("${HOST} ${PROGRAM} ${MSG}")).isEqualTo("host app {\"not\":\"a frame\"}");

        String all = "${PRI} ${ISODATE} ${HOST}|${PROGRAM}|${PID}|${MSG}|${SDATA}";
        for (String notJson : List.of("{\"HOST\":\"cut\",\"MESSAGE\":\"trunc", "{\"a\":1} trailing", "[1,2]",
                "{\"a\":{\"b\":}}")) {
            parse(notJson, LogEvent.FORMAT_AUTO);
            String asSyslog = render(all);
            parse(notJson);
            assertThat(render(all)).as(notJson).isEqualTo(asSyslog); // nothing of the JSON stays
            assertThat(e.fields().size()).as(notJson).isZero();
        }
    }
}
