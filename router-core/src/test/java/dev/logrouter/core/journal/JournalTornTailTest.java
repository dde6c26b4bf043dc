package dev.logrouter.core.journal;

import static dev.logrouter.core.journal.JournalTesting.Collector;
import static dev.logrouter.core.journal.JournalTesting.commit;
import static dev.logrouter.core.journal.JournalTesting.copyDir;
import static dev.logrouter.core.journal.JournalTesting.drain;
import static dev.logrouter.core.journal.JournalTesting.frameBoundaries;
import static dev.logrouter.core.journal.JournalTesting.segmentFiles;
import static dev.logrouter.core.journal.JournalTesting.small;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage to the active (unsealed) segment, as a crash or a disk leaves it: cut at random offsets, random bytes
 * flipped, garbage appended. The open never fails, every frame before the damage is handed out intact, the damage
 * is counted exactly, and appending goes on after it.
 *
 * <p>One journal is written once: 600 records in frames of 1 to 7, 8 KiB segments, acknowledged up to 99 (so
 * that the cursor and deleted segments are part of every case); each case copies it and damages the copy's newest
 * segment. Its frames are found with the documented format alone ({@link JournalTesting#frameBoundaries}).
 */
class JournalTornTailTest {

    private static final int RECORDS = 600;
    private static final long ACKED = 99;

    @TempDir
    Path tmp;

    private Path template;
    private String tailName;
    /** Frame boundaries in the tail: start of each frame, then the end of the last. */
    private List<Long> boundaries;
    /** The first sequence of each tail frame, then the sequence after the last. */
    private List<Long> firstSeqs;
    private long tailFirst;

    @BeforeEach
    void writeTheJournalOnce() throws Exception {
        template = tmp.resolve("template");
        JournalConfig cfg = small().withSegmentSize(8192);
        try (Journal j = Journal.open(template, "out", cfg)) {
            long seq = 0;
            for (int i = 0; seq < RECORDS; i++) {
                long to = Math.min(RECORDS, seq + 1 + i % 7);
                commit(j.writer(), seq, to);
                seq = to;
            }
            j.reader().poll((int) ACKED + 1, Long.MAX_VALUE, (b, o, l, s) -> { });
            j.reader().acknowledge(ACKED);
        }
        List<Path> segs = segmentFiles(template);
        assertThat(segs.size()).isGreaterThan(3);
        Path tail = segs.get(segs.size() - 1);
        tailName = tail.getFileName().toString();
        tailFirst = JournalFormat.parseSegmentName(tailName);
        assertThat(tailFirst).isGreaterThan(ACKED + 1);
        byte[] b = Files.readAllBytes(tail);
        boundaries = frameBoundaries(b);
        assertThat(boundaries.get(boundaries.size() - 1)).isEqualTo(b.length);
        firstSeqs = new ArrayList<>();
        for (int i = 0; i < boundaries.size() - 1; i++) {
            firstSeqs.add(JournalFormat.getLong(b, (int) (long) boundaries.get(i) + 8));
        }
        firstSeqs.add((long) RECORDS);
        assertThat(firstSeqs.get(0)).isEqualTo(tailFirst);
        assertThat(boundaries.size()).isGreaterThan(10);
    }

    @Test
    void cutAtRandomOffsets() throws Exception {
        Random rnd = new Random(21);
        long size = boundaries.get(boundaries.size() - 1);
        for (int c = 0; c < 200; c++) {
            long cut = c == 0 ? 0 : c == 1 ? size : rnd.nextLong(size + 1);
            Path d = tmp.resolve("cut" + c);
            copyDir(template, d);
            try (var ch = java.nio.channels.FileChannel.open(d.resolve(tailName), StandardOpenOption.WRITE)) {
                ch.truncate(cut);
            }
            int kept = framesEndingAtOrBefore(cut);
            long lastGood = boundaries.get(kept);
            check(d, "cut at " + cut, kept, cut - lastGood, cut == lastGood ? 0 : 1);
        }
    }

    @Test
    void flipRandomBytes() throws Exception {
        Random rnd = new Random(2111);
        long size = boundaries.get(boundaries.size() - 1);
        for (int c = 0; c < 100; c++) {
            long at = rnd.nextLong(size);
            int mask = 1 + rnd.nextInt(255);
            Path d = tmp.resolve("flip" + c);
            copyDir(template, d);
            Path tail = d.resolve(tailName);
            byte[] b = Files.readAllBytes(tail);
            b[(int) at] ^= (byte) mask;
            Files.write(tail, b);
            int frame = framesEndingAtOrBefore(at); // the frame holding the byte
            check(d, "flip at " + at, frame, size - boundaries.get(frame), 1);
        }
    }

    @Test
    void garbageAfterTheLastFrame() throws Exception {
        Random rnd = new Random(42);
        long size = boundaries.get(boundaries.size() - 1);
        for (int c = 0; c < 30; c++) {
            byte[] garbage = new byte[1 + rnd.nextInt(c < 15 ? 30 : 3000)];
            rnd.nextBytes(garbage);
            if (c == 0) {
                java.util.Arrays.fill(garbage, (byte) 0); // a preallocated, zeroed tail
            }
            Path d = tmp.resolve("garbage" + c);
            copyDir(template, d);
            Files.write(d.resolve(tailName), garbage, StandardOpenOption.APPEND);
            check(d, "garbage of " + garbage.length, boundaries.size() - 1, garbage.length, 1);
        }
        assertThat(size).isPositive();
    }

    /** The number of tail frames whose end is at or before {@code offset}. */
    private int framesEndingAtOrBefore(long offset) {
        int n = 0;
        while (n + 1 < boundaries.size() && boundaries.get(n + 1) <= offset) {
            n++;
        }
        return n;
    }

    /**
     * Opens the damaged copy: the records up to the end of the tail's first {@code keptFrames} frames are handed
     * out (from the cursor on), exactly {@code cut} bytes and {@code corrupt} frames are counted, and three new
     * records follow the last good one.
     */
    private void check(Path d, String what, int keptFrames, long cut, long corrupt) throws IOException, Exception {
        long end = firstSeqs.get(keptFrames);
        try (Journal j = Journal.open(d, "out", small().withSegmentSize(8192))) {
            assertThat(j.recoveredBytes()).as(what + ": bytes cut").isEqualTo(cut);
            assertThat(j.corruptFrames()).as(what + ": corrupt frames").isEqualTo(corrupt);
            assertThat(j.quarantinedSegments()).as(what).isZero();
            assertThat(j.committedSeq()).as(what).isEqualTo(end - 1);
            Collector c = drain(j.reader());
            c.assertExactly(ACKED + 1, end);
            assertThat(j.writer().nextSequence()).as(what).isEqualTo(end);
            commit(j.writer(), end, end + 3);
            Collector more = drain(j.reader());
            more.assertExactly(end, end + 3);
            j.reader().acknowledge(end + 2);
        }
        try (Journal j = Journal.open(d, "out", small().withSegmentSize(8192))) {
            assertThat(j.recoveredBytes()).as(what + ": reopened").isZero();
            assertThat(j.committedSeq()).isEqualTo(end + 2);
            assertThat(j.backlogRecords()).isZero();
        }
    }
}
