package dev.logrouter.server;

import dev.logrouter.sinks.kafka.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static dev.logrouter.server.TestClient.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka end to end, with real routers (Netty on loopback, the ring, real sinks) and a real broker in a child JVM
 * (one for the class): TCP into a topic with the right keys; a broker stopped and restarted while messages keep
 * coming loses nothing; two routers in one consumer group split the partitions, and a rebalance between two bursts
 * of the stream neither loses nor repeats a message, because offsets are committed only for what the sinks flushed.
 */
class KafkaRouterTest {

    @TempDir
    static Path dir;
    static KafkaBroker broker;

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

    private static Router router(String yaml) throws Exception {
        return TestClient.startRouter(yaml.replace("@KAFKA@", broker.bootstrap()));
    }

    private static String tcpToKafka(String sinkOptions) {
        return """
                sources:
                  - name: net
                    type: tcp
                    bind: 127.0.0.1:0
                routes:
                  - name: all
                    to: [bus]
                sinks:
                  - name: bus
                    type: kafka
                    bootstrap-servers: @KAFKA@
                """ + sinkOptions.indent(4);
    }

    private static long metric(Router r, String type, String name, String metric) {
        return r.metrics().require(type, name).value(metric);
    }

    @Test
    void messagesSentOverTcpArriveInTheirTopicsWithTheirKeys() throws Exception {
        broker.createTopic("logs-user", 2);
        broker.createTopic("logs-local3", 2);
        Router r = router(tcpToKafka("""
                topic: "logs-${FACILITY}"
                key: "${HOST}"
                template: "${PROGRAM} ${MSG}"
                """));
        StringBuilder user = new StringBuilder();
        StringBuilder local3 = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            (i % 2 == 0 ? user : local3).append(i % 2 == 0 ? "<13>" : "<157>").append("Mar  1 10:00:00 host")
                    .append(i % 7).append(" app: m").append(i).append('\n');
        }
        TestClient.sendTcp(r.boundAddress("net"), user.toString());
        TestClient.sendTcp(r.boundAddress("net"), local3.toString());
        assertThat(await(() -> metric(r, "Sink", "bus", "acked") == 2000, 30_000)).isTrue();
        assertThat(r.stop()).isTrue();

