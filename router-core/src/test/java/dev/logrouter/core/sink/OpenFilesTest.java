package dev.logrouter.core.sink;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.template.PathKey;
import dev.logrouter.core.template.PathValueEscaper;
import dev.logrouter.core.template.Template;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The open-file cache of the file and HDFS sinks on real events: lookup by rendered path, least-recently-used
 * eviction, idle sweeps, and completions that fail (the file stays, to be tried again).
 */
class OpenFilesTest {

    private final OpenFiles<String> files = new OpenFiles<>(Template.compile("/logs/${HOST}.log", ZoneOffset.UTC),
            PathValueEscaper.INSTANCE, new byte[] {0});

    private static LogEvent event(String host) {
        byte[] raw = ("<13>Nov 26 10:00:00 " + host + " app: hello").getBytes(StandardCharsets.US_ASCII);
        LogEvent e = new LogEvent();
        e.clear();
        e.setRaw(raw, 0, raw.length);
        new SyslogHeaderParser(ZoneOffset.UTC).parse(e);
        return e;
    }

    /** Looks the event's path up, opening (naming) a new file the way a sink does. */
    private String fileFor(LogEvent e) {
        String f = files.find(e);
        if (f == null) {
            f = files.rendered();
            files.put(files.probe().copy(), f);
            files.remember(f);
        }
        return f;
    }

    @Test
    void findsTheFileOfEachRenderedPath() {
        assertThat(files.find(event("web1"))).isNull();
        assertThat(files.rendered()).isEqualTo("/logs/web1.log");
        assertThat(fileFor(event("web1"))).isEqualTo("/logs/web1.log");
        assertThat(fileFor(event("web2"))).isEqualTo("/logs/web2.log");
        assertThat(files.find(event("web1"))).isEqualTo("/logs/web1.log");
        assertThat(files.size()).isEqualTo(2);
        assertThat(files.invalid()).isNull();
        files.put(files.invalidKey().copy(), "invalid-path.log");
        assertThat(files.invalid()).isEqualTo("invalid-path.log");
    }

    @Test
    void evictsTheLeastRecentlyUsedAndKeepsAFileWhoseCompletionFailed() throws IOException {
        fileFor(event("a"));
        fileFor(event("b"));
        fileFor(event("c"));
        fileFor(event("a")); // a is used again: b is now the eldest
        List<String> completed = new ArrayList<>();
        files.evictBeyond(2, completed::add);
        assertThat(completed).containsExactly("/logs/b.log");
        assertThat(files.values()).containsExactly("/logs/c.log", "/logs/a.log");
        assertThat(files.find(event("b"))).as("an evicted path is opened again").isNull();

        assertThatThrownBy(() -> files.evictBeyond(1, f -> {
            throw new IOException("disk gone");
        })).hasMessage("disk gone");
        assertThat(files.size()).as("a failed completion leaves its file").isEqualTo(2);
        files.evictBeyond(1, completed::add);
        assertThat(completed).containsExactly("/logs/b.log", "/logs/c.log");
    }

    @Test
    void sweepsIdleFilesAndForgetsTheLastPath() throws IOException {
        fileFor(event("a"));
        fileFor(event("b"));
        List<String> completed = new ArrayList<>();
        files.sweep(f -> f.endsWith("b.log"), completed::add);
        assertThat(completed).containsExactly("/logs/b.log");
        assertThat(files.values()).containsExactly("/logs/a.log");
        // b was the last path looked up: after the sweep it is not returned from the last-path shortcut
        assertThat(files.find(event("b"))).isNull();

        PathKey a = new PathKey("/logs/a.log".getBytes(StandardCharsets.UTF_8), 11);
        files.remove(a, "/logs/a.log");
        assertThat(files.size()).isZero();
        fileFor(event("x"));
        files.clear();
        assertThat(files.size()).isZero();
        assertThat(files.find(event("x"))).isNull();
    }
}
