package dev.logrouter.host.file;

import dev.logrouter.core.testing.Conditions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The file source on real files in a temporary directory, publishing into a real ring: lines and their fields,
 * limits, encodings, multi-line messages, files and directories that appear later, checkpoints across a restart,
 * and many files within max-open-files.
 */
class FileSourceTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private final List<RingHarness> harnesses = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (RingHarness h : harnesses) {
            h.stop();
            h.close();
        }
    }

    private RingHarness harness() {
        RingHarness h = new RingHarness(1024);
        harnesses.add(h);
        return h;
    }

    private FileSourceConfig config(String... lines) throws Exception {
        List<String> all = new ArrayList<>(List.of(lines));
        all.add("checkpoint-dir: " + dir.resolve("ckpt"));
        all.add("poll-interval: 50ms");
        all.add("checkpoint-interval: 50ms");
        all.add("rotate-wait: 500ms");
        return RingHarness.config(all.toArray(new String[0]));
    }

    private static void append(Path p, String text) throws IOException {
        append(p, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void append(Path p, byte[] b) throws IOException {
        Files.createDirectories(p.getParent());
        Files.write(p, b, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static List<String> msgs(RingHarness h) {
        return h.messages().stream().map(RingHarness.Msg::msg).collect(Collectors.toList());
    }

    @Test
    void rawLinesCarryHostProgramPriorityAndFileName() throws Exception {
        Path log = dir.resolve("logs/app.log");
        append(log, "first line\r\nsecond line\n\nfourth\n");
        RingHarness h = harness();
        h.start(config("paths: [" + dir.resolve("logs") + "/*.log]", "host: web-1", "facility: local3",
                "severity: warning"));
        assertThat(Conditions.await(() -> h.count() == 4, WAIT)).as("messages: %s", h.messages()).isTrue();
        assertThat(msgs(h)).containsExactly("first line", "second line", "", "fourth");
        RingHarness.Msg m = h.messages().get(0);
        assertThat(m.host()).isEqualTo("web-1");
        assertThat(m.program()).isEqualTo("app.log");
        assertThat(m.pri()).isEqualTo(19 * 8 + 4);
        assertThat(m.file()).isEqualTo(log.toString());

        append(log, "appended while running\n");
        append(dir.resolve("logs/other.log"), "a new file\n");
        append(dir.resolve("logs/other.txt"), "not matched\n");
        assertThat(Conditions.await(() -> h.count() == 6, WAIT)).as("messages: %s", h.messages()).isTrue();
        assertThat(msgs(h)).contains("appended while running", "a new file").doesNotContain("not matched");
        assertThat(h.messages().get(5).program()).isIn("other.log", "app.log");
    }

    @Test
    void syslogFormattedLinesAreParsedAndProgramOptionNamesRawOnes() throws Exception {
        append(dir.resolve("sys.log"), "<38>Nov 27 01:02:03 host-a sshd[42]: Accepted key\n");
        append(dir.resolve("plain.log"), "just text\n");
        RingHarness h = harness();
        h.start(config("paths: [" + dir.resolve("sys.log") + "]", "format: rfc3164"));
        assertThat(Conditions.await(() -> h.count() == 1, WAIT)).isTrue();
        RingHarness.Msg m = h.messages().get(0);
        assertThat(m).extracting(RingHarness.Msg::host, RingHarness.Msg::program, RingHarness.Msg::msg,
                RingHarness.Msg::pri).containsExactly("host-a", "sshd", "Accepted key", 38);

        RingHarness h2 = harness();
        h2.start(RingHarness.config("name: files", "paths: [" + dir.resolve("plain.log") + "]", "program: myapp",
                "checkpoint-dir: " + dir.resolve("ckpt2")));
        assertThat(Conditions.await(() -> h2.count() == 1, WAIT)).isTrue();
        assertThat(h2.messages().get(0).program()).isEqualTo("myapp");
        assertThat(h2.messages().get(0).pri()).isEqualTo(13); // user.notice
    }

    @Test
    void overlongLineIsCutAndCountedAndBinaryDataDoesNotStopTheSource() throws Exception {
        Path log = dir.resolve("big.log");
        byte[] binary = new byte[300_000];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) (i * 31 + 7);
            if (binary[i] == '\n') {
                binary[i] = 0;
            }
        }
        append(log, "x".repeat(5000) + "\nshort\n");
        append(log, binary);
        append(log, "\nafter binary\n");
        RingHarness h = harness();
        h.start(config("paths: [" + log + "]", "max-line-size: 1KiB"));
        assertThat(Conditions.await(() -> msgs(h).contains("after binary"), WAIT)).as("%s", h.count()).isTrue();
        List<String> m = msgs(h);
        assertThat(m.get(0)).isEqualTo("x".repeat(1024));
        assertThat(m.get(1)).isEqualTo("short");
        assertThat(m.get(m.size() - 1)).isEqualTo("after binary");
        assertThat(m).hasSize(4); // the binary run is one cut message
        assertThat(h.value("truncatedLines")).isEqualTo(2);
    }

    @Test
    void lastLineWithoutNewlineIsDeliveredAfterTheTimeoutAndEmptyFileIsFollowed() throws Exception {
        Path log = dir.resolve("a.log");
        Path empty = dir.resolve("b.log");
        append(log, "complete\nno newline yet");
        append(empty, new byte[0]);
        RingHarness h = harness();
        h.start(config("paths: [" + dir + "/*.log]", "multi-line-timeout: 300ms"));
        assertThat(Conditions.await(() -> h.count() == 2, WAIT)).isTrue();
        assertThat(msgs(h)).containsExactly("complete", "no newline yet");
        assertThat(h.value("partialLines")).isEqualTo(1);
        append(empty, "now the empty file has a line\n");
        assertThat(Conditions.await(() -> h.count() == 3, WAIT)).isTrue();
        assertThat(msgs(h).get(2)).isEqualTo("now the empty file has a line");
    }

    @Test
    void javaStackTraceIsOneMessageWithIndented() throws Exception {
        Path log = dir.resolve("app.log");
        String trace = "2026-11-27 ERROR request failed\n"
                + "java.lang.IllegalStateException: boom\n"
                + "\tat dev.example.Service.call(Service.java:42)\n"
                + "\tat dev.example.Main.main(Main.java:7)\n"
                + "Caused by: java.io.IOException: disk\n"
                + "\t... 2 more\n"
                + "2026-11-27 INFO next request\n";
        append(log, trace);
        RingHarness h = harness();
        h.start(config("paths: [" + log + "]", "multi-line: regexp", "multi-line-prefix: '\\d{4}-\\d\\d-\\d\\d '",
                "multi-line-timeout: 200ms"));
        assertThat(Conditions.await(() -> h.count() == 2, WAIT)).as("%s", h.messages()).isTrue();
        assertThat(msgs(h).get(0)).isEqualTo(trace.substring(0, trace.indexOf("\n2026-11-27 INFO")));
        assertThat(msgs(h).get(1)).isEqualTo("2026-11-27 INFO next request");

        Path log2 = dir.resolve("indented.log");
        append(log2, "java.lang.RuntimeException: x\n\tat a.B.c(B.java:1)\n  at d.E.f(E.java:2)\nnext\n");
        RingHarness h2 = harness();
        h2.start(RingHarness.config("name: files", "paths: [" + log2 + "]", "multi-line: indented",
                "multi-line-timeout: 200ms", "checkpoint-dir: " + dir.resolve("ckpt2")));
        assertThat(Conditions.await(() -> h2.count() == 2, WAIT)).as("%s", h2.messages()).isTrue();
        assertThat(msgs(h2)).containsExactly("java.lang.RuntimeException: x\n\tat a.B.c(B.java:1)\n  at d.E.f(E.java:2)",
                "next");
    }

    @Test
    void latin1AndUtf16FilesArriveAsUtf8() throws Exception {
        Path latin = dir.resolve("latin.log");
        append(latin, "café à Budapest\n".getBytes(StandardCharsets.ISO_8859_1));
        Path utf16 = dir.resolve("utf16.log");
        append(utf16, "árvíztűrő tükörfúrógép\r\nzweite Zeile\n".getBytes(StandardCharsets.UTF_16LE));
        RingHarness h = harness();
        h.start(config("paths: [" + latin + "]", "encoding: ISO-8859-1"));
        RingHarness h2 = harness();
        h2.start(RingHarness.config("name: files", "paths: [" + utf16 + "]", "encoding: UTF-16LE",
                "checkpoint-dir: " + dir.resolve("ckpt2")));
        assertThat(Conditions.await(() -> h.count() == 1 && h2.count() == 2, WAIT)).isTrue();
        assertThat(msgs(h)).containsExactly("café à Budapest");
        assertThat(msgs(h2)).containsExactly("árvíztűrő tükörfúrógép", "zweite Zeile");
    }

    @Test
    void directoryThatAppearsLaterIsPickedUpWithDoubleStarGlob() throws Exception {
        RingHarness h = harness();
        h.start(config("paths: [" + dir.resolve("later") + "/**/*.log]"));
        append(dir.resolve("later/a/b/deep.log"), "deep line\n");
        assertThat(Conditions.await(() -> h.count() == 1, WAIT)).isTrue();
        append(dir.resolve("later/c/d/e/deeper.log"), "deeper line\n");
        assertThat(Conditions.await(() -> h.count() == 2, WAIT)).isTrue();
        assertThat(msgs(h)).containsExactly("deep line", "deeper line");
    }

    @Test
    void startAtEndSkipsWhatFirstStartFindsButNotNewFiles() throws Exception {
        append(dir.resolve("old.log"), "old 1\nold 2\n");
        RingHarness h = harness();
        h.start(config("paths: [" + dir + "/*.log]", "start-at: end"));
        assertThat(Conditions.await(() -> h.value("files") == 1, WAIT)).isTrue(); // the first scan is done
        append(dir.resolve("old.log"), "new in old\n");
        append(dir.resolve("fresh.log"), "fresh 1\n");
        assertThat(Conditions.await(() -> h.count() == 2, WAIT)).isTrue();
        assertThat(msgs(h)).containsExactlyInAnyOrder("new in old", "fresh 1");
    }

    @Test
    void restartResumesFromTheCheckpointWithoutLossOrRepeat() throws Exception {
        Path log = dir.resolve("app.log");
        append(log, lines(0, 1000));
        RingHarness h = harness();
        FileSourceConfig cfg = config("paths: [" + log + "]");
        h.start(cfg);
        assertThat(Conditions.await(() -> h.count() == 1000, WAIT)).isTrue();
        h.stop();
        harnesses.remove(h);
        h.close();
        append(log, lines(1000, 1500));
        RingHarness h2 = harness();
        h2.start(cfg);
        assertThat(Conditions.await(() -> h2.count() == 500, WAIT)).isTrue();
        assertThat(msgs(h2)).isEqualTo(lineList(1000, 1500));
        h2.stop();
        assertThat(Checkpoints.read(dir.resolve("ckpt/files.checkpoint"))).singleElement()
                .satisfies(e -> assertThat(e.offset()).isEqualTo(Files.size(log)));
    }

    @Test
    void ringFullHoldsReadingAndLosesNothing() throws Exception {
        Path log = dir.resolve("app.log");
        append(log, lines(0, 20_000));
        RingHarness h = harness();
        h.hold(true);
        h.start(config("paths: [" + log + "]"));
        assertThat(Conditions.await(() -> h.value("ringFull") > 0, WAIT)).isTrue();
        h.hold(false);
        assertThat(Conditions.await(() -> h.count() == 20_000, WAIT)).isTrue();
        assertThat(msgs(h)).isEqualTo(lineList(0, 20_000));
    }

    @Test
    void tenThousandFilesStayWithinMaxOpenFiles() throws Exception {
        int files = 10_000;
        for (int i = 0; i < files; i++) {
            Files.writeString(Files.createDirectories(dir.resolve("many/d" + (i % 10))).resolve("f" + i + ".log"),
                    "file " + i + " line 1\nfile " + i + " line 2\n");
        }
        RingHarness h = harness();
        h.start(config("paths: [" + dir.resolve("many") + "/*/*.log]", "max-open-files: 64"));
        long[] maxOpen = {0};
        assertThat(Conditions.await(() -> {
            maxOpen[0] = Math.max(maxOpen[0], h.value("openFiles"));
            return h.count() == 2 * files;
        }, Duration.ofSeconds(120))).as("%s of %s", h.count(), 2 * files).isTrue();
        assertThat(maxOpen[0]).isLessThanOrEqualTo(64);
        assertThat(h.value("files")).isEqualTo(files);
        assertThat(h.messages().stream().map(RingHarness.Msg::msg).distinct().count()).isEqualTo(2L * files);
        assertThat(openFileDescriptors()).isLessThan(64 + 200);
    }

    @Test
    void renamedFileIsReadToItsEndBeforeTheNewOneAndDeletedFileToo() throws Exception {
        Path log = dir.resolve("app.log");
        append(log, lines(0, 3000));
        RingHarness h = harness();
        h.hold(true); // nothing is consumed yet: the source is still inside the old file when it is rotated
        h.start(config("paths: [" + dir + "/*.log]", "read-size: 4KiB"));
        assertThat(Conditions.await(() -> h.value("ringFull") > 0 || h.value("received") > 0, WAIT)).isTrue();
        Files.move(log, dir.resolve("app.log.1")); // out of the glob
        append(log, lines(3000, 4000));
        Path other = dir.resolve("other.log");
        append(other, "other before delete\n");
        h.hold(false);
        assertThat(Conditions.await(() -> h.count() == 4001, WAIT)).as("%s", h.count()).isTrue();
        List<String> fromApp = msgs(h).stream().filter(m -> m.startsWith("line ")).collect(Collectors.toList());
        assertThat(firstDifference(fromApp, lineList(0, 4000))).as("the old file to its end, then the new one")
                .isEqualTo("none");
        assertThat(h.value("rotations")).isEqualTo(1);

        h.hold(true);
        append(other, lines(4000, 4500));
        Files.delete(other); // open: what it held is still read
        h.hold(false);
        assertThat(Conditions.await(() -> h.count() == 4501, WAIT)).as("%s", h.count()).isTrue();
        assertThat(Conditions.await(() -> h.value("files") == 1, WAIT)).isTrue(); // closed after rotate-wait
    }

    @Test
    void excludeByNameAndSymlinkedFilesAndDirectories() throws Exception {
        append(dir.resolve("logs/a.log"), "plain\n");
        append(dir.resolve("logs/old.log.gz"), "compressed\n");
        append(dir.resolve("elsewhere/target.log"), "through a link\n");
        Files.createSymbolicLink(dir.resolve("logs/linked.log"), dir.resolve("elsewhere/target.log"));
        append(dir.resolve("real-dir/in-linked-dir.log"), "in a linked directory\n");
        Files.createSymbolicLink(dir.resolve("logs/sub"), dir.resolve("real-dir"));
        RingHarness h = harness();
        h.start(config("paths: [" + dir.resolve("logs") + "/**]", "exclude: ['*.gz']"));
        assertThat(Conditions.await(() -> h.count() == 3, WAIT)).as("%s", h.messages()).isTrue();
        assertThat(msgs(h)).containsExactlyInAnyOrder("plain", "through a link", "in a linked directory");
    }

    @Test
    void encodingsThatDoNotSplitOnNewlineBytesAreRefused() {
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> config("paths: [/x/*.log]",
                "encoding: UTF-32"))).hasMessageContaining("encoding UTF-32 is not supported");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> config("paths: [/x/*.log]",
                "encoding: UTF-16"))).hasMessageContaining("UTF-16LE or UTF-16BE");
    }

    private static String firstDifference(List<String> got, List<String> want) {
        for (int i = 0; i < Math.min(got.size(), want.size()); i++) {
            if (!got.get(i).equals(want.get(i))) {
                return "at " + i + ": " + got.get(i) + " instead of " + want.get(i) + " (" + got.size() + " lines)";
            }
        }
        return got.size() == want.size() ? "none" : got.size() + " lines instead of " + want.size();
    }

    private static long openFileDescriptors() throws IOException {
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }

    static String lines(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "line " + i + "\n").collect(Collectors.joining());
    }

    static List<String> lineList(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "line " + i).collect(Collectors.toList());
    }

}