        for (String topic : List.of("logs-user", "logs-local3")) {
            List<ConsumerRecord<byte[], byte[]>> records = broker.readAll(topic);
            assertThat(records).hasSize(1000);
            Set<Integer> seen = new HashSet<>();
            for (ConsumerRecord<byte[], byte[]> rec : records) {
                String v = new String(rec.value(), StandardCharsets.UTF_8);
                assertThat(v).startsWith("app m");
                int i = Integer.parseInt(v.substring("app m".length()));
                assertThat(i % 2).isEqualTo(topic.equals("logs-user") ? 0 : 1);
                assertThat(new String(rec.key(), StandardCharsets.UTF_8)).isEqualTo("host" + (i % 7));
                seen.add(i);
            }
            assertThat(seen).hasSize(1000);
        }
        assertThat(metric(r, "Sink", "bus", "written")).isEqualTo(2000);
    }

    @Test
    void aBrokerStoppedAndRestartedMidStreamLosesNothing() throws Throwable {
        broker.createTopic("restart", 2);
        Router r = router(tcpToKafka("""
                topic: restart
                key: "${PID}"
                template: "${MSG}"
                delivery-timeout: 5s
                flush-timeout: 20ms
                """));
        int n = 30_000;
        java.util.concurrent.CountDownLatch brokerStopped = new java.util.concurrent.CountDownLatch(1);
        TestClient.Stream sender = new TestClient.Stream(r.boundAddress("net"), n,
                i -> "<13>Mar  1 10:00:00 h app[" + (i % 16) + "]: seq " + i + "\n", n / 3, brokerStopped);
        assertThat(await(() -> metric(r, "Sink", "bus", "acked") > 1000, 30_000)).isTrue();
        broker.stop(); // records of the first third may be in flight now
        long ackedWhileDown = metric(r, "Sink", "bus", "acked");
        brokerStopped.countDown();
        assertThat(await(() -> metric(r, "Sink", "bus", "failed") > 0, 60_000)).isTrue(); // the outage was seen
        broker.start();
        assertThat(sender.join(120_000)).isEqualTo(n);
        // the sender is done once the kernel has its bytes; a stop closes connections after drain-timeout, so
        // first let the router read them all (the stop then delivers what it has read)
        assertThat(await(() -> metric(r, "Source", "net", "received") == n, 120_000)).isTrue();
        assertThat(r.stop()).isTrue();

        List<String> values = broker.values("restart");
        Set<String> distinct = new HashSet<>(values);
        for (int i = 0; i < n; i++) {
            assertThat(distinct).contains("seq " + i);
        }
        int duplicates = values.size() - distinct.size();
        System.out.printf("broker restart: %d messages, %d acknowledged before the stop, %d records, %d duplicates, "
                        + "%d resent%n", n, ackedWhileDown, values.size(), duplicates,
                metric(r, "Sink", "bus", "resent"));
        assertThat(duplicates).isLessThanOrEqualTo((int) metric(r, "Sink", "bus", "resent"));
        assertThat(metric(r, "Sink", "bus", "lost")).isZero();
    }

    @Test
    void twoRoutersInOneGroupSplitThePartitionsAndARebalanceNeitherLosesNorRepeats() throws Exception {
        broker.createTopic("edge", 4);
        // an edge router writes the default JSON; central routers read it back in a consumer group
        Router edge = router(tcpToKafka("""
                topic: edge
                key: "${PID}"
                """).replace("    to: [bus]", "    rewrite: [seq]\n    to: [bus]") + """
                rewrites:
                  seq:
                    - {type: set, field: .edge.seq, value: "${MSG}"}
                """);
        String central = """
                sources:
                  - name: bus
                    type: kafka
                    bootstrap-servers: @KAFKA@
                    topics: [edge]
                    group-id: central
                    format: json
                    commit-interval: 200ms
                routes:
                  - name: all
                    to: [out]
                sinks:
                  - name: out
                    type: file
                    path: "@OUT@"
                    template: "${HOST} ${PROGRAM} ${MSG} ${.edge.seq} ${SOURCE}\\n"
                    flush-timeout: 10ms
                """;
        Path outB = dir.resolve("b.log");
        Path outC = dir.resolve("c.log");
        Router b = router(central.replace("@OUT@", outB.toString()));
        Router c = null;
        try {
            assertThat(await(() -> metric(b, "Source", "bus", "assignedPartitions") == 4, 30_000)).isTrue();
            TestClient.sendTcp(edge.boundAddress("net"), messages(0, 2000));
            assertThat(await(() -> lines(outB).size() == 2000, 30_000)).isTrue();

            c = router(central.replace("@OUT@", outC.toString()));
            Router cc = c;
            assertThat(await(() -> metric(b, "Source", "bus", "assignedPartitions") == 2
                    && metric(cc, "Source", "bus", "assignedPartitions") == 2, 60_000)).isTrue();
            TestClient.sendTcp(edge.boundAddress("net"), messages(2000, 4000));
            assertThat(await(() -> lines(outB).size() + lines(outC).size() >= 4000, 30_000)).isTrue();
        } finally {
            assertThat(edge.stop()).isTrue();
            assertThat(b.stop()).isTrue();
            if (c != null) {
                assertThat(c.stop()).isTrue();
            }
        }
        List<String> all = new ArrayList<>(lines(outB));
        all.addAll(lines(outC));
        assertThat(all).hasSize(4000); // nothing repeated across the rebalance
        Set<String> distinct = new HashSet<>(all);
        for (int i = 0; i < 4000; i++) {
            assertThat(distinct).contains("edge" + (i % 3) + " app m" + i + " m" + i + " bus");
        }
        assertThat(lines(outC)).isNotEmpty();
        assertThat(lines(outB).size()).isGreaterThan(2000); // b kept two partitions after the rebalance
        assertThat(metric(b, "Source", "bus", "rebalances")).isPositive();

        // every record read was committed, after it was written
        try (Admin admin = broker.admin()) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(
                    Map.of("central", new ListConsumerGroupOffsetsSpec())).partitionsToOffsetAndMetadata("central")
                    .get(30, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < 4; p++) {
                latest.put(new TopicPartition("edge", p), OffsetSpec.latest());
            }
            var end = admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
            for (TopicPartition tp : latest.keySet()) {
                assertThat(committed.get(tp).offset()).as("committed offset of " + tp).isEqualTo(end.get(tp).offset());
            }
        }
    }

    /** RFC 3164 lines from hosts edge0..2, message m<i>, for i in [from, to). */
    private static String messages(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            sb.append("<13>Mar  1 10:00:00 edge").append(i % 3).append(" app[").append(i % 8).append("]: m")
                    .append(i).append('\n');
        }
        return sb.toString();
    }

    private static List<String> lines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The operator's stop with a router process: a burst of 10 × 5,000 messages, SIGTERM as soon as the senders
     * returned (drain-timeout 1 s: time held back by flow control does not count), into a Kafka sink with {@code acks: all} and the memory buffer: every message is in the topic after
     * the stop, exit 0. (Before 2026-12-07: 9,871 of 100,000, "stopped cleanly".)
     */
    @Test
    void sigtermRightAfterABurstLeavesEveryMessageInTheTopic() throws Exception {
        broker.createTopic("stop", 2);
        Path runDir = Files.createDirectories(dir.resolve("stop-run"));
        try (RouterProcess router = RouterProcess.start(runDir, "kafka-stop", """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0", drain-timeout: 1s}
                sinks:
                  - {name: bus, type: kafka, bootstrap-servers: "@KAFKA@", topic: stop, acks: all}
                """.replace("@KAFKA@", broker.bootstrap()))) {
            Burst.send(router.address(), 10, 5_000);
            router.sigterm();
            assertThat(router.exitStatus(120)).as(router::log).isZero();
            assertThat(router.lastLine()).contains("stopped cleanly");
        }
        List<String> values = new java.util.ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> rec : broker.readAll("stop")) {
            values.add(new String(rec.value(), StandardCharsets.UTF_8));
        }
        assertThat(Burst.ids(values, true)).hasSize(50_000);
    }

    /**
     * Scale-out behind Kafka survives a crash: an edge router writes 6 × 10,000 messages into a topic of 6 partitions
     * while two aggregator routers (child JVMs, one consumer group, each into a journaled file sink) read it;
     * {@code kill -9} one of them mid-stream. The other takes its partitions ({@code assignedPartitions} 6,
     * {@code rebalances}), works the lag off ({@code lag} 0), and every message is delivered at least once; a message
     * delivered twice is only one whose offset the killed router had not committed.
     */
    @Test
    void aKilledAggregatorsPartitionsAreTakenOverWithNothingLost() throws Exception {
        broker.createTopic("scale", 6);
        Path runDir = Files.createDirectories(dir.resolve("scale-run"));
        Router edge = router(tcpToKafka("topic: scale\nacks: all\n"));
        String aggregator = """
                sources:
                  - name: bus
                    type: kafka
                    bootstrap-servers: "@KAFKA@"
                    topics: [scale]
                    group-id: aggregators
                    format: json
                    commit-interval: 200ms
                    properties: {session.timeout.ms: "6000", heartbeat.interval.ms: "1000"}
                sinks:
                  - name: out
                    type: file
                    path: "@DIR@/out.log"
                    template: "${MSG}\\n"
                    buffer: journal
                    journal: {dir: "@DIR@/journal", sync: interval, free-disk-reserve: 0}
                """.replace("@KAFKA@", broker.bootstrap());
        Path dirA = Files.createDirectories(runDir.resolve("a"));
        Path dirB = Files.createDirectories(runDir.resolve("b"));
        int total = 60_000;
        Map<TopicPartition, OffsetAndMetadata> committedAtKill;
        try (RouterProcess a = RouterProcess.start(runDir, "a", aggregator.replace("@DIR@", dirA.toString()));
             RouterProcess b = RouterProcess.start(runDir, "b", aggregator.replace("@DIR@", dirB.toString()))) {
            assertThat(await(() -> a.stat("/Source/bus/assignedPartitions") == 3
                    && b.stat("/Source/bus/assignedPartitions") == 3, 60_000)).as("3 partitions each").isTrue();
            Thread feeder = new Thread(() -> {
                try {
                    for (int k = 0; k < 6; k++) {
                        Burst.send(edge.boundAddress("net"), 2, total / 12, 2 * k);
                        long inTopic = (k + 1L) * total / 6; // paced: the next round once this one is in the topic
                        assertThat(await(() -> topicCount("scale") >= inTopic, 60_000)).isTrue();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "feeder");
            feeder.start();
            assertThat(await(() -> wholeLines(dirA.resolve("out.log")).size() > total / 6, 60_000)).isTrue();
            a.kill(); // mid-stream
            try (Admin admin = broker.admin()) {
                committedAtKill = admin.listConsumerGroupOffsets(Map.of("aggregators",
                        new ListConsumerGroupOffsetsSpec())).partitionsToOffsetAndMetadata("aggregators")
                        .get(30, TimeUnit.SECONDS);
            }
            feeder.join(120_000);
            assertThat(await(() -> b.stat("/Source/bus/assignedPartitions") == 6, 60_000)).as(b::log).isTrue();
            assertThat(b.stat("/Source/bus/rebalances")).isPositive();
            assertThat(await(() -> Burst.ids(wholeLines(dirA.resolve("out.log")), false).size()
                    + Burst.ids(wholeLines(dirB.resolve("out.log")), false).size() >= total
                    && b.stat("/Source/bus/lag") == 0 && b.stat("/Source/bus/uncommitted") == 0, 120_000))
                    .as(b::log).isTrue();
            b.sigterm();
            assertThat(b.exitStatus(120)).as(b::log).isZero();
        } finally {
            assertThat(edge.stop()).isTrue();
        }
        // where each message is in the topic
        Map<String, TopicPartition> partitionOf = new HashMap<>();
        Map<String, Long> offsetOf = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> rec : broker.readAll("scale")) {
            for (String id : Burst.ids(List.of(new String(rec.value(), StandardCharsets.UTF_8)), false)) {
                partitionOf.put(id, new TopicPartition(rec.topic(), rec.partition()));
                offsetOf.put(id, rec.offset());
            }
        }
        assertThat(partitionOf).hasSize(total);
        Set<String> fromA = Burst.ids(wholeLines(dirA.resolve("out.log")), true);
        Set<String> fromB = Burst.ids(wholeLines(dirB.resolve("out.log")), true);
        Set<String> all = new HashSet<>(fromA);
        all.addAll(fromB);
        assertThat(all).as("every message at least once").hasSize(total);
        Set<String> twice = new HashSet<>(fromA);
        twice.retainAll(fromB);
        for (String id : twice) {
            OffsetAndMetadata c = committedAtKill.get(partitionOf.get(id));
            assertThat(c == null || offsetOf.get(id) >= c.offset())
                    .as("%s delivered twice only if the killed router had not committed it", id).isTrue();
        }
        System.out.println("scale-out kill -9: a delivered " + fromA.size() + ", b " + fromB.size() + ", twice "
                + twice.size());
    }

    private static long topicCount(String topic) {
        try {
            return broker.count(topic);
        } catch (Exception e) {
            return -1;
        }
    }

    /** The lines of a file that are whole (a kill may cut the last one). */
    private static List<String> wholeLines(Path file) {
        List<String> whole = new ArrayList<>();
        for (String l : lines(file)) {
            if (l.endsWith(Burst.PAD)) {
                whole.add(l);
            }
        }
        return whole;
    }
}
