package dev.logrouter.sinks.elasticsearch;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.template.ByteBuilder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The built-in document, byte for byte, in both schemas, without a server: header fields (a numeric PID and a
 * PROCID that is not one), names and values JSON-escaped, tags, name-value pairs with a leading dot, metadata names
 * and pairs named like a built-in field left out; and the encoder's record around it.
 */
class DocumentWriterTest {

    private final LogEvent event = new LogEvent();
    private final ByteBuilder out = new ByteBuilder(64);

    private void parse(String raw, byte hint) {
        event.clear();
        byte[] b = raw.getBytes(StandardCharsets.UTF_8);
        event.setRaw(b, 0, b.length);
        event.setSource(1, "in".getBytes(StandardCharsets.US_ASCII), hint, 1L);
        event.setReceivedMillis(1_700_000_000_000L);
        new SyslogHeaderParser(ZoneOffset.UTC).parse(event);
    }

    /** An RFC 5424 event with SD, an escaped MSG, a tag and pairs that exercise every naming rule. */
    private void richEvent() {
        parse("<165>1 2026-11-22T10:00:00.123+01:00 web1 sshd 42 ID7 [meta seq=\"9\"] say \"hi\"\\ \u00e9",
                LogEvent.FORMAT_RFC5424);
        event.addTag(Tags.id("doc.test"));
        event.fields().set(".app.user", "alice");
        event.fields().set(".id", "a pair named like a metadata field");
        event.fields().set("_source", "another");
        event.fields().set("host", "a pair named like a built-in field is left out");
        event.fields().set("quote\"name", "tab\there");
    }

    /** A configuration with {@code index}, a generated id and the built-in document; the rest left unset. */
    private static ElasticsearchSinkConfig config(String index) {
        return new ElasticsearchSinkConfig("es", List.of("http://127.0.0.1:9200"), index, "create", null, true,
                "syslog", null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null);
    }

    private String write(boolean ecs) {
        out.reset();
        new DocumentWriter(ecs, ZoneOffset.UTC).write(event, out);
        return out.toString();
    }

    @Test
    void theSyslogDocumentHasEveryBuiltInFieldAndThePairs() {
        richEvent();
        assertThat(write(false)).isEqualTo("{\"@timestamp\":\"2026-11-22T10:00:00.123+01:00\",\"host\":\"web1\","
                + "\"program\":\"sshd\",\"pid\":42,\"msgid\":\"ID7\",\"severity\":\"notice\",\"facility\":\"local4\","
                + "\"message\":\"say \\\"hi\\\"\\\\ \u00e9\",\"tags\":[\"doc.test\"],\"_SDATA.meta.seq\":\"9\","
                + "\"_app.user\":\"alice\",\"__id\":\"a pair named like a metadata field\",\"__source\":\"another\","
                + "\"quote\\\"name\":\"tab\\there\"}");
    }

    @Test
    void theEcsDocumentNamesFieldsAsEcsDoes() {
        richEvent();
        // "host" is the object host.name lies in: left out; host.ip is left to the index mapping
        event.fields().set("host.ip", "10.0.0.1");
        assertThat(write(true)).isEqualTo("{\"@timestamp\":\"2026-11-22T10:00:00.123+01:00\",\"host.name\":\"web1\","
                + "\"process.name\":\"sshd\",\"process.pid\":42,\"log.syslog.msgid\":\"ID7\","
                + "\"log.syslog.priority\":165,\"log.syslog.severity.code\":5,\"log.syslog.severity.name\":\"notice\","
                + "\"log.syslog.facility.code\":20,\"log.syslog.facility.name\":\"local4\","
                + "\"message\":\"say \\\"hi\\\"\\\\ \u00e9\",\"tags\":[\"doc.test\"],\"_SDATA.meta.seq\":\"9\","
                + "\"_app.user\":\"alice\",\"__id\":\"a pair named like a metadata field\",\"__source\":\"another\","
                + "\"quote\\\"name\":\"tab\\there\",\"host.ip\":\"10.0.0.1\"}");
    }

    @Test
    void aProcidThatIsNoNumberIsAStringAndUnsetFieldsAreLeftOut() {
        parse("<13>1 2026-11-22T10:00:00Z web2 app proc-x - - other", LogEvent.FORMAT_RFC5424);
        assertThat(write(false)).isEqualTo("{\"@timestamp\":\"2026-11-22T10:00:00.000+00:00\",\"host\":\"web2\","
                + "\"program\":\"app\",\"procid\":\"proc-x\",\"severity\":\"notice\",\"facility\":\"user\","
                + "\"message\":\"other\"}");
        assertThat(write(true)).isEqualTo("{\"@timestamp\":\"2026-11-22T10:00:00.000+00:00\","
                + "\"host.name\":\"web2\",\"process.name\":\"app\",\"log.syslog.procid\":\"proc-x\","
                + "\"log.syslog.priority\":13,\"log.syslog.severity.code\":5,\"log.syslog.severity.name\":\"notice\","
                + "\"log.syslog.facility.code\":1,\"log.syslog.facility.name\":\"user\",\"message\":\"other\"}");
    }

    @Test
    void theDocumentFollowsTheIndexAndTheIdInTheRecordUnchanged() {
        richEvent();
        String document = write(false);
        ElasticsearchEncoder encoder = new ElasticsearchEncoder(config("Logs-${HOST}"),
                ZoneOffset.UTC);
        out.reset();
        encoder.encode(event, out);
        byte[] r = out.array();
        int index = r[0] & 0xFF;
        assertThat(new String(r, 1, index, StandardCharsets.UTF_8)).isEqualTo("logs-web1");
        int id = ByteBuilder.getInt(r, 1 + index);
        assertThat(id).isEqualTo(DocumentIds.LENGTH);
        int doc = 1 + index + 4 + id;
        assertThat(new String(r, doc, out.length() - doc, StandardCharsets.UTF_8)).isEqualTo(document);
        assertThat(encoder.payloadLength(r, 0, out.length())).isEqualTo(out.length() - doc);
    }
}
