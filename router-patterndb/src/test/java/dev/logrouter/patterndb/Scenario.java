package dev.logrouter.patterndb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A correlation scenario of the conformance corpus ({@code conformance/correlation/NN-name/}): its rules file, its
 * input lines parsed as syslog messages, and the reference's output ({@code expected.out}: blocks of
 * {@code NAME=VALUE} lines ending with {@code TAGS=} and an empty line). Messages are compared block by block, in
 * order, each as the set of its pairs plus the set of its tags: the reference orders values by its global handle
 * numbering and tags by tag id, which a reimplementation need not reproduce (corpus README, "Using it" 3).
 */
public record Scenario(String name, Path dir) {

    static final Path ROOT = Path.of("src/test/resources/corpus/conformance/correlation");

    static List<Scenario> all() throws IOException {
        try (Stream<Path> dirs = Files.list(ROOT)) {
            return dirs.filter(Files::isDirectory).sorted()
                    .map(d -> new Scenario(d.getFileName().toString(), d)).toList();
        }
    }

    Path rules() {
        return dir.resolve("rules.xml");
    }

    /** The input lines parsed as {@code pdbtool match -f} parses them. */
    List<LogEvent> input() throws IOException {
        SyslogHeaderParser parser = new SyslogHeaderParser(ZoneOffset.UTC);
        List<LogEvent> events = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("input.log"), StandardCharsets.UTF_8)) {
            if (!line.isEmpty()) {
                events.add(PdbEvents.syslogLine(line, parser, System.currentTimeMillis()));
            }
        }
        return events;
    }

    String expected() throws IOException {
        return Files.readString(dir.resolve("expected.out"), StandardCharsets.UTF_8);
    }

    /** Asserts that {@code actual} (PdbOutput text) has the reference's messages, in order, as sets. */
    void assertSameMessages(String actual) throws IOException {
        List<List<String>> want = blocks(expected());
        List<List<String>> got = blocks(actual);
        for (int i = 0; i < Math.min(want.size(), got.size()); i++) {
            assertThat(normalise(got.get(i))).as("%s: message %d of %d\nactual:\n%s\nexpected:\n%s", name, i + 1,
                    want.size(), String.join("\n", got.get(i)), String.join("\n", want.get(i)))
                    .isEqualTo(normalise(want.get(i)));
        }
        assertThat(got).as("%s: number of messages", name).hasSameSizeAs(want);
    }

    /** The blocks of an output: each block's lines without the terminating empty line. */
    static List<List<String>> blocks(String text) {
        List<List<String>> out = new ArrayList<>();
        List<String> cur = new ArrayList<>();
        for (String line : text.split("\n", -1)) {
            if (line.isEmpty()) {
                if (!cur.isEmpty()) {
                    out.add(cur);
                    cur = new ArrayList<>();
                }
            } else {
                cur.add(line);
            }
        }
        if (!cur.isEmpty()) {
            out.add(cur);
        }
        return out;
    }

    /** The pairs as a sorted set, with TAGS= replaced by its sorted tag set. */
    private static TreeSet<String> normalise(List<String> block) {
        TreeSet<String> s = new TreeSet<>();
        for (String line : block) {
            if (line.startsWith("TAGS=")) {
                String tags = line.substring(5);
                TreeSet<String> t = new TreeSet<>(tags.isEmpty() ? List.of() : Arrays.asList(tags.split(",")));
                s.add("TAGS=" + t);
            } else {
                s.add(line);
            }
        }
        return s;
    }
}
