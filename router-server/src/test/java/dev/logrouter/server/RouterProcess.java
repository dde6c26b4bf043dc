package dev.logrouter.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A router run as operators run it: {@code logrouter run --config FILE} in a child JVM (this test's class path), its
 * output in a log file, stopped with SIGTERM ({@link #sigterm}) or {@code kill -9} ({@link #kill}).
 *
 * <p>Threads: the test's thread.
 */
final class RouterProcess implements AutoCloseable {

    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    private final Process process;
    private final Path log;

    private RouterProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Writes {@code yaml} to {@code dir/name.yaml}, starts the router on it and waits until a source listens. */
    static RouterProcess start(Path dir, String name, String yaml) throws IOException {
        Path cfg = dir.resolve(name + ".yaml");
        Files.writeString(cfg, yaml);
        Path log = dir.resolve(name + ".log");
        Process p = new ProcessBuilder(JAVA, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "run", "--config", cfg.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
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
