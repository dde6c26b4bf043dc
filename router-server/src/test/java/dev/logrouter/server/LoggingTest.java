package dev.logrouter.server;

import dev.logrouter.core.testing.Ports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The router's log as an operator reads it: the diagnostics of a router (or check-config) run in a child JVM, as
 * {@code java -jar} runs it (slf4j-simple configured once per process, so not in this JVM), come out one line
 * each with time, thread, level and logger, and {@code --log-level} decides which.
 */
class LoggingTest {

    @TempDir
    Path dir;

    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    /** Time (ISO-8601, milliseconds, offset), thread, level, logger: what simplelogger.properties sets. */
    private static final String PREFIX = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}(Z|[+-]\\d{2}:\\d{2}) ";
    private static final String EMBEDDED = "config/router.yaml not found, using the embedded default configuration";

    private record Run(int code, String out, String err) {
    }

    /** Runs Main in a child JVM in {@link #dir}, where there is no config/router.yaml. */
    private Run child(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(JAVA, "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        cmd.addAll(List.of(args));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("no exit within 60 s: " + Files.readString(err));
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void aWarningIsOneLineWithTimeThreadLevelAndLogger() throws Exception {
        Run r = child("check-config");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("configuration OK: "); // a command's answer stays as it is, on stdout
        assertThat(r.err().lines()).as(r.err())
                .anyMatch(Pattern.compile(PREFIX + "\\[main] WARN dev\\.logrouter\\.server\\.Main - "
                        + Pattern.quote(EMBEDDED)).asMatchPredicate());
    }

    @Test
    void logLevelErrorSuppressesTheWarning() throws Exception {
        Run r = child("check-config", "--log-level", "error");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("configuration OK: ");
        assertThat(r.err()).doesNotContain(EMBEDDED).doesNotContain(" WARN ");
    }

    @Test
    void anUnknownLevelIsABadArgument() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(new String[] {"run", "--log-level", "loud"}, System.out,
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("logrouter: --log-level must be one of error, warn, info, debug, trace, not 'loud'\n")
                .contains("run [--config FILE] [--log-level LEVEL]");
    }

    @Test
    void loggingConfigAcceptsTheLevelsInAnyCaseAndRefusesOthers() {
        assertThat(new LoggingConfig("DEBUG").level()).isEqualTo("debug");
        assertThat(new LoggingConfig(null).level()).isNull(); // not given yet: the loader fills the default
        assertThatThrownBy(() -> new LoggingConfig("verbose")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("level must be one of error, warn, info, debug, trace, not 'verbose'");
    }

    /**
     * A sink failing in a running router: its handler's retry (a warning) and give-up (an error) come out in the
     * format on the sink's thread, while {@code --log-level warn} keeps the router's info lines out.
     */
    @Test
    void aRunningRoutersSinkDiagnosticsComeOutInTheFormatAtTheirLevels() throws Exception {
        sinkDiagnostics("", "--log-level", "warn");
    }

    /** The same with the level from the configuration file ({@code logging.level}) instead of the command line. */
    @Test
    void theConfigurationsLevelAppliesWithoutLogLevel() throws Exception {
        sinkDiagnostics("logging: {level: warn}\n");
    }

    /** {@code --log-level} wins over the file's {@code logging.level}. */
    @Test
    void logLevelOnTheCommandLineWinsOverTheConfiguration() throws Exception {
        int port = Ports.freeLoopbackPort();
        Path cfg = dir.resolve("quiet.yaml");
        Files.writeString(cfg, """
                logging: {level: error}
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:%d"}
                sinks:
                  - {name: files, type: file, path: "%s/${HOST}.log"}
                """.formatted(port, dir.resolve("logs")));
        Path log = dir.resolve("quiet.log");
        Process p = new ProcessBuilder(JAVA, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "run", "--config", cfg.toString(), "--log-level", "info").directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertThat(TestClient.await(() -> read(log).contains("listening on"), 30_000)).as(read(log)).isTrue();
        } finally {
            p.destroy();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        assertThat(read(log).lines()).anyMatch(Pattern.compile(PREFIX + "\\[main] INFO dev\\.logrouter\\.server\\.Main - "
                + "source net listening on 127\\.0\\.0\\.1:" + port).asMatchPredicate());
    }

    private void sinkDiagnostics(String loggingYaml, String... levelArgs) throws Exception {
        Path blocker = dir.resolve("broken");
        Files.writeString(blocker, "not a directory"); // the sink's base directory is a file: every append fails
        int port = Ports.freeLoopbackPort();
        Path cfg = dir.resolve("router.yaml");
        Files.writeString(cfg, loggingYaml + """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:%d"}
                sinks:
                  - {name: broken, type: file, path: "%s/${HOST}.log", template: "${MSG}\\n", max-retries: 1,
                     dead-letter: "%s"}
                routes:
                  - {name: all, to: [broken]}
                """.formatted(port, blocker, dir.resolve("dead.jsonl")));
        Path log = dir.resolve("router.log");
        List<String> cmd = new ArrayList<>(List.of(JAVA, "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "run", "--config", cfg.toString()));
        cmd.addAll(List.of(levelArgs));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertThat(TestClient.await(() -> sent(port), 30_000)).as("router listening").isTrue();
            assertThat(TestClient.await(() -> read(log).contains("given up after"), 30_000))
                    .as("given up: %s", read(log)).isTrue();
        } finally {
            p.destroy(); // SIGTERM: clean stop
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        List<String> lines = read(log).lines().toList();
        String handler = "\\[sink-broken] %s dev\\.logrouter\\.core\\.pipeline\\.SinkHandler - sink broken: APPEND: ";
        assertThat(lines).as(read(log))
                .anyMatch(Pattern.compile(PREFIX + handler.formatted("WARN") + ".*; retrying in 10 ms")
                        .asMatchPredicate())
                .anyMatch(Pattern.compile(PREFIX + handler.formatted("ERROR") + ".*; given up after 1 retries .*")
                        .asMatchPredicate())
                .noneMatch(l -> l.contains(" INFO ")); // listening, running, stopped, the counters
    }

    /** Sends one message once the router accepts connections; false while it does not yet. */
    private static boolean sent(int port) {
        try {
            TestClient.sendTcp("127.0.0.1:" + port, "<13>Nov 22 10:00:00 web1 app: one\n");
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "";
        }
    }
}
