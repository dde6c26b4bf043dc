package dev.logrouter.host.file;

import dev.logrouter.core.testing.Conditions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.BitSet;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rotation under load: 1,000,000 lines written over 20 files in 4 directories while, every 50,000 lines, one file
 * is rotated — by rename + create and by copytruncate in turn (the globs match the rotated names, as a
 * {@code /var/log/app/*.log*} glob does) — and one file is deleted while it is being read. Every line must arrive
 * exactly once.
 */
class FileRotationTest {

    private static final int FILES = 20;
    private static final int LINES = 1_000_000;
    private static final int ROTATE_EVERY = 50_000;
    private static final int BATCH = 50; // lines per write to one file
    private static final String PAD = "x".repeat(70);

    @TempDir
    Path dir;

    @Test
    void everyLineOnceThroughRenameCopytruncateAndDelete() throws Exception {
        Path[] paths = new Path[FILES];
        FileChannel[] out = new FileChannel[FILES];
        for (int i = 0; i < FILES; i++) {
            paths[i] = Files.createDirectories(dir.resolve("d" + (i % 4))).resolve("app-" + i + ".log");
            out[i] = open(paths[i]);
        }
        BitSet seen = new BitSet(LINES);
        AtomicLong duplicates = new AtomicLong();
        AtomicLong foreign = new AtomicLong();
        try (RingHarness h = new RingHarness(1 << 14)) {
            h.onMessage = msg -> {
                int id = msg.length() > 8 && msg.charAt(0) == 'L' ? Integer.parseInt(msg.substring(1, 8)) : -1;
                if (id < 0) {
                    foreign.incrementAndGet();
                } else if (seen.get(id)) {
                    duplicates.incrementAndGet();
                } else {
                    seen.set(id);
                }
            };
            h.start(RingHarness.config("paths: [" + dir + "/d*/app-*.log*]", "checkpoint-dir: " + dir.resolve("ckpt"),
                    "poll-interval: 100ms", "rotate-wait: 2s"));
            int renames = 0;
            int copies = 0;
            int rotation = 0;
            boolean deleted = false;
            StringBuilder sb = new StringBuilder();
            for (int n = 0; n < LINES; n += BATCH) {
                int f = (n / BATCH) % FILES;
                sb.setLength(0);
                for (int k = n; k < n + BATCH; k++) {
                    sb.append('L').append(String.format("%07d", k)).append(' ').append(PAD).append('\n');
                }
                write(out[f], sb);
                int done = n + BATCH;
                if (done % ROTATE_EVERY == 0 && done < LINES) {
                    int r = rotation % FILES;
                    rotation++;
                    if (rotation % 2 == 1) { // rename + create
                        out[r].close();
                        Files.move(paths[r], paths[r].resolveSibling(paths[r].getFileName() + ".r" + rotation));
                        out[r] = open(paths[r]);
                        renames++;
                    } else { // copytruncate, as logrotate does it: copy, then truncate the original in place
                        Files.copy(paths[r], paths[r].resolveSibling(paths[r].getFileName() + ".c" + rotation));
                        out[r].truncate(0);
                        copies++;
                    }
                }
                if (!deleted && done == LINES / 2 + 25_000) { // delete a file in the middle of being read
                    int d = 13;
                    out[d].close();
                    Files.delete(paths[d]);
                    out[d] = open(paths[d]);
                    deleted = true;
                }
            }
            for (FileChannel c : out) {
                c.close();
            }
            int expectedCopies = copies;
            assertThat(Conditions.await(() -> seen.cardinality() == LINES, Duration.ofMinutes(3)))
                    .as("delivered %s of %s, duplicates %s", seen.cardinality(), LINES, duplicates.get()).isTrue();
            // every copy continued its original: none is read from its start (that would repeat lines)
            assertThat(Conditions.await(() -> h.value("copiesFollowed") == expectedCopies, Duration.ofSeconds(30)))
                    .as("copiesFollowed %s of %s, duplicates %s", h.value("copiesFollowed"), expectedCopies, duplicates.get()).isTrue();
            h.stop();
            assertThat(duplicates.get()).isZero();
            assertThat(foreign.get()).isZero();
            assertThat(seen.cardinality()).isEqualTo(LINES);
            assertThat(renames).isEqualTo(10);
            assertThat(h.value("truncations")).isGreaterThanOrEqualTo(copies);
            assertThat(h.value("rotations")).isGreaterThanOrEqualTo(renames + 1);
        }
    }

    private static FileChannel open(Path p) throws IOException {
        return FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }

    private static void write(FileChannel ch, CharSequence s) throws IOException {
        ByteBuffer b = StandardCharsets.US_ASCII.encode(s.toString());
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }
}
