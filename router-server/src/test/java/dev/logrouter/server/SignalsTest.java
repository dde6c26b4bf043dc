package dev.logrouter.server;

import dev.logrouter.netty.HostPort;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator's controls on a router run as a child process, as logrotate and an operator drive it: the file is
 * renamed under a live stream and SIGUSR1 makes the sink reopen (the old file ends, the new one starts, no line
 * lost or repeated); the configuration file is edited and SIGHUP applies it; {@code logrouter reload --pid} and
 * {@code logrouter reopen --pid} do the same over JMX and report a refused reload with exit status 1.
 */
class SignalsTest {

    @TempDir
    Path dir;

    private String config(boolean extra) {
        String y = """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0"}
                routes:
                  - {name: r-all, to: [all]}
                %s
                sinks:
                  - {name: all, type: file, path: "%s", template: "${MSG}\\n", batch-size: 50}
                %s
                """;
        return y.formatted(extra ? "  - {name: r-extra, filter: 'message(\"extra\")', to: [extra]}" : "",
                dir.resolve("all.log"),
                extra ? "  - {name: extra, type: file, path: \"" + dir.resolve("extra.log") + "\", template: "
                        + "\"${MSG}\\n\"}" : "");
    }

    private static void signal(Process p, String sig) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + sig, Long.toString(p.pid())).start().waitFor()).isZero();
    }

    private static int command(String[] args, StringBuilder printed) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        printed.append(out.toString(StandardCharsets.UTF_8));
        return code;
    }

    @Test
    void reopenAndReloadBySignalAndCommand() throws Exception {
        Path cfg = dir.resolve("router.yaml");
        Files.writeString(cfg, config(false));
        Path log = dir.resolve("router.err");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "run", "--config", cfg.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong sent = new AtomicLong();
        List<Throwable> errors = new ArrayList<>();
        Thread sender = null;
        try {
            assertThat(TestClient.await(() -> TestClient.listening(log) != null, 30_000)).as("router started").isTrue();
            String address = TestClient.listening(log);
            sender = new Thread(() -> {
                try (Socket s = new Socket()) {
                    s.connect(HostPort.parse(address));
                    OutputStream out = new BufferedOutputStream(s.getOutputStream(), 1 << 14);
                    long n = 0;
                    while (!stop.get()) {
                        for (int k = 0; k < 20; k++, n++) {
                            out.write(("<13>Mar  1 10:00:00 host app: n=" + n + "\n").getBytes(StandardCharsets.US_ASCII));
                        }
                        out.flush();
                        sent.set(n);
                    }
                } catch (Exception e) {
                    synchronized (errors) {
                        errors.add(e);
                    }
                }
            });
            sender.start();
            Path all = dir.resolve("all.log");
            Path rotated = dir.resolve("all.log.1");
            assertThat(TestClient.await(() -> TestClient.textLines(all).size() > 2000, 60_000)).isTrue();
            // logrotate: rename, then postrotate sends SIGUSR1
            Files.move(all, rotated);
            signal(p, "USR1");
            assertThat(TestClient.await(() -> TestClient.textLines(all).size() > 2000, 60_000))
                    .as("a new file under the old name").isTrue();
            // edit the configuration, SIGHUP
            Files.writeString(cfg, config(true));
            signal(p, "HUP");
            assertThat(TestClient.await(() -> {
                try {
                    return Files.readString(log).contains("reloaded in");
                } catch (java.io.IOException e) {
                    return false;
                }
            }, 60_000)).as("reloaded").isTrue();
            TestClient.sendTcp(address, "<13>Mar  1 10:00:00 host app: extra one\n");
            assertThat(TestClient.await(() -> TestClient.textLines(dir.resolve("extra.log")).size() == 1, 30_000))
                    .isTrue();
            // the commands, by pid, over JMX
            StringBuilder printed = new StringBuilder();
            Files.writeString(cfg, config(true).replace("sinks:", "sinks: [broken"));
            assertThat(command(new String[] {"reload", "--pid", Long.toString(p.pid())}, printed)).isEqualTo(1);
            assertThat(printed.toString()).startsWith("refused: invalid configuration");
            Files.writeString(cfg, config(false));
            printed.setLength(0);
            assertThat(command(new String[] {"reload", "--pid", Long.toString(p.pid())}, printed))
                    .as(printed.toString()).isZero();
            assertThat(printed.toString()).startsWith("reloaded").contains("-[extra]");
            printed.setLength(0);
            assertThat(command(new String[] {"reopen", "--pid", Long.toString(p.pid())}, printed)).isZero();
            assertThat(printed.toString()).contains("reopen asked of 1 sink(s)");

            stop.set(true);
            sender.join();
            assertThat(errors).isEmpty();
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(Files.readString(log)).isZero();
            // the old file ends where the new one starts: every line once, in order (the extra one came on its own
            // connection, anywhere in between)
            List<String> lines = new ArrayList<>(TestClient.textLines(rotated));
            int inOld = lines.size();
            lines.addAll(TestClient.textLines(all));
            assertThat(inOld).isGreaterThan(2000);
            assertThat(lines.remove("extra one")).isTrue();
            assertThat(lines).hasSize((int) sent.get());
            for (int i = 0; i < sent.get(); i++) {
                assertThat(lines.get(i)).isEqualTo("n=" + i);
            }
        } finally {
            stop.set(true);
            if (sender != null) {
                sender.join(10_000);
            }
            p.destroyForcibly();
        }
    }
}
