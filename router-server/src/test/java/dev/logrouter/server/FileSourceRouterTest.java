package dev.logrouter.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The file source in a real router process (a child JVM) while files are being written: stopped with SIGTERM and
 * restarted, nothing is lost and nothing repeated; killed with {@code kill -9} and restarted, nothing is lost and
 * the only lines delivered twice are those after the checkpoint the killed router had written — counted exactly.
 */
class FileSourceRouterTest {

    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final int FILES = 4;
    private static final int PER_FILE = 60_000;
    /** Every line has this length, newline included: a line's offset in its file is {@code n * LINE}. */
    private static final int LINE = 64;

    @TempDir
    Path dir;

    private final List<Process> processes = new ArrayList<>();
    private final AtomicBoolean stopWriting = new AtomicBoolean();
    private Thread writer;

    @AfterEach
    void tearDown() throws Exception {
        stopWriting.set(true);
        if (writer != null) {
            writer.join(30_000);
        }
        for (Process p : processes) {
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void sigtermThenRestartLosesNothingAndRepeatsNothing() throws Exception {
        Path out = dir.resolve("out.log");
        startWriter(300);
        Process p = router("first.log");
        assertThat(TestClient.await(() -> TestClient.textLines(out).size() >= 30_000, 120_000)).isTrue();
        p.destroy(); // SIGTERM: a clean stop, mid-stream
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("first.log"))).isZero();
        processes.remove(p);

        Process again = router("second.log");
        assertThat(TestClient.await(() -> TestClient.textLines(out).size() >= FILES * PER_FILE, 180_000))
                .as(() -> "delivered " + TestClient.textLines(out).size()).isTrue();
        Map<String, Integer> counts = counts(TestClient.textLines(out));
        assertThat(counts).hasSize(FILES * PER_FILE);
        assertThat(counts.values()).allMatch(c -> c == 1);
        assertInFileOrder(TestClient.textLines(out));
        again.destroy();
        assertThat(again.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void killMinusNineThenRestartRepeatsOnlyWhatFollowedTheCheckpoint() throws Exception {
        Path out = dir.resolve("out.log");
        startWriter(300);
        Process p = router("first.log");
        assertThat(TestClient.await(() -> TestClient.textLines(out).size() >= 30_000, 120_000)).isTrue();
        p.destroyForcibly(); // kill -9 mid-stream
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        processes.remove(p);
        List<String> before = complete(TestClient.textLines(out));
        Map<String, Long> checkpoint = checkpointOffsets();
        long tail = before.stream().filter(l -> offset(l) >= checkpoint.getOrDefault(file(l), 0L)).count();

        Process again = router("second.log");
        assertThat(TestClient.await(() -> counts(TestClient.textLines(out)).size() >= FILES * PER_FILE, 180_000))
                .as(() -> "delivered " + counts(TestClient.textLines(out)).size()).isTrue();
        Map<String, Integer> counts = counts(TestClient.textLines(out));
        assertThat(counts).hasSize(FILES * PER_FILE); // nothing lost
        long duplicates = counts.values().stream().filter(c -> c > 1).count();
        assertThat(counts.values()).allMatch(c -> c <= 2);
        System.out.println("kill -9: " + before.size() + " delivered before, " + tail + " past the checkpoint, "
                + duplicates + " delivered twice");
        assertThat(duplicates).as("lines delivered twice = those delivered before the kill past the checkpoint")
                .isEqualTo(tail);
        again.destroy();
        assertThat(again.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }

    /** Appends {@code PER_FILE} lines to each of the files, {@code perTurn} lines per file per turn, in turns. */
    private void startWriter(int perTurn) throws IOException {
        Path in = Files.createDirectories(dir.resolve("in"));
        writer = new Thread(() -> {
            try {
                StringBuilder sb = new StringBuilder();
                for (int n = 0; n < PER_FILE && !stopWriting.get(); n += perTurn) {
                    for (int f = 0; f < FILES; f++) {
                        sb.setLength(0);
                        for (int k = n; k < Math.min(PER_FILE, n + perTurn); k++) {
                            sb.append(line(f, k));
                        }
                        Files.writeString(in.resolve("app-" + f + ".log"), sb, StandardCharsets.US_ASCII,
                                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                    }
                    java.util.concurrent.locks.LockSupport.parkNanos(25_000_000); // an application, not a flood
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, "writer");
        writer.start();
    }

    private static String line(int file, int n) {
        String head = "f" + file + " " + String.format("%08d", n) + " ";
        return head + "x".repeat(LINE - 1 - head.length()) + "\n";
    }

    private static String file(String line) {
        return line.substring(0, line.indexOf(' '));
    }

    private static long offset(String line) {
        return Long.parseLong(line.substring(line.indexOf(' ') + 1, line.indexOf(' ') + 9)) * LINE;
    }

    private static Map<String, Integer> counts(List<String> lines) {
        Map<String, Integer> m = new HashMap<>();
        for (String l : complete(lines)) {
            m.merge(l, 1, Integer::sum);
        }
        return m;
    }

    /** The lines of the output that are whole (a kill may cut the last one). */
    private static List<String> complete(List<String> lines) {
        List<String> c = new ArrayList<>(lines.size());
        for (String l : lines) {
            if (l.length() == LINE - 1) {
                c.add(l);
            }
        }
        return c;
    }

    private static void assertInFileOrder(List<String> lines) {
        Map<String, Long> last = new HashMap<>();
        for (String l : complete(lines)) {
            long off = offset(l);
            Long prev = last.put(file(l), off);
            assertThat(prev == null || prev < off).as("%s after offset %s", l, prev).isTrue();
        }
    }

    /** The offsets the checkpoint file holds, by the file's "fN" name. */
    private Map<String, Long> checkpointOffsets() throws IOException {
        Map<String, Long> m = new HashMap<>();
        Path file = dir.resolve("ckpt/in.checkpoint");
        assertThat(file).as("written once the first scan was done").exists();
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        for (JsonNode f : root.get("files")) {
            String name = Path.of(f.get("path").asText()).getFileName().toString(); // app-N.log
            m.put("f" + name.substring(4, name.indexOf('.')), f.get("offset").asLong());
        }
        return m;
    }

    private Process router(String logName) throws IOException {
        return router(logName, "*.log");
    }

    private Process router(String logName, String glob) throws IOException {
        Path cfg = dir.resolve("router.yaml");
        Files.writeString(cfg, """
                sources:
                  - name: in
                    type: file
                    paths: ["%s/in/%s"]
                    checkpoint-dir: "%s/ckpt"
                    poll-interval: 100ms
                    checkpoint-interval: 200ms
                pipeline: {ring-size: 1024}
                sinks:
                  - name: out
                    type: file
                    path: "%s/out.log"
                    template: "${MSG}\\n"
                    batch-size: 500
                    flush-timeout: 50ms
                """.formatted(dir, glob, dir, dir));
        Process p = new ProcessBuilder(JAVA, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "run", "--config", cfg.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve(logName).toFile()).start();
        processes.add(p);
        return p;
    }

    /**
     * Rotations while the router is stopped, as logrotate makes them: eight files written on, half rotated by rename
     * and create, half by copytruncate, twice during one stop (so one whole generation is written and rotated away
     * while the router is down). With the rotated names outside the glob and inside it, every line arrives exactly
     * once, each file's generations in order.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"*.log", "*.log*"})
    void rotationsWhileStoppedDeliverEveryLineExactlyOnce(String glob) throws Exception {
        int files = 8;
        int perFile = 20_000;
        Path out = dir.resolve("out.log");
        Path in = Files.createDirectories(dir.resolve("in"));
        java.util.concurrent.atomic.AtomicInteger rotateRequests = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger rotationsDone = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger turns = new java.util.concurrent.atomic.AtomicInteger();
        writer = new Thread(() -> {
            try {
                StringBuilder sb = new StringBuilder();
                for (int n = 0; n < perFile; n += 100) {
                    if (rotationsDone.get() < rotateRequests.get()) {
                        for (int f = 0; f < files; f++) {
                            rotate(in.resolve("app-" + f + ".log"), f % 2 == 1);
                        }
                        rotationsDone.incrementAndGet();
                    }
                    for (int f = 0; f < files; f++) {
                        sb.setLength(0);
                        for (int k = n; k < n + 100; k++) {
                            sb.append(line(f, k));
                        }
                        Files.writeString(in.resolve("app-" + f + ".log"), sb, StandardCharsets.US_ASCII,
                                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                    }
                    turns.incrementAndGet();
                    java.util.concurrent.locks.LockSupport.parkNanos(20_000_000);
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, "writer");
        writer.start();
        Process p = router("first.log", glob);
        assertThat(TestClient.await(() -> TestClient.textLines(out).size() >= files * perFile / 5, 120_000)).isTrue();
        p.destroy(); // SIGTERM while the writer goes on
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("first.log"))).isZero();
        processes.remove(p);
        for (int r = 1; r <= 2; r++) { // two rotations while it is down, lines written between and after
            rotateRequests.set(r);
            int want = r;
            assertThat(TestClient.await(() -> rotationsDone.get() >= want, 30_000)).isTrue();
            int after = turns.get();
            assertThat(TestClient.await(() -> turns.get() >= after + 10, 30_000)).as("lines written after it").isTrue();
        }

        Process again = router("second.log", glob);
        writer.join(120_000);
        assertThat(TestClient.await(() -> complete(TestClient.textLines(out)).size() >= files * perFile, 120_000))
                .as(() -> "delivered " + complete(TestClient.textLines(out)).size()).isTrue();
        again.destroy(); // the clean stop flushes all it read: a line read twice is in the output once it exits
        assertThat(again.waitFor(60, TimeUnit.SECONDS)).isTrue();
        Map<String, Integer> counts = counts(TestClient.textLines(out));
        assertThat(counts.values()).as("no line twice").allMatch(c -> c == 1);
        assertThat(counts).as("every line").hasSize(files * perFile);
        assertInFileOrder(TestClient.textLines(out));
    }

    /** logrotate's way: name.1 → name.2 first, then name → name.1 (rename, the writer creates name), or a copy + truncate. */
    private static void rotate(Path file, boolean copyTruncate) throws IOException {
        Path one = file.resolveSibling(file.getFileName() + ".1");
        Path two = file.resolveSibling(file.getFileName() + ".2");
        if (Files.exists(one)) {
            Files.move(one, two, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        if (copyTruncate) {
            Files.copy(file, one);
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(0);
            }
        } else {
            Files.move(file, one);
        }
    }
}
