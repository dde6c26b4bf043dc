package dev.logrouter.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A router run as operators run it: {@code logrouter run --config FILE} in a child JVM (this test's class path less
 * the test-only HDFS cluster, {@link #CLASS_PATH}), its output in a log file, stopped with SIGTERM ({@link #sigterm})
 * or {@code kill -9} ({@link #kill}).
 *
 * <p>Threads: the test's thread.
 */
final class RouterProcess implements AutoCloseable {

    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    /**
     * This test's class path without the HDFS test cluster (hadoop-client-minicluster), which no router ships with:
     * its copy of Netty's native epoll library differs from Netty's own, and Netty then refuses epoll altogether
     * ("Multiple resources found ... with different content"), so that a child would run on NIO and could not open
     * the Unix socket sources at all.
     */
    private static final String CLASS_PATH = java.util.Arrays.stream(
                    System.getProperty("java.class.path").split(java.io.File.pathSeparator))
            .filter(e -> !Path.of(e).getFileName().toString().startsWith("hadoop-client-minicluster"))
            .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));

    private final Process process;
    private final Path log;

    private RouterProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Writes {@code yaml} to {@code dir/name.yaml}, starts the router on it and waits until a source listens. */
    static RouterProcess start(Path dir, String name, String yaml) throws IOException {
        return start(dir, name, yaml, List.of());
    }

    /**
     * As {@link #start(Path, String, String)}, the child JVM run with {@code jvmArgs} as well (before the main class,
     * e.g. {@code -Djdk.net.hosts.file=FILE}).
     */
    static RouterProcess start(Path dir, String name, String yaml, List<String> jvmArgs) throws IOException {
        Path cfg = dir.resolve(name + ".yaml");
        Files.writeString(cfg, yaml);
        Path log = dir.resolve(name + ".log");
        List<String> cmd = new ArrayList<>(List.of(JAVA, "-Xmx512m"));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", CLASS_PATH, Main.class.getName(), "run", "--config",
                cfg.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        RouterProcess r = new RouterProcess(p, log);
        assertThat(TestClient.await(() -> TestClient.listening(log) != null || !p.isAlive(), 60_000)).isTrue();
        assertThat(p.isAlive()).as(r::log).isTrue();
        return r;
    }

    /** The first listening address the router printed. */
    String address() {
        return TestClient.listening(log);
    }

    void sigterm() {
        process.destroy();
    }

    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Waits for the exit and returns its status. */
    int exitStatus(long seconds) throws InterruptedException {
        assertThat(process.waitFor(seconds, TimeUnit.SECONDS)).as(() -> "exited within " + seconds + " s\n" + log())
                .isTrue();
        return process.exitValue();
    }

    long pid() {
        return process.pid();
    }

    /** A live metric, at a JSON pointer of {@code stats --format json} (e.g. {@code /Source/bus/lag}); -1 if unread. */
    long stat(String pointer) {
        TestClient.StatsOutput json = TestClient.stats("--pid", Long.toString(process.pid()), "--format", "json");
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.out()).at(pointer).asLong(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * A live text attribute, at a JSON pointer of {@code stats --format json} (e.g. {@code /Sink/central/hosts});
     * null if unread.
     */
    String statText(String pointer) {
        TestClient.StatsOutput json = TestClient.stats("--pid", Long.toString(process.pid()), "--format", "json");
        try {
            var node = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.out()).at(pointer);
            return node.isMissingNode() ? null : node.asText();
        } catch (IOException e) {
            return null;
        }
    }

    /** Everything the router printed so far. */
    String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** The value of {@code counter} in the {@code stats TYPE NAME:} line printed at the stop; -1 if absent. */
    long finalStat(String type, String name, String counter) {
        String prefix = "stats " + type + " " + name + ":";
        for (String line : log().split("\n")) {
            int at = line.indexOf(prefix);
            if (at >= 0) {
                for (String kv : line.substring(at + prefix.length()).trim().split(" ")) {
                    if (kv.startsWith(counter + "=")) {
                        return Long.parseLong(kv.substring(counter.length() + 1));
                    }
                }
            }
        }
        return -1;
    }

    /** The last line the router printed. */
    String lastLine() {
        String[] lines = log().strip().split("\n");
        return lines[lines.length - 1];
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
