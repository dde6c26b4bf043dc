import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
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
 * Topic admin and record counter for the Kafka benchmark (router-bench/kafka), run as a
 * single-file source program (JEP 330) on router-sinks' test classpath:
 *
 * <pre>
 *   java -cp "$(cat /tmp/sinks-cp.txt)" KafkaTool.java BOOTSTRAP COMMAND ARGS...
 *     create-topic TOPIC PARTITIONS   create (replication 1); an existing topic is deleted first
 *     delete-topic TOPIC              delete if it exists
 *     count TOPIC                     records = sum over partitions of (end offset - beginning offset)
 *     counts TOPIC                    the same, one line per partition, then the total
 *     sample TOPIC N                  print the first N records of each non-empty partition
 *                                     (pPARTITION@OFFSET TAB key TAB value)
 *     describe                        cluster id and node count (a readiness probe)
 *     settle TOPIC EXPECTED SETTLE_MS STALL_MS MAX_MS
 *                                     poll the count every 100 ms until it stops growing, print
 *                                     "COUNT LAST_CHANGE_EPOCH_US" (see settle())
 * </pre>
 *
 * The count comes from {@code Admin.listOffsets} (earliest / latest), so it reads no data
 * and costs the same for any topic size; the producers here are neither transactional nor
 * idempotent-with-aborts, so every offset in [begin, end) is one record. Runs on the main
 * thread only; the clients' own I/O threads are Kafka's. Exit status 0 = done, 1 = error.
 */
public class KafkaTool {

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
                case "settle" -> settle(admin, arg(args, 2), Long.parseLong(arg(args, 3)),
                        Long.parseLong(arg(args, 4)), Long.parseLong(arg(args, 5)), Long.parseLong(arg(args, 6)));
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
                + " | count TOPIC | counts TOPIC | sample TOPIC N | describe");
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
        Map<TopicPartition, Long> out = new java.util.TreeMap<>(
                java.util.Comparator.comparingInt(TopicPartition::partition));
        for (TopicPartition tp : tps) {
            out.put(tp, end.get(tp).offset() - begin.get(tp).offset());
        }
        return out;
    }

    /**
     * Waits until the topic's record count stops growing and prints "COUNT LAST_CHANGE_US",
     * LAST_CHANGE_US being the wall-clock time (epoch microseconds) of
     * the first poll that saw the final count. Settled = unchanged for {@code settleMs} once
     * the count reached {@code expected}, or unchanged for {@code stallMs} (longer) while it is
     * still short of it (loss or a stalled producer), or {@code maxMs} elapsed.
     */
    private static void settle(Admin admin, String topic, long expected, long settleMs, long stallMs, long maxMs)
            throws Exception {
        long start = System.currentTimeMillis();
        long last = -1;
        long lastChangeMs = start;
        long lastChangeUs = start * 1000;
        while (true) {
            long n = total(counts(admin, topic));
            long now = System.currentTimeMillis();
            if (n != last) {
                last = n;
                lastChangeMs = now;
                java.time.Instant i = java.time.Instant.now();
                lastChangeUs = i.getEpochSecond() * 1_000_000L + i.getNano() / 1000;
            }
            long quiet = now - lastChangeMs;
            if ((n >= expected && quiet >= settleMs) || quiet >= stallMs || now - start >= maxMs) {
                System.out.println(n + " " + lastChangeUs);
                return;
            }
            Thread.sleep(100);
        }
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
                                + (r.key() == null ? "<null>" : new String(r.key(), java.nio.charset.StandardCharsets.UTF_8))
                                + "\t" + new String(r.value(), java.nio.charset.StandardCharsets.UTF_8));
                    }
                }
            }
        }
    }
}
