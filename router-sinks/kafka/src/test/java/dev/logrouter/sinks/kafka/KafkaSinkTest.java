package dev.logrouter.sinks.kafka;

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
import dev.logrouter.core.util.Clock;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Template;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Kafka sink against a real broker (a child JVM, one per class): records, keys and headers as rendered, the
 * default JSON value read back into the same event, the dead-letter path for a record the producer can never
 * send, topic names made valid, and a batch kept and sent again when the broker was away.
 */
class KafkaSinkTest {

    @TempDir
    static Path dir;
    static KafkaBroker broker;

    private final LogEvent slot = new LogEvent();
    private final SyslogHeaderParser parser = new SyslogHeaderParser(ZoneOffset.UTC);
    private final MetricGroup metrics = new MetricGroup("Sink", "k");

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KafkaBroker.start(dir.resolve("broker"));
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void everyRecordIsAcknowledgedWithItsKeyAndTheDefaultJsonReadsBackIntoTheSameEvent() throws Exception {
        broker.createTopic("roundtrip", 3);
        Sink sink = sink(Map.of("topic", "round${PROGRAM}", "key", "${HOST}",
                "headers", Map.of("origin", "${SOURCE}", "empty", "${.none}")));
        sink.start();
        int tag = Tags.id("kafka.test");
        for (int i = 0; i < 300; i++) {
            parse("<165>1 2026-11-22T10:00:0" + (i % 10) + ".123+01:00 host" + (i % 5) + " trip 42 ID7 "
                    + "[meta seq=\"" + i + "\"] message " + i, LogEvent.FORMAT_RFC5424);
            slot.fields().set(".app.user", "user" + i);
            slot.addTag(tag);
            sink.append(slot);
        }
        sink.flush();
        assertThat(metrics.counter("acked", "").get()).isEqualTo(300);

        List<ConsumerRecord<byte[], byte[]>> records = broker.readAll("roundtrip");
        assertThat(records).hasSize(300);
        ObjectMapper json = new ObjectMapper();
        Map<Integer, Boolean> seen = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            JsonNode v = json.readTree(r.value());
            int i = Integer.parseInt(v.get("MESSAGE").asText().substring("message ".length()));
            seen.put(i, true);
            assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("host" + (i % 5));
            assertThat(new String(r.headers().lastHeader("origin").value(), StandardCharsets.UTF_8)).isEqualTo("in");
            assertThat(r.headers().lastHeader("empty")).isNull();

            // a kafka source with format: json hands the value to the parse workers with this hint
            slot.clear();
            slot.setRaw(r.value(), 0, r.value().length);
            slot.setSource(2, "kafka-in".getBytes(StandardCharsets.US_ASCII), LogEvent.FORMAT_JSON, 1L);
            slot.setReceivedMillis(1);
            parser.parse(slot);
            assertThat(render("${HOST}|${PROGRAM}|${PID}|${MSGID}|${MSG}|${FACILITY}.${LEVEL}|${ISODATE}|${S_MSEC}"))
                    .isEqualTo("host" + (i % 5) + "|trip|42|ID7|message " + i + "|local4.notice|2026-11-22T10:00:0"
                            + (i % 10) + "+01:00|123");
            assertThat(render("${.SDATA.meta.seq}|${.app.user}|${TAGS}|${SOURCEIP}"))
                    .isEqualTo(i + "|user" + i + "|kafka.test|10.1.2.3");
        }
        assertThat(seen).hasSize(300);
        sink.close();
    }

    @Test
    void aRecordTooLargeForTheProducerIsDeadLetteredAndTheRestWritten() throws Exception {
        broker.createTopic("small", 1);
        Path dead = dir.resolve("dead/small.jsonl");
        Sink sink = sink(Map.of("topic", "small", "template", "${MSG}", "dead-letter", dead.toString(),
                "properties", Map.of("max.request.size", "1024")));
        sink.start();
        for (int i = 0; i < 10; i++) {
            String msg = i == 4 ? "big" + "x".repeat(4000) : "small " + i;
            parse("<13>Mar  1 10:00:00 h app: " + msg, LogEvent.FORMAT_RFC3164);
            sink.append(slot);
        }
        sink.flush(); // returns: the oversize record is not retried
        assertThat(broker.values("small")).containsExactly("small 0", "small 1", "small 2", "small 3", "small 5",
                "small 6", "small 7", "small 8", "small 9");
        assertThat(metrics.counter("deadLettered", "").get()).isEqualTo(1);
        List<String> lines = Files.readAllLines(dead);
        assertThat(lines).hasSize(1);
        JsonNode d = new ObjectMapper().readTree(lines.get(0));
        assertThat(d.get("sink").asText()).isEqualTo("k");
        assertThat(d.get("target").asText()).isEqualTo("small");
        assertThat(d.get("reason").asText()).startsWith("RecordTooLargeException");
        assertThat(d.get("event").asText()).isEqualTo("big" + "x".repeat(4000));
        sink.close();
    }

    /**
     * Records without headers go through a reused record and one reused array per length: values of one length
     * follow each other with different bytes, keys come and go, lengths cross the reuse limit. Each record must reach
     * the topic with exactly its own key and value.
     */
    @Test
    void recordsOfEveryLengthKeepTheirOwnBytesThroughTheReusedArrays() throws Exception {
        broker.createTopic("lengths", 1);
        Sink sink = sink(Map.of("topic", "lengths", "key", "${PROGRAM}", "template", "${MSG}"));
        sink.start();
        Map<String, String> expected = new HashMap<>();
        int n = 0;
        for (int len = 1; len <= KafkaDelivery.REUSED_MAX + 300; len += 7) {
            for (int copy = 0; copy < 3; copy++) { // three values of one length in a row, each its own
                String id = n + ":";
                StringBuilder msg = new StringBuilder(id);
                while (msg.length() < len + id.length()) {
                    msg.append((char) ('a' + (msg.length() * 31 + n) % 26));
                }
                String program = n % 4 == 0 ? "" : "p" + (n % 7); // no key every fourth record
                parse("<13>1 2026-11-22T10:00:00Z h " + (program.isEmpty() ? "-" : program) + " - - - " + msg,
                        LogEvent.FORMAT_RFC5424);
                sink.append(slot);
                expected.put(msg.toString(), program);
                n++;
            }
        }
        sink.flush();
        List<ConsumerRecord<byte[], byte[]>> records = broker.readAll("lengths");
        assertThat(records).hasSize(n);
        Map<String, String> got = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            got.put(new String(r.value(), StandardCharsets.UTF_8),
                    r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8));
        }
        assertThat(got).isEqualTo(expected);
        sink.close();
    }

    @Test
    void renderedTopicNamesAreMadeValid() throws Exception {
        Sink sink = sink(Map.of("topic", "t-${HOST}", "template", "${MSG}"));
        sink.start();
        parse("<13>1 2026-11-22T10:00:00Z h p - - - one", LogEvent.FORMAT_RFC5424);
        byte[] hostile = "a/b\\c:d..é".getBytes(StandardCharsets.UTF_8); // as a rewrite could set it
        slot.setFieldCopy(LogEvent.HOST, hostile, 0, hostile.length);
        sink.append(slot);
        parse("<13>1 2026-11-22T10:00:00Z h p - - - two", LogEvent.FORMAT_RFC5424);
        slot.setFieldCopy(LogEvent.HOST, new byte[0], 0, 0);
        sink.append(slot);
        sink.flush();
        assertThat(broker.values("t-a_b_c_d..__")).containsExactly("one");
        assertThat(broker.values("t-")).containsExactly("two");
        sink.close();
    }

    @Test
    void aBatchTheBrokerDidNotAcknowledgeIsKeptAndSentAgain() throws Exception {
        broker.createTopic("outage", 1);
        Sink sink = sink(Map.of("topic", "outage", "template", "${MSG}", "delivery-timeout", "3s",
                "flush-timeout", "10ms"));
        sink.start();
        parse("<13>Mar  1 10:00:00 h app: before", LogEvent.FORMAT_RFC3164);
        sink.append(slot);
        sink.flush();

        broker.stop();
        try {
            for (int i = 0; i < 50; i++) {
                parse("<13>Mar  1 10:00:00 h app: during " + i, LogEvent.FORMAT_RFC3164);
                sink.append(slot);
            }
            assertThatThrownBy(sink::flush).isInstanceOf(KafkaDeliveryException.class)
                    .hasMessageStartingWith("50 record(s) not acknowledged");
            assertThat(metrics.counter("failed", "").get()).isPositive();
        } finally {
            broker.start();
        }
        // what the sink handler does: flush again after a backoff until the kept records are acknowledged
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                sink.flush();
                break;
            } catch (KafkaDeliveryException e) {
                assertThat(System.nanoTime()).as("acknowledged within 60 s after the restart").isLessThan(deadline);
                java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
        assertThat(metrics.counter("resent", "").get()).isGreaterThanOrEqualTo(50);
        List<String> values = broker.values("outage");
        assertThat(values).contains("before");
        for (int i = 0; i < 50; i++) {
            assertThat(values).contains("during " + i);
        }
        assertThat(values).hasSize(51); // the broker saw none of them the first time: no duplicate
        sink.close();
    }

    @Test
    void aBatchGivenUpAfterMaxRetriesIsHandedToTheDeadLettersAndTheNextBatchGoesOut() throws Exception {
        broker.createTopic("given-up", 1);
        Path dead = dir.resolve("dead/given-up.jsonl");
        Sink sink = sink(Map.of("topic", "given-up", "key", "${PROGRAM}", "template", "${MSG}",
                "delivery-timeout", "2s", "flush-timeout", "10ms", "dead-letter", dead.toString()));
        sink.start();
        DeadLetterFile letters = new DeadLetterFile("k", dead.toString(), metrics);
        broker.stop();
        try {
            for (int i = 0; i < 20; i++) {
                parse("<13>Mar  1 10:00:00 h app: lost " + i, LogEvent.FORMAT_RFC3164);
                sink.append(slot);
            }
            assertThatThrownBy(sink::flush).isInstanceOf(KafkaDeliveryException.class);
            // what the sink handler does when max-retries ran out
            sink.deadLetterBatch(letters, "flush given up after 0 retries: broker away");
        } finally {
            broker.start();
        }
        List<String> lines = Files.readAllLines(dead);
        assertThat(lines).hasSize(20);
        for (int i = 0; i < 20; i++) {
            JsonNode d = new ObjectMapper().readTree(lines.get(i));
            assertThat(d.get("event").asText()).isEqualTo("lost " + i);
            assertThat(d.get("key").asText()).isEqualTo("app");
            assertThat(d.get("target").asText()).isEqualTo("given-up");
            assertThat(d.get("reason").asText()).isEqualTo("flush given up after 0 retries: broker away");
        }
        parse("<13>Mar  1 10:00:00 h app: after", LogEvent.FORMAT_RFC3164);
        sink.append(slot);
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (true) { // the producer reconnects to the restarted broker
            try {
                sink.flush();
                break;
            } catch (KafkaDeliveryException e) {
                assertThat(System.nanoTime()).as("acknowledged within 60 s after the restart").isLessThan(deadline);
                java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
        // the given-up records are not sent again: the batch was emptied
        assertThat(broker.values("given-up")).containsExactly("after");
        sink.close();
    }

    /**
     * buffer: journal. The broker is unreachable: 2,000 records are journaled (the ring would move on), the sink is
     * closed with its backlog; the same journal under a sink that reaches the broker delivers every record once, in
     * order, with its key and headers as rendered.
     */
    @Test
    void aJournaledSinkKeepsItsBacklogAcrossARestartAndDeliversItOnce() throws Exception {
        broker.createTopic("journaled", 1);
        String journal = dir.resolve("journal-k").toString();
        Map<String, Object> options = Map.of("topic", "journaled", "key", "${PROGRAM}", "template", "${MSG}",
                "headers", Map.of("h", "${HOST}"), "buffer", "journal", "journal-dir", journal,
                "delivery-timeout", "2s", "flush-timeout", "10ms");
        Map<String, Object> away = new HashMap<>(options);
        away.put("bootstrap", "127.0.0.1:" + closedPort());
        MetricGroup first = new MetricGroup("Sink", "k");
        Sink sink = sink(away, first);
        sink.start();
        for (int i = 0; i < 2000; i++) {
            parse("<13>Mar  1 10:00:00 h" + (i % 3) + " app: journaled " + i, LogEvent.FORMAT_RFC3164);
            sink.append(slot);
            if (i % 500 == 499) {
                sink.flush(); // a journal commit: returns with the broker away
            }
        }
        assertThat(first.value("backlogRecords")).isEqualTo(2000);
        assertThat(first.value("delivered")).isZero();
        sink.close(); // drain-timeout 200 ms: the backlog stays in the journal

        MetricGroup second = new MetricGroup("Sink", "k");
        Sink again = sink(options, second);
        again.start();
        assertThat(second.value("backlogRecords")).isEqualTo(2000);
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (second.value("delivered") < 2000) {
            assertThat(System.nanoTime()).as("delivered within 60 s").isLessThan(deadline);
            java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(50));
        }
        List<ConsumerRecord<byte[], byte[]>> records = broker.readAll("journaled");
        assertThat(records).hasSize(2000);
        for (int i = 0; i < 2000; i++) {
            ConsumerRecord<byte[], byte[]> r = records.get(i);
            assertThat(new String(r.value(), StandardCharsets.UTF_8)).isEqualTo("journaled " + i);
            assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("app");
            assertThat(new String(r.headers().lastHeader("h").value(), StandardCharsets.UTF_8))
                    .isEqualTo("h" + (i % 3));
        }
        assertThat(second.value("backlogRecords")).isZero();
        again.close();
    }

    /** A loopback port where nothing listens (bound once, then closed). */
    private static int closedPort() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private void parse(String raw, byte hint) {
        slot.clear();
        byte[] b = raw.getBytes(StandardCharsets.UTF_8);
        slot.setRaw(b, 0, b.length);
        byte[] peer = "10.1.2.3".getBytes(StandardCharsets.US_ASCII);
        slot.setPeer(peer, 0, peer.length);
        slot.setSource(1, "in".getBytes(StandardCharsets.US_ASCII), hint, 1L);
        slot.setReceivedMillis(1_700_000_000_000L);
        parser.parse(slot);
    }

    private String render(String template) {
        ByteBuilder out = new ByteBuilder(64);
        Template.compile(template, ZoneOffset.UTC).render(slot, out);
        return out.toString();
    }

    private Sink sink(Map<String, Object> o) {
        return sink(o, metrics);
    }

    @SuppressWarnings("unchecked")
    private Sink sink(Map<String, Object> o, MetricGroup metrics) {
        Map<String, Object> m = new HashMap<>(o);
        KafkaSinkConfig cfg = new KafkaSinkConfig("k", (String) m.getOrDefault("bootstrap", broker.bootstrap()),
                (String) m.get("topic"),
                (String) m.get("key"),
                (String) m.getOrDefault("template",
                        "$(format-json --scope rfc5424 --scope all-nv-pairs --key ISODATE --key USEC --key TAGS --key SOURCEIP)"),
                (Map<String, String>) m.getOrDefault("headers", Map.of()), "all", true, "none", 10000,
                ByteSize.parse("256KiB"), TimeSpan.parse(m.getOrDefault("flush-timeout", "5ms")), TimeSpan.parse("1s"),
                TimeSpan.parse(m.getOrDefault("delivery-timeout", "120s")), -1, (String) m.get("dead-letter"),
                (Map<String, String>) m.getOrDefault("properties", Map.of()),
                Buffer.valueOf((String) m.getOrDefault("buffer", "memory")),
                JournalConfig.defaults().withDir((String) m.get("journal-dir")).withFreeDiskReserve(0),
                TimeSpan.parse("200ms"), Overflow.block, null);
        return cfg.create(new SinkContext("k", ZoneOffset.UTC, Clock.SYSTEM, metrics,
                new DeadLetterFile("k", cfg.deadLetter(), metrics)));
    }
}
