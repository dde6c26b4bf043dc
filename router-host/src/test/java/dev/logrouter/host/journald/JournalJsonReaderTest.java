package dev.logrouter.host.journald;

import dev.logrouter.host.journald.JournalFiles.Entry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JSON reader on real journalctl output, fed in pieces as a pipe may deliver it, and on damaged input.
 *
 * <p>Threads: the test thread.
 */
class JournalJsonReaderTest {

    @TempDir
    Path tmp;

    private static List<String> read(JournalJsonReader r, byte[] out, int chunk) throws Exception {
        List<String> got = new ArrayList<>();
        JournalEntry e = new JournalEntry();
        for (int off = 0; off < out.length; off += chunk) {
            r.feed(out, off, Math.min(out.length, off + chunk));
            while (r.next(e)) {
                got.add(new String(e.data, e.offset(JournalEntry.MESSAGE), e.length(JournalEntry.MESSAGE),
                        StandardCharsets.UTF_8) + "|" + e.cursor().substring(0, 2) + "|" + e.pairs);
            }
        }
        return got;
    }

    @Test
    void anEntryMaySpanAnyNumberOfReads() throws Exception {
        Path journal = tmp.resolve("j/test.journal");
        JournalFiles.append(journal, List.of(
                Entry.at(0, "MESSAGE", "one", "A", "1", "B", new byte[] {0, 1, 2}),
                Entry.at(1, "MESSAGE", "zwei ✓", "A", "x", "A", "y"),
                Entry.at(2, "MESSAGE", "three\nlines\n", "LONG", "z".repeat(5000))));
        Process p = new ProcessBuilder("journalctl", "--directory=" + journal.getParent(), "--output=json", "--all",
                "--no-pager").start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        List<String> whole = read(new JournalJsonReader(1 << 20, 1 << 20), out, out.length);
        assertThat(whole).containsExactly("one|s=|3", "zwei ✓|s=|2", "three\nlines\n|s=|2");
        for (int chunk : new int[] {1, 2, 7, 100}) {
            assertThat(read(new JournalJsonReader(1 << 20, 1 << 20), out, chunk)).as("chunk " + chunk)
                    .isEqualTo(whole);
        }
    }

    @Test
    void aDamagedOrOverlongEntryIsLostAndTheNextOneRead() throws Exception {
        String good = "{\"MESSAGE\":\"ok\",\"__CURSOR\":\"s=1\"}\n";
        String input = good
                + "{\"MESSAGE\":\"" + "q".repeat(5000) + "\",\"__CURSOR\":\"s=2\"}\n" // over the string limit
                + "{\"MESSAGE\":[1,2,oops]}\n" // not JSON
                + good
                + "{\"MESSAGE\":null,\"__CURSOR\":\"s=3\"}\n";
        byte[] b = input.getBytes(StandardCharsets.UTF_8);
        for (int chunk : new int[] {b.length, 3}) {
            JournalJsonReader r = new JournalJsonReader(1024, 4096);
            List<String> cursors = new ArrayList<>();
            JournalEntry e = new JournalEntry();
            for (int off = 0; off < b.length; off += chunk) {
                r.feed(b, off, Math.min(b.length, off + chunk));
                while (r.next(e)) {
                    cursors.add(e.cursor() + (e.has(JournalEntry.MESSAGE) ? "" : " no message"));
                }
            }
            assertThat(cursors).as("chunk " + chunk).containsExactly("s=1", "s=1", "s=3 no message");
            assertThat(r.errors()).isEqualTo(2);
        }
    }
}
