package dev.logrouter.sinks.elasticsearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.journal.Buffer;
import dev.logrouter.core.journal.JournalConfig;
import dev.logrouter.core.journal.Overflow;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.sink.SinkContext;
import dev.logrouter.core.testing.Conditions;
import dev.logrouter.core.testing.Ports;
import dev.logrouter.core.util.Clock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Elasticsearch sink against a real server (the 8.19 distribution, one per class, with https and basic
 * authentication, which every test goes through): every document indexed once with the built-in fields (both
 * schemas), a document the mapping rejects dead-lettered with the rest indexed, create vs index on explicit ids, a
 * dead host skipped for a live one, a request no host takes (none live, a wrong password) kept for the next
 * flush, and with {@code buffer: journal} a backlog journaled while no server was reachable indexed once after a
 * restart.
 */
class ElasticsearchSinkTest {

    @TempDir
    static Path dir;
    static ElasticsearchServer es;

    private final LogEvent slot = new LogEvent();
    private final SyslogHeaderParser parser = new SyslogHeaderParser(ZoneOffset.UTC);
    private final MetricGroup metrics = new MetricGroup("Sink", "es");
    private final ObjectMapper json = new ObjectMapper();

    @BeforeAll
    static void startServer() throws Exception {
        es = ElasticsearchServer.launchSecured(Map.of());
    }

    @AfterAll
    static void stopServer() {
        if (es != null) {
            es.close();
        }
    }

    @Test
    void everyDocumentIsIndexedOnceWithTheBuiltInFields() throws Exception {
        // a rendered index name is made valid: Trip → trip
        Sink sink = sink(Map.of("index", "Idx-${PROGRAM}", "batch-size", 300, "max-in-flight", 3));
        sink.start();
        int tag = Tags.id("es.test");
        for (int i = 0; i < 2000; i++) {
            parse("<165>1 2026-11-22T10:00:0" + (i % 10) + ".123+01:00 host" + (i % 5) + " Trip 42 ID7 "
                    + "[meta seq=\"" + i + "\"] message " + i, LogEvent.FORMAT_RFC5424);
            slot.fields().set(".app.user", "user" + i);
            slot.fields().set("host", "a pair named like a built-in field is left out");
            slot.addTag(tag);
            sink.append(slot);
        }
        sink.flush();
        assertThat(metrics.value("indexed")).isEqualTo(2000);
        assertThat(es.count("idx-trip")).isEqualTo(2000);

        Set<Integer> seen = new HashSet<>();
        for (JsonNode d : es.documents("idx-trip")) {
            int i = Integer.parseInt(d.get("message").asText().substring("message ".length()));
            assertThat(seen.add(i)).as("document %d indexed once", i).isTrue();
            assertThat(d.get("@timestamp").asText()).isEqualTo("2026-11-22T10:00:0" + (i % 10) + ".123+01:00");
            assertThat(d.get("host").asText()).isEqualTo("host" + (i % 5));
            assertThat(d.get("program").asText()).isEqualTo("Trip");
            assertThat(d.get("pid").isIntegralNumber()).isTrue();
            assertThat(d.get("pid").asInt()).isEqualTo(42);
            assertThat(d.get("msgid").asText()).isEqualTo("ID7");
            assertThat(d.get("severity").asText()).isEqualTo("notice");
            assertThat(d.get("facility").asText()).isEqualTo("local4");
            assertThat(d.get("tags").get(0).asText()).isEqualTo("es.test");
            assertThat(d.get("_SDATA.meta.seq").asText()).isEqualTo(Integer.toString(i));
            assertThat(d.get("_app.user").asText()).isEqualTo("user" + i);
        }
        assertThat(seen).hasSize(2000);
        // dotted names are objects in the mapping: searchable by path
        assertThat(es.call("GET", "/idx-trip/_count?q=_app.user:user7", null).get("count").asLong()).isEqualTo(1);
        sink.close();
    }

    @Test
    void theEcsSchemaNamesFieldsAsEcsDoes() throws Exception {
        Sink sink = sink(Map.of("index", "ecs", "schema", "ecs"));
        sink.start();
        parse("<13>Mar  1 10:00:00 web1 sshd[7]: accepted", LogEvent.FORMAT_RFC3164);
        sink.append(slot);
        parse("<13>1 2026-11-22T10:00:00Z web2 app proc-x - - other", LogEvent.FORMAT_RFC5424);
        sink.append(slot);
        sink.flush();
        assertThat(es.count("ecs")).isEqualTo(2);
        assertThat(es.call("GET", "/ecs/_count?q=host.name:web1%20AND%20process.name:sshd%20AND%20process.pid:7"
                + "%20AND%20log.syslog.severity.name:notice%20AND%20log.syslog.facility.code:1", null)
                .get("count").asLong()).isEqualTo(1);
        assertThat(es.call("GET", "/ecs/_count?q=log.syslog.procid:proc-x", null).get("count").asLong()).isEqualTo(1);
        JsonNode mapping = es.call("GET", "/ecs/_mapping", null).get("ecs").get("mappings").get("properties");
        assertThat(mapping.get("@timestamp").get("type").asText()).isEqualTo("date");
        assertThat(mapping.get("process").get("properties").get("pid").get("type").asText()).isEqualTo("long");
        sink.close();
    }

