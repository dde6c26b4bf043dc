package dev.logrouter.sinks.kafka;

import dev.logrouter.core.testing.Ports;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A real single-node Kafka broker (KRaft, broker and controller in one process) from the
 * {@code kafka_2.13} artifact, run in a child JVM on loopback ports with the test's own classpath:
 * {@code kafka.tools.StorageTool format}, then {@code kafka.Kafka server.properties}. Ready when its log
 * says {@code Kafka Server started}; {@link #stop()} sends SIGTERM and waits; {@link #start()} again
 * restarts it on the same ports and log directory (a broker restart, data kept).
 *
 * <p>Threads: used by one test thread; a daemon thread copies the broker's output to
 * {@code target/kafka-broker-<port>.log}.
 */
public final class KafkaBroker implements AutoCloseable {

    private static final long START_TIMEOUT_SECONDS = 90;

    private final Path dir;
    private final int port;
    private final int controllerPort;
    private final Path properties;
    private final Path logFile;
    private Process process;
    private boolean formatted;

    public KafkaBroker(Path dir) {
        this.dir = dir;
        this.port = Ports.freeLoopbackPort();
        this.controllerPort = Ports.freeLoopbackPort();
        this.properties = dir.resolve("server.properties");
        this.logFile = Path.of("target", "kafka-broker-" + port + ".log").toAbsolutePath();
    }

    /** Starts a broker with a fresh log directory under {@code dir}; closes it on failure. */
    public static KafkaBroker start(Path dir) throws IOException, InterruptedException {
        KafkaBroker b = new KafkaBroker(dir);
        try {
            b.start();
        } catch (IOException | InterruptedException | RuntimeException e) {
            b.close();
            throw e;
        }
        return b;
    }

    /** {@code 127.0.0.1:port} of the PLAINTEXT listener. */
    public String bootstrap() {
        return "127.0.0.1:" + port;
    }

    public synchronized void start() throws IOException, InterruptedException {
        if (process != null) {
            throw new IllegalStateException("already running");
        }
        if (!formatted) {
            Files.createDirectories(dir);
            Files.writeString(properties, String.join("\n",
                    "process.roles=broker,controller",
                    "node.id=1",
                    "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                    "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                    "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                    "controller.listener.names=CONTROLLER",
                    "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                    "log.dirs=" + dir.resolve("data").toAbsolutePath(),
                    "num.partitions=1",
                    "offsets.topic.replication.factor=1",
                    "offsets.topic.num.partitions=4",
                    "transaction.state.log.replication.factor=1",
                    "transaction.state.log.min.isr=1",
                    "share.coordinator.state.topic.replication.factor=1",
                    "share.coordinator.state.topic.min.isr=1",
                    "group.initial.rebalance.delay.ms=0",
                    "auto.create.topics.enable=true",
                    "log.flush.interval.messages=9223372036854775807",
                    "") + "\n");
            byte[] id = new byte[16];
            SecureRandom random = new SecureRandom();
            String clusterId;
            do {
                random.nextBytes(id);
                clusterId = Base64.getUrlEncoder().withoutPadding().encodeToString(id);
            } while (clusterId.startsWith("-"));
            Process format = java("kafka.tools.StorageTool", "format", "-t", clusterId, "-c", properties.toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .start();
            if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
                format.destroyForcibly();
                throw new IOException("kafka StorageTool format failed; see " + logFile);
            }
            formatted = true;
        }
        Process p = java("kafka.Kafka", properties.toString()).redirectErrorStream(true).start();
        process = p;
        CountDownLatch started = new CountDownLatch(1);
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                 var out = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8,
                         java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND)) {
                for (String line; (line = r.readLine()) != null; ) {
                    out.write(line);
                    out.newLine();
                    out.flush();
                    if (line.contains("Kafka Server started")) {
                        started.countDown();
                    }
                }
            } catch (IOException e) {
                // the broker exited; start() notices
            }
        }, "kafka-broker-log");
        pump.setDaemon(true);
        pump.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        while (!started.await(200, TimeUnit.MILLISECONDS)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                process = null;
                throw new IOException("kafka broker did not start (exit " + (p.isAlive() ? "none" : p.exitValue())
                        + "); see " + logFile);
            }
        }
    }

    /** SIGTERM, then waits for the broker to exit (killed after 30 s). */
    public synchronized void stop() throws InterruptedException {
        Process p = process;
        if (p == null) {
            return;
        }
        process = null;
        p.destroy();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private ProcessBuilder java(String mainClass, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx512m");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-Djava.awt.headless=true");
        cmd.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=info"); // the tests' own logging is quieter; readiness reads this log
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).directory(dir.toFile());
    }

    // ---- helpers for tests ----

    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
    }

    /** Creates {@code topic} with {@code partitions} partitions (replication 1) and waits for it. */
    public void createTopic(String topic, int partitions) throws Exception {
        createTopic(topic, partitions, Map.of());
    }

    public void createTopic(String topic, int partitions, Map<String, String> configs) throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(configs))).all()
                    .get(60, TimeUnit.SECONDS);
        }
    }

    /** Records in {@code topic}: the sum over its partitions of end offset - start offset. */
    public long count(String topic) throws Exception {
        try (Admin admin = admin()) {
            var desc = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic);
            Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            desc.partitions().forEach(p -> {
                earliest.put(new TopicPartition(topic, p.partition()), OffsetSpec.earliest());
                latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest());
            });
            var lo = admin.listOffsets(earliest).all().get(30, TimeUnit.SECONDS);
            var hi = admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
            long n = 0;
            for (TopicPartition tp : hi.keySet()) {
                n += hi.get(tp).offset() - lo.get(tp).offset();
            }
            return n;
        }
    }

    /** Reads every record of {@code topic} from the beginning, up to the end offsets as of this call. */
    public List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (var c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).collect(Collectors.toList());
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts, Duration.ofSeconds(30));
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end offsets " + end);
                }
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            return out;
        }
    }

    /** The values of every record of {@code topic}, as UTF-8 strings. */
    public List<String> values(String topic) {
        return readAll(topic).stream().map(r -> new String(r.value(), StandardCharsets.UTF_8))
                .collect(Collectors.toList());
    }
}
