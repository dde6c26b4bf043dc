package dev.logrouter.server;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fat jar the build ships, run as {@code java -jar} runs it (after the package phase, by failsafe): its merged
 * {@code META-INF/services} files register every module's component types, so its configuration reference is the
 * one in docs/reference.md, and the example configurations pass check-config.
 */
class FatJarIT {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path JAR = Path.of("target", "logrouter.jar").toAbsolutePath();
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    private record Run(int code, String out, String err) {
    }

    private static Run java(String... args) throws Exception {
        return java(null, args);
    }

    /** {@code java -jar logrouter.jar ARGS} with {@code stdin} (null: none) as its standard input. */
    private static Run java(Path stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(JAVA, "-jar", JAR.toString()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("fatjar-out", ".txt");
        Path err = Files.createTempFile("fatjar-err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile());
        if (stdin != null) {
            pb.redirectInput(stdin.toFile());
        }
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("no exit within 120 s: " + Files.readString(err));
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void theJarsReferenceIsTheDocumentedOne() throws Exception {
        Run r = java("config-reference");
        assertThat(r.code()).as(r.err()).isZero();
        Matcher m = Pattern.compile("<!-- config-reference:start -->\n(.*)<!-- config-reference:end -->",
                Pattern.DOTALL).matcher(Files.readString(ROOT.resolve("docs/reference.md")));
        assertThat(m.find()).isTrue();
        assertThat(r.out()).as("every module's types are registered in the fat jar").isEqualTo(m.group(1));
    }

    @Test
    void everyExampleConfigurationPassesCheckConfigInTheJar(@org.junit.jupiter.api.io.TempDir Path work)
            throws Exception {
        for (ExampleConfigs.Example e : ExampleConfigs.materialize(ROOT, work)) {
            Run r = java("check-config", "--config", e.copy().toString());
            assertThat(r.code()).as("%s: %s", e.original(), r.err()).isZero();
            assertThat(r.out()).startsWith("configuration OK: ");
        }
    }

    @Test
    void testRunsMessagesFromStandardInputThroughAConfigurationAndComparesWithAGoldenFile(
            @org.junit.jupiter.api.io.TempDir Path work) throws Exception {
        Path config = work.resolve("router.yaml");
        Files.writeString(config, """
                sources: [{name: net, type: tcp, bind: "127.0.0.1:0"}]
                pipeline: {time-zone: UTC}
                routes: [{name: all, to: [relay]}]
                sinks: [{name: relay, type: syslog, hosts: ["127.0.0.1:1"], format: rfc5424, framing: lf}]
                """);
        Path input = work.resolve("input.txt");
        Files.writeString(input, "<13>1 2026-03-01T12:00:00Z web1 app 7 - - hello\n");
        String golden = "{\"line\":1,\"input\":\"<13>1 2026-03-01T12:00:00Z web1 app 7 - - hello\","
                + "\"routes\":[\"all\"],\"sinks\":{\"relay\":"
                + "{\"frame\":\"<13>1 2026-03-01T12:00:00+00:00 web1 app 7 - - hello\\n\"}}}\n";
        Run json = java(input, "test", "--config", config.toString(), "--input", "-", "--format", "json");
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(json.out()).isEqualTo(golden);

        Path expected = work.resolve("expected.jsonl");
        Files.writeString(expected, golden.replace("hello\\n", "bye\\n"));
        Run differs = java(input, "test", "--config", config.toString(), "--input", "-", "--expect",
                expected.toString());
        assertThat(differs.code()).isEqualTo(1);
        assertThat(differs.out()).contains("@@ -1,1 +1,1 @@").contains("-{\"line\":1").contains("+{\"line\":1");
    }
}
