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
        List<String> cmd = new ArrayList<>(List.of(JAVA, "-jar", JAR.toString()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("fatjar-out", ".txt");
        Path err = Files.createTempFile("fatjar-err", ".txt");
        Process p = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
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
}