    @Test
    void aDocumentTheMappingRejectsIsDeadLetteredAndTheRestIndexed() throws Exception {
        es.call("PUT", "/mapped", "{\"mappings\":{\"properties\":{\"bytes\":{\"type\":\"long\"}}}}");
        Path dead = dir.resolve("dead/mapped.jsonl");
        Sink sink = sink(Map.of("index", "mapped", "dead-letter", dead.toString()));
        sink.start();
        for (int i = 0; i < 20; i++) {
            parse("<13>Mar  1 10:00:00 h app: m" + i, LogEvent.FORMAT_RFC3164);
            slot.fields().set("bytes", i == 7 ? "lots" : Integer.toString(i * 100));
            sink.append(slot);
        }
        sink.flush(); // returns: a mapping error is never retried
        assertThat(es.count("mapped")).isEqualTo(19);
        assertThat(metrics.value("indexed")).isEqualTo(19);
        assertThat(metrics.value("deadLettered")).isEqualTo(1);
        List<String> lines = Files.readAllLines(dead);
        assertThat(lines).hasSize(1);
        JsonNode d = json.readTree(lines.get(0));
        assertThat(d.get("sink").asText()).isEqualTo("es");
        assertThat(d.get("target").asText()).isEqualTo("mapped");
        assertThat(d.get("status").asInt()).isEqualTo(400);
        assertThat(d.get("reason").asText()).contains("parsing_exception").contains("[bytes]");
        assertThat(d.get("key").asText()).hasSize(20); // the generated _id
        JsonNode doc = json.readTree(d.get("event").asText());
        assertThat(doc.get("message").asText()).isEqualTo("m7");
        assertThat(doc.get("bytes").asText()).isEqualTo("lots");
        sink.close();
    }

    @Test
    void explicitIdsCreateOnceOrReplace() throws Exception {
        Path dead = dir.resolve("dead/ids.jsonl");
        Sink create = sink(Map.of("index", "ids-create", "id", "${MSGID}", "dead-letter",
                dead.toString()));
        create.start();
        parse("<13>1 2026-11-22T10:00:00Z h app - same - first", LogEvent.FORMAT_RFC5424);
        create.append(slot);
        parse("<13>1 2026-11-22T10:00:00Z h app - same - second", LogEvent.FORMAT_RFC5424);
        create.append(slot);
        create.flush();
        assertThat(es.documents("ids-create")).singleElement()
                .satisfies(d -> assertThat(d.get("message").asText()).isEqualTo("first"));
        JsonNode conflict = json.readTree(Files.readAllLines(dead).get(0));
        assertThat(conflict.get("status").asInt()).isEqualTo(409);
        assertThat(conflict.get("key").asText()).isEqualTo("same");
        assertThat(conflict.get("reason").asText()).startsWith("version_conflict_engine_exception");
        create.close();

        Sink replace = sink(Map.of("index", "ids-index", "id", "${MSGID}", "op-type", "index"));
        replace.start();
        parse("<13>1 2026-11-22T10:00:00Z h app - same - first", LogEvent.FORMAT_RFC5424);
        replace.append(slot);
        replace.flush();
        parse("<13>1 2026-11-22T10:00:00Z h app - same - second", LogEvent.FORMAT_RFC5424);
        replace.append(slot);
        replace.flush();
        assertThat(es.documents("ids-index")).singleElement()
                .satisfies(d -> assertThat(d.get("message").asText()).isEqualTo("second"));
        replace.close();
    }

