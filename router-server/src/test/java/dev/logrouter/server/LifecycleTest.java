package dev.logrouter.server;

import dev.logrouter.netty.HostPort;
import dev.logrouter.core.metrics.MetricGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Flow control and clean stop with a real router: a ring far smaller than the burst makes the TCP
 * sources pause reading (backpressure) and nothing is lost; a clean stop right after the senders
 * finish delivers every message; SIGTERM to a child router process exits 0 with everything written.
 */
class LifecycleTest {

    @TempDir
    Path dir;

    private static final int CONNECTIONS = 4;
    private static final int PER_CONNECTION = 25_000;

    private static byte[] burst(int conn, int count, boolean octet) {
        StringBuilder sb = new StringBuilder(count * 80);
        for (int i = 0; i < count; i++) {
            String msg = "<13>Mar  1 10:00:00 host" + conn + " app[7]: c=" + conn + " n=" + i + " padpadpadpadpad";
            if (octet) {
                sb.append(msg.length()).append(' ').append(msg);
            } else {
                sb.append(msg).append('\n');
            }
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Starts one sender thread per connection, each writing its whole burst and closing. The returned
     * threads are still running (the writes block while the router applies backpressure).
     */
    private static List<Thread> startSenders(String address, List<Throwable> errors) {
        List<Thread> senders = new ArrayList<>();
        for (int c = 0; c < CONNECTIONS; c++) {
            byte[] data = burst(c, PER_CONNECTION, c % 2 == 0);
            Thread t = new Thread(() -> {
                try (Socket s = new Socket()) {
                    s.connect(HostPort.parse(address));
                    OutputStream out = new BufferedOutputStream(s.getOutputStream(), 1 << 16);
                    out.write(data);
                    out.flush();
                } catch (Exception e) {
                    synchronized (errors) {
                        errors.add(e);
                    }
                }
            });
            t.start();
            senders.add(t);
        }
        return senders;
    }

    /**
     * True once every connection has delivered at least one line and the total is past half: the stop
     * then lands mid-stream, with every connection accepted and data in socket buffers, pending queues,
     * the ring and sink batches.
     */
    private static boolean midStream(Path file) {
        List<String> lines = TestClient.textLines(file);
        if (lines.size() < CONNECTIONS * PER_CONNECTION / 2) {
            return false;
        }
        for (int c = 0; c < CONNECTIONS; c++) {
            String prefix = "c=" + c + " ";
            if (lines.stream().noneMatch(l -> l.startsWith(prefix))) {
                return false;
            }
        }
        return true;
    }

    private static void assertEveryMessageOnce(Path file) throws Exception {
        List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        assertThat(lines).hasSize(CONNECTIONS * PER_CONNECTION);
        Set<String> unique = new HashSet<>(lines);
        assertThat(unique).hasSize(CONNECTIONS * PER_CONNECTION);
        for (int c = 0; c < CONNECTIONS; c++) {
            assertThat(unique).contains("c=" + c + " n=0 padpadpadpadpad", "c=" + c + " n=" + (PER_CONNECTION - 1)
                    + " padpadpadpadpad");
        }
    }

    @Test
    void tinyRingPausesReadersAndLosesNothingAcrossACleanStop() throws Exception {
        Path out = dir.resolve("out.log");
        String yaml = """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0", drain-timeout: 120s}
                pipeline: {ring-size: 64, parse-workers: 2}
                sinks:
                  - {name: file, type: file, path: "%s", template: "${MSG}\\n", batch-size: 7}
                """.formatted(out);
        Router router = TestClient.startRouter(yaml);
        List<Throwable> errors = new ArrayList<>();
        List<Thread> senders = startSenders(router.boundAddress("net"), errors);
        MetricGroup source = router.metrics().require("Source", "net");
        assertThat(TestClient.await(() -> midStream(out), 60_000)).isTrue();
        // stop mid-stream: connections already accepted keep delivering until quiet, then everything drains
        assertThat(router.stop()).isTrue();
        for (Thread t : senders) {
            t.join(TimeUnit.MINUTES.toMillis(3));
            assertThat(t.isAlive()).as(t.getName() + " done").isFalse();
        }
        assertThat(errors).isEmpty();
        assertThat(source.value("pauses")).as("flow control engaged").isPositive();
        assertThat(source.value("received")).isEqualTo((long) CONNECTIONS * PER_CONNECTION);
        MetricGroup sink = router.metrics().require("Sink", "file");
        assertThat(sink.value("written")).isEqualTo((long) CONNECTIONS * PER_CONNECTION);
        assertThat(sink.value("averageBatchSize")).isLessThanOrEqualTo(7);
        assertEveryMessageOnce(out);
        for (Thread t : router.pipeline().threads()) {
            assertThat(t.isAlive()).as(t.getName() + " stopped").isFalse();
        }
    }

    @Test
    void sigtermToTheRouterProcessDrainsAndExitsZero() throws Exception {
        Path out = dir.resolve("out.log");
        Path cfg = dir.resolve("router.yaml");
        Files.writeString(cfg, """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0", drain-timeout: 120s}
                pipeline: {ring-size: 64, parse-workers: 2}
                sinks:
                  - {name: file, type: file, path: "%s", template: "${MSG}\\n", batch-size: 7}
                """.formatted(out));
        Path log = dir.resolve("router.err");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "run", "--config", cfg.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertThat(TestClient.await(() -> TestClient.listening(log) != null, 30_000)).as("router started").isTrue();
            List<Throwable> errors = new ArrayList<>();
            List<Thread> senders = startSenders(TestClient.listening(log), errors);
            assertThat(TestClient.await(() -> midStream(out), 60_000)).isTrue();
            p.destroy(); // SIGTERM, mid-stream
            for (Thread t : senders) {
                t.join(TimeUnit.MINUTES.toMillis(3));
                assertThat(t.isAlive()).as(t.getName() + " done").isFalse();
            }
            assertThat(errors).isEmpty();
            assertThat(p.waitFor(150, TimeUnit.SECONDS)).isTrue(); // drain-timeout is 120 s
            assertThat(p.exitValue()).as(Files.readString(log)).isZero();
            assertEveryMessageOnce(out);
            assertThat(Files.readString(log)).contains("stopped cleanly");
        } finally {
            p.destroyForcibly();
        }
    }

}
