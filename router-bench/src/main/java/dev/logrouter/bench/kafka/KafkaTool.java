package dev.logrouter.bench.kafka;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Topic admin and record counter for the TCP → Kafka benchmark ({@code router-bench/kafka/kafka-bench.sh}):
 * the harness creates and deletes its topics with it, counts what the peer under test delivered, and samples
 * a record per partition. It is a command-line tool, packaged in the shaded {@code router-bench/target/router-bench.jar}
 * (which carries kafka-clients through router-sinks), so it needs nothing but the repository's ordinary build:
 *
 * <pre>
 *   java -cp router-bench/target/router-bench.jar dev.logrouter.bench.kafka.KafkaTool BOOTSTRAP COMMAND ARGS...
 *     create-topic TOPIC PARTITIONS   create (replication 1); an existing topic is deleted first
 *     delete-topic TOPIC              delete if it exists
 *     count TOPIC                     records = sum over partitions of (end offset - beginning offset)
 *     counts TOPIC                    the same, one line per partition, then the total
 *     sample TOPIC N                  print the first N records of each non-empty partition
 *                                     (pPARTITION@OFFSET TAB key TAB value)
 *     describe                        cluster id and node count (a readiness probe)
 *     watch TOPIC INTERVAL_MS         poll the count every INTERVAL_MS until killed; print
 *                                     "COUNT FIRST_SEEN_EPOCH_US" whenever it changed (the harness's
 *                                     drain loop, lib/bench-lib.sh bench_settle, reads the last line)
 * </pre>
 *
 * <p>The count comes from {@code Admin.listOffsets} (earliest / latest), so it reads no data and costs the same
 * for any topic size; the producers here are neither transactional nor idempotent-with-aborts, so every offset
 * in [begin, end) is one record.
 *
 * <p>Threads: everything here runs on the JVM's main thread, one command per process; the only other threads
 * are the Kafka clients' own network threads inside {@code Admin} and {@code KafkaConsumer}. Exit status 0 =
 * done, 1 = a Kafka error, 2 = a usage error.
 */
public final class KafkaTool {

    private KafkaTool() {
    }