    @Test
    void anIdTooLongIsDeadLetteredAndAnEmptyOneGenerated() throws Exception {
        Path dead = dir.resolve("dead/long-ids.jsonl");
        Sink sink = sink(Map.of("index", "long-ids", "id", "${.id}", "dead-letter", dead.toString()));
        sink.start();
        parse("<13>1 2026-11-22T10:00:00Z h app - - - long", LogEvent.FORMAT_RFC5424);
        slot.fields().set(".id", "x".repeat(513));
        sink.append(slot);
        parse("<13>1 2026-11-22T10:00:00Z h app - - - empty", LogEvent.FORMAT_RFC5424);
        sink.append(slot); // .id unset: renders empty
        parse("<13>1 2026-11-22T10:00:00Z h app - - - given", LogEvent.FORMAT_RFC5424);
        slot.fields().set(".id", "given-id");
        sink.append(slot);
        sink.flush();
        assertThat(es.count("long-ids")).as("dead letters: %s", Files.readAllLines(dead)).isEqualTo(2); // refreshes
        JsonNode hits = es.call("GET", "/long-ids/_search?sort=message.keyword", null).get("hits").get("hits");
        assertThat(hits).hasSize(2);
        assertThat(hits.get(0).get("_source").get("message").asText()).isEqualTo("empty");
        assertThat(hits.get(0).get("_id").asText()).hasSize(20); // generated
        assertThat(hits.get(1).get("_id").asText()).isEqualTo("given-id");
        // the pair .id is in the document too, renamed from _id, which a document cannot hold
        assertThat(hits.get(1).get("_source").get("__id").asText()).isEqualTo("given-id");
        JsonNode d = json.readTree(Files.readAllLines(dead).get(0));
        assertThat(d.get("reason").asText()).isEqualTo("_id longer than 512 bytes");
        assertThat(json.readTree(d.get("event").asText()).get("message").asText()).isEqualTo("long");
        sink.close();
    }

    @Test
    void aDeadHostIsSkippedAndNoLiveHostKeepsTheDocumentsForTheNextFlush() throws Exception {
        String dead = "https://127.0.0.1:" + Ports.freeLoopbackPort();
        Sink sink = sink(Map.of("index", "failover", "hosts", List.of(dead, es.url()),
                "batch-size", 100));
        sink.start();
        for (int i = 0; i < 500; i++) {
            parse("<13>Mar  1 10:00:00 h app: f" + i, LogEvent.FORMAT_RFC3164);
            sink.append(slot);
        }
        sink.flush();
        assertThat(es.count("failover")).isEqualTo(500);
        assertThat(metrics.value("requestFailures")).isZero();
        sink.close();

        MetricGroup m = new MetricGroup("Sink", "nowhere");
        Sink nowhere = sink(config(Map.of("index", "nowhere", "hosts", List.of(dead), "request-timeout", "5s")), m);
        nowhere.start();
        for (int i = 0; i < 10; i++) {
            parse("<13>Mar  1 10:00:00 h app: n" + i, LogEvent.FORMAT_RFC3164);
            nowhere.append(slot);
        }
        assertThatThrownBy(nowhere::flush).isInstanceOf(IOException.class)
                .hasMessageStartingWith("10 documents not indexed, to be sent again");
        assertThatThrownBy(nowhere::flush).hasMessageStartingWith("10 documents not indexed");
        assertThat(m.value("resent")).isEqualTo(10);
        assertThat(m.value("requestFailures")).isEqualTo(2);
        nowhere.abort();
        // a forced stop: the close's flush fails at once and the connections are released all the same
        assertThatThrownBy(nowhere::close).hasMessageContaining("not indexed").hasMessageContaining("sink aborted");
    }

    @Test
    void aWrongPasswordIsARequestFailureThatKeepsTheDocuments() throws Exception {
        MetricGroup m = new MetricGroup("Sink", "denied");
        Sink sink = sink(config(Map.of("index", "denied", "password", "wrong-password")), m);
        sink.start();
        parse("<13>Mar  1 10:00:00 h app: d", LogEvent.FORMAT_RFC3164);
        sink.append(slot);
        assertThatThrownBy(sink::flush).hasMessageStartingWith("1 documents not indexed, to be sent again")
                .hasMessageContaining("401");
        assertThat(m.value("requestFailures")).isEqualTo(1);
        assertThat(m.value("deadLettered")).isZero();
        assertThat(es.request("GET", "/denied/_count", null).status()).isEqualTo(404);
        sink.abort();
        // a forced stop: the close's flush fails at once and the connections are released all the same
        assertThatThrownBy(sink::close).hasMessageContaining("not indexed").hasMessageContaining("sink aborted");
    }

    /**
     * buffer: journal. No server is reachable: 1,000 messages are journaled (each flush is a journal commit and
     * returns), none is indexed, and the sink is closed with its backlog. The same journal under a sink that reaches
     * the server indexes every document once, into the index rendered for it before the restart, with the _id it
     * was encoded with: the template's, or a generated one where the template rendered empty.
     */
    @Test
    void aJournaledSinkKeepsItsBacklogAcrossARestartAndIndexesItOnce() throws Exception {
        Map<String, Object> options = Map.of("index", "journaled-${HOST}", "id", "${.id}", "buffer", "journal",
                "journal-dir", dir.resolve("journal").toString(), "request-timeout", "5s");
        Map<String, Object> away = new HashMap<>(options);
        away.put("hosts", List.of("https://127.0.0.1:" + Ports.freeLoopbackPort()));
        MetricGroup first = new MetricGroup("Sink", "journaled");
        Sink sink = sink(config(away), first);
        sink.start();
        for (int i = 0; i < 1000; i++) {
            parse("<13>Mar  1 10:00:00 h" + (i % 2) + " app: journaled " + i, LogEvent.FORMAT_RFC3164);
            if (i % 4 != 0) {
                slot.fields().set(".id", "doc-" + i);
            }
            sink.append(slot);
            if (i % 250 == 249) {
                sink.flush(); // a journal commit: returns with no server reachable
            }
        }
        assertThat(first.value("backlogRecords")).isEqualTo(1000);
        assertThat(first.value("delivered")).isZero();
        assertThat(first.value("indexed")).isZero();
        sink.close(); // drain-timeout 200 ms: the backlog stays in the journal

        MetricGroup second = new MetricGroup("Sink", "journaled");
        Sink again = sink(config(options), second);
        again.start();
        assertThat(Conditions.await(() -> second.value("delivered") == 1000, Duration.ofSeconds(60)))
                .as("delivered: %d", second.value("delivered")).isTrue();
        assertThat(second.value("indexed")).isEqualTo(1000);
        assertThat(second.value("backlogRecords")).isZero();
        assertThat(es.count("journaled-h0")).isEqualTo(500);
        assertThat(es.count("journaled-h1")).isEqualTo(500);
        JsonNode hits = es.call("GET", "/journaled-*/_search?size=10000", null).get("hits").get("hits");
        Set<Integer> seen = new HashSet<>();
        for (JsonNode h : hits) {
            String message = h.get("_source").get("message").asText();
            int i = Integer.parseInt(message.substring("journaled ".length()));
            assertThat(seen.add(i)).as("document %d indexed once", i).isTrue();
            assertThat(h.get("_index").asText()).isEqualTo("journaled-h" + (i % 2));
            if (i % 4 != 0) {
                assertThat(h.get("_id").asText()).isEqualTo("doc-" + i);
            } else {
                assertThat(h.get("_id").asText()).matches("[A-Za-z0-9_-]{20}"); // generated before the restart
            }
        }
        assertThat(seen).hasSize(1000);
        again.close();
    }

    private void parse(String raw, byte hint) {
        slot.clear();
        byte[] b = raw.getBytes(StandardCharsets.UTF_8);
        slot.setRaw(b, 0, b.length);
        slot.setSource(1, "in".getBytes(StandardCharsets.US_ASCII), hint, 1L);
        slot.setReceivedMillis(1_700_000_000_000L);
        parser.parse(slot);
    }

    private Sink sink(Map<String, Object> o) {
        return sink(config(o), metrics);
    }

    /** The sink as the router builds it: {@link ElasticsearchSinkConfig#create} with a context of its own. */
    private static Sink sink(ElasticsearchSinkConfig cfg, MetricGroup metrics) {
        return cfg.create(new SinkContext(cfg.name(), ZoneOffset.UTC, Clock.SYSTEM, metrics,
                new DeadLetterFile(cfg.name(), cfg.deadLetter(), metrics)));
    }

    @SuppressWarnings("unchecked")
    private ElasticsearchSinkConfig config(Map<String, Object> o) {
        Map<String, Object> m = new HashMap<>(o);
        return new ElasticsearchSinkConfig("es", (List<String>) m.getOrDefault("hosts", List.of(es.url())),
                (String) m.get("index"), (String) m.getOrDefault("op-type", "create"), (String) m.get("id"),
                (Boolean) m.getOrDefault("generate-id", true), (String) m.getOrDefault("schema", "syslog"),
                (String) m.get("template"), (Integer) m.getOrDefault("batch-size", 5000), ByteSize.parse("5MiB"),
                TimeSpan.parse("1s"), (Integer) m.getOrDefault("max-in-flight", 2), false,
                TimeSpan.parse(m.getOrDefault("request-timeout", "60s")), TimeSpan.parse("2s"), -1,
                ElasticsearchServer.USER_NAME, (String) m.getOrDefault("password", ElasticsearchServer.PASSWORD), null,
                es.certificate().toString(), true, -1,
                (String) m.getOrDefault("dead-letter", dir.resolve("dead/es.jsonl").toString()),
                Buffer.valueOf((String) m.getOrDefault("buffer", "memory")),
                JournalConfig.defaults().withDir((String) m.get("journal-dir")).withFreeDiskReserve(0),
                TimeSpan.parse("200ms"), Overflow.block, null);
    }
}