    /**
     * Runs one command; see the class comment.
     *
     * @param args BOOTSTRAP COMMAND ARGS...
     * @throws Exception on an unexpected failure (interrupted, a broker error outside the Admin futures)
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            usage();
        }
        String bootstrap = args[0];
        String cmd = args[1];
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "15000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
        try (Admin admin = Admin.create(p)) {
            switch (cmd) {
                case "create-topic" -> createTopic(admin, arg(args, 2), Integer.parseInt(arg(args, 3)));
                case "delete-topic" -> deleteTopic(admin, arg(args, 2));
                case "count" -> System.out.println(total(counts(admin, arg(args, 2))));
                case "counts" -> {
                    Map<TopicPartition, Long> c = counts(admin, arg(args, 2));
                    c.forEach((tp, n) -> System.out.println(tp.partition() + " " + n));
                    System.out.println("total " + total(c));
                }
                case "sample" -> sample(bootstrap, admin, arg(args, 2), Integer.parseInt(arg(args, 3)));
                case "watch" -> watch(admin, arg(args, 2), Long.parseLong(arg(args, 3)), System.out);
                case "describe" -> System.out.println("cluster " + admin.describeCluster().clusterId().get()
                        + " nodes " + admin.describeCluster().nodes().get().size());
                default -> usage();
            }
        } catch (ExecutionException e) {
            System.err.println("KafkaTool " + cmd + ": " + e.getCause());
            System.exit(1);
        }
    }

    private static String arg(String[] args, int i) {
        if (args.length <= i) {
            usage();
        }
        return args[i];
    }

    private static void usage() {
        System.err.println("usage: KafkaTool BOOTSTRAP create-topic TOPIC PARTITIONS | delete-topic TOPIC"
                + " | count TOPIC | counts TOPIC | sample TOPIC N | describe | watch TOPIC INTERVAL_MS");
        System.exit(2);
    }

    private static void createTopic(Admin admin, String topic, int partitions) throws Exception {
        deleteTopic(admin, topic);
        for (int attempt = 0; ; attempt++) {
            try {
                admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
                break;
            } catch (ExecutionException e) {
                // a just-deleted topic of the same name may still be being removed
                if (e.getCause() instanceof TopicExistsException && attempt < 50) {
                    Thread.sleep(200);
                    continue;
                }
                throw e;
            }
        }
        // wait until every partition has a leader, so producers start at once
        for (int attempt = 0; attempt < 100; attempt++) {
            try {
                TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
                if (d.partitions().size() == partitions
                        && d.partitions().stream().allMatch(pi -> pi.leader() != null && !pi.leader().isEmpty())) {
                    System.out.println("created " + topic + " partitions " + partitions);
                    return;
                }
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("topic " + topic + " has no leaders after 10 s");
    }

    private static void deleteTopic(Admin admin, String topic) throws Exception {
        Set<String> names = admin.listTopics().names().get();
        if (names.contains(topic)) {
            admin.deleteTopics(List.of(topic)).all().get();
        }
    }

    private static List<TopicPartition> partitions(Admin admin, String topic) throws Exception {
        TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
        List<TopicPartition> tps = new ArrayList<>();
        d.partitions().forEach(pi -> tps.add(new TopicPartition(topic, pi.partition())));
        return tps;
    }

    private static Map<TopicPartition, Long> counts(Admin admin, String topic) throws Exception {
        List<TopicPartition> tps = partitions(admin, topic);
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (TopicPartition tp : tps) {
            earliest.put(tp, OffsetSpec.earliest());
            latest.put(tp, OffsetSpec.latest());
        }
        var begin = admin.listOffsets(earliest).all().get();
        var end = admin.listOffsets(latest).all().get();
        Map<TopicPartition, Long> out = new TreeMap<>(
                Comparator.comparingInt(TopicPartition::partition));
        for (TopicPartition tp : tps) {
            out.put(tp, end.get(tp).offset() - begin.get(tp).offset());
        }
        return out;
    }

    /**
     * Prints "COUNT FIRST_SEEN_US" (epoch microseconds of the poll that first saw COUNT) whenever the topic's
     * record count changed, polling every {@code intervalMs}, until the process is killed. A failed poll is
     * reported on stderr and retried. Output is flushed per line, so a reader of the file sees every change.
     */
    private static void watch(Admin admin, String topic, long intervalMs, PrintStream out) throws Exception {
        long last = -1;
        while (true) {
            try {
                long n = total(counts(admin, topic));
                if (n != last) {
                    last = n;
                    out.println(n + " " + nowMicros());
                    out.flush();
                }
            } catch (ExecutionException e) {
                System.err.println("KafkaTool watch " + topic + ": " + e.getCause());
            }
            Thread.sleep(intervalMs);
        }
    }

    private static long nowMicros() {
        Instant i = Instant.now();
        return i.getEpochSecond() * 1_000_000L + i.getNano() / 1000;
    }

    private static long total(Map<TopicPartition, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    private static void sample(String bootstrap, Admin admin, String topic, int n) throws Exception {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(Math.max(1, n)));
        List<TopicPartition> tps = new ArrayList<>();
        counts(admin, topic).forEach((tp, count) -> {
            if (count > 0) {
                tps.add(tp); // an empty partition would only make poll() wait
            }
        });
        try (KafkaConsumer<byte[], byte[]> consumer =
                     new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            for (TopicPartition tp : tps) {
                consumer.assign(List.of(tp));
                consumer.seekToBeginning(List.of(tp));
                int got = 0;
                long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                while (got < n && System.nanoTime() < deadline) {
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                        if (got++ >= n) {
                            break;
                        }
                        System.out.println("p" + tp.partition() + "@" + r.offset() + "\t"
                                + (r.key() == null ? "<null>" : new String(r.key(), StandardCharsets.UTF_8))
                                + "\t" + new String(r.value(), StandardCharsets.UTF_8));
                    }
                }
            }
        }
    }
}
