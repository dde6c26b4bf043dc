package dev.logrouter.core.journal;

import static dev.logrouter.core.journal.JournalTesting.Collector;
import static dev.logrouter.core.journal.JournalTesting.commit;
import static dev.logrouter.core.journal.JournalTesting.drain;
import static dev.logrouter.core.journal.JournalTesting.names;
import static dev.logrouter.core.journal.JournalTesting.segmentFiles;
import static dev.logrouter.core.journal.JournalTesting.small;
import static org.assertj.core.api.Assertions.assertThat;

import dev.logrouter.core.util.Clock;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage outside the tail: the cursor file (one slot, both, the file gone) and sealed segments (zero length, a bad
 * footer, unreadable, a bad frame inside). The open never fails; the outcome — what is handed out again, what is
 * quarantined, what is counted — is asserted exactly.
 */
class JournalDamageTest {

    @TempDir
    Path dir;

    /** 300 records in frames of 10, 4 KiB segments; acknowledged to 5 and then to 8 (generations 1 and 2). */
    private void write() throws Exception {
        try (Journal j = Journal.open(dir, "out", small())) {
            for (long s = 0; s < 300; s += 10) {
                commit(j.writer(), s, s + 10);
            }
            j.reader().poll(20, Long.MAX_VALUE, (b, o, l, s) -> { });
            j.reader().acknowledge(5); // generation 1, slot 1
            j.reader().acknowledge(8); // generation 2, slot 0
        }
    }

    private Journal reopen() throws IOException {
        return Journal.open(dir, "out", small());
    }

    private void damageSlot(int slot) throws IOException {
        try (FileChannel ch = FileChannel.open(dir.resolve("out.cursor"), StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {0x55}), slot * 4096L + 9);
        }
    }

    @Test
    void theNewerCursorSlotDamagedFallsBackToTheOlder() throws Exception {
        write();
        damageSlot(0);
        try (Journal j = reopen()) {
            assertThat(j.acknowledgedSeq()).isEqualTo(5);
            assertThat(j.cursorResets()).isZero();
            drain(j.reader()).assertExactly(6, 300); // 6 to 8 again: duplicates, never a loss
            j.reader().acknowledge(100);
        }
        try (Journal j = reopen()) {
            assertThat(j.acknowledgedSeq()).isEqualTo(100);
        }
    }

    @Test
    void theOlderCursorSlotDamagedChangesNothing() throws Exception {
        write();
        damageSlot(1);
        try (Journal j = reopen()) {
            assertThat(j.acknowledgedSeq()).isEqualTo(8);
            assertThat(j.cursorResets()).isZero();
            drain(j.reader()).assertExactly(9, 300);
        }
    }

    @Test
    void bothSlotsDamagedStartFromTheOldestSegmentAndCountIt() throws Exception {
        write();
        damageSlot(0);
        damageSlot(1);
        try (Journal j = reopen()) {
            assertThat(j.cursorResets()).isEqualTo(1);
            assertThat(j.acknowledgedSeq()).isEqualTo(-1);
            drain(j.reader()).assertExactly(0, 300);
            j.reader().acknowledge(299);
        }
        try (Journal j = reopen()) {
            assertThat(j.cursorResets()).isZero();
            assertThat(j.acknowledgedSeq()).isEqualTo(299);
        }
    }

    @Test
    void aMissingOrTruncatedCursorStartsFromTheOldestSegment() throws Exception {
        write();
        Files.delete(dir.resolve("out.cursor"));
        try (Journal j = reopen()) {
            assertThat(j.cursorResets()).isEqualTo(1);
            drain(j.reader()).assertExactly(0, 300);
        }
        try (FileChannel ch = FileChannel.open(dir.resolve("out.cursor"), StandardOpenOption.WRITE)) {
            ch.truncate(10);
        }
        try (Journal j = reopen()) {
            assertThat(j.cursorResets()).isEqualTo(1);
            drain(j.reader()).assertExactly(0, 300);
        }
    }

    @Test
    void aNewJournalIsNotACursorReset() throws Exception {
        try (Journal j = reopen()) {
            assertThat(j.cursorResets()).isZero();
            assertThat(j.committedSeq()).isEqualTo(-1);
            assertThat(j.acknowledgedSeq()).isEqualTo(-1);
            assertThat(j.writer().nextSequence()).isZero();
        }
    }

    /** The first and last sequence of each sealed segment, from its name and footer. */
    private List<long[]> sealedRanges() throws IOException {
        List<long[]> r = new ArrayList<>();
        List<Path> segs = segmentFiles(dir);
        for (Path p : segs.subList(0, segs.size() - 1)) {
            byte[] b = Files.readAllBytes(p);
            r.add(new long[] {JournalFormat.parseSegmentName(p.getFileName().toString()),
                JournalFormat.getLong(b, b.length - 12)});
        }
        return r;
    }

    @Test
    void aZeroLengthSealedSegmentIsQuarantined() throws Exception {
        write();
        long[] victim = sealedRanges().get(2);
        Path p = dir.resolve(JournalFormat.segmentName(victim[0]));
        Files.write(p, new byte[0]);
        assertQuarantined(victim, p);
    }

    @Test
    void aSealedSegmentWithABadFooterIsQuarantined() throws Exception {
        write();
        long[] victim = sealedRanges().get(3);
        Path p = dir.resolve(JournalFormat.segmentName(victim[0]));
        byte[] b = Files.readAllBytes(p);
        b[b.length - 10] ^= 1; // in lastSeq
        Files.write(p, b);
        assertQuarantined(victim, p);
    }

    @Test
    void aSealedSegmentCutShortIsQuarantined() throws Exception {
        write();
        long[] victim = sealedRanges().get(1);
        Path p = dir.resolve(JournalFormat.segmentName(victim[0]));
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 7);
        }
        assertQuarantined(victim, p);
    }

    @Test
    void anUnreadableSegmentIsQuarantined() throws Exception {
        write();
        long[] victim = sealedRanges().get(2);
        Path p = dir.resolve(JournalFormat.segmentName(victim[0]));
        TestFiles files = new TestFiles();
        files.failOpen = p::equals;
        try (Journal j = Journal.open(dir, "out", small(), Clock.SYSTEM, files)) {
            assertThat(j.quarantinedSegments()).isEqualTo(1);
            Collector c = drain(j.reader());
            assertThat(c.seqs).hasSize((int) (291 - (victim[1] - victim[0] + 1)));
            assertThat(c.seqs).doesNotContain(victim[0], victim[1]).contains(victim[0] - 1, victim[1] + 1);
        }
        assertThat(Files.exists(p)).isFalse();
        assertThat(Files.exists(dir.resolve(p.getFileName() + ".corrupt"))).isTrue();
    }

    /** Opens: the victim is renamed, counted, its records are missing and counted, all others handed out. */
    private void assertQuarantined(long[] victim, Path p) throws Exception {
        long lost = victim[1] - victim[0] + 1;
        try (Journal j = reopen()) {
            assertThat(j.quarantinedSegments()).isEqualTo(1);
            assertThat(Files.exists(p)).isFalse();
            assertThat(names(dir, ".corrupt")).containsExactly(p.getFileName() + ".corrupt");
            Collector c = drain(j.reader());
            List<Long> expected = new ArrayList<>();
            for (long s = 9; s < 300; s++) {
                if (s < victim[0] || s > victim[1]) {
                    expected.add(s);
                }
            }
            assertThat(c.seqs).isEqualTo(expected);
            assertThat(j.missingRecords()).isEqualTo(lost);
            assertThat(j.corruptFrames()).isZero();
            commit(j.writer(), 300, 310);
            drain(j.reader()).assertExactly(300, 310);
        }
        try (Journal j = reopen()) {
            assertThat(j.quarantinedSegments()).isZero(); // counted once: the .corrupt file is left alone
            assertThat(names(dir, ".corrupt")).hasSize(1);
        }
    }

    @Test
    void aBadFrameInsideASealedSegmentIsSkippedWhenRead() throws Exception {
        write();
        Path p = segmentFiles(dir).get(1);
        long first = JournalFormat.parseSegmentName(p.getFileName().toString());
        byte[] b = Files.readAllBytes(p);
        List<Long> bounds = JournalTesting.frameBoundaries(b);
        long lastSeq = JournalFormat.getLong(b, b.length - 12);
        // damage the second frame's records: its CRC no longer matches
        int second = (int) (long) bounds.get(1);
        long secondFirst = JournalFormat.getLong(b, second + 8);
        b[second + 30] ^= 0x20;
        Files.write(p, b);
        try (Journal j = reopen()) {
            assertThat(j.corruptFrames()).isZero(); // sealed segments are not read at open
            Collector c = drain(j.reader());
            assertThat(j.corruptFrames()).isEqualTo(1);
            assertThat(j.missingRecords()).isEqualTo(lastSeq + 1 - secondFirst);
            List<Long> expected = new ArrayList<>();
            for (long s = 9; s < 300; s++) {
                if (s < secondFirst || s > lastSeq) {
                    expected.add(s);
                }
            }
            assertThat(c.seqs).isEqualTo(expected);
            assertThat(secondFirst).isGreaterThan(first);
            // read again after a rewind: counted once
            j.reader().rewind();
            drain(j.reader());
            assertThat(j.corruptFrames()).isEqualTo(1);
            assertThat(j.missingRecords()).isEqualTo(lastSeq + 1 - secondFirst);
        }
    }

    @Test
    void anEmptyNewestSegmentAfterASealedOneIsTakenAsTheActiveOne() throws Exception {
        // what a crash between creating the next segment and writing to it leaves
        long next;
        try (Journal j = reopen()) {
            commit(j.writer(), 0, 50);
            next = 50;
        }
        Path tail = segmentFiles(dir).get(segmentFiles(dir).size() - 1);
        long tailFirst = JournalFormat.parseSegmentName(tail.getFileName().toString());
        try (FileChannel ch = FileChannel.open(tail, StandardOpenOption.WRITE)) {
            JournalWriter.writeFooter(ch, ch.size(), tailFirst, next - 1, new CRC32C());
        }
        Files.createFile(dir.resolve(JournalFormat.segmentName(next)));
        try (Journal j = reopen()) {
            assertThat(j.quarantinedSegments()).isZero();
            assertThat(j.recoveredBytes()).isZero();
            assertThat(j.writer().nextSequence()).isEqualTo(50);
            commit(j.writer(), 50, 60);
            drain(j.reader()).assertExactly(0, 60);
            assertThat(names(dir, ".seg")).contains(JournalFormat.segmentName(50));
        }
    }

    @Test
    void aSealedNewestSegmentGetsANewActiveOne() throws Exception {
        try (Journal j = reopen()) {
            commit(j.writer(), 0, 50);
        }
        Path tail = segmentFiles(dir).get(segmentFiles(dir).size() - 1);
        long tailFirst = JournalFormat.parseSegmentName(tail.getFileName().toString());
        try (FileChannel ch = FileChannel.open(tail, StandardOpenOption.WRITE)) {
            JournalWriter.writeFooter(ch, ch.size(), tailFirst, 49, new CRC32C());
        }
        try (Journal j = reopen()) {
            assertThat(j.recoveredBytes()).isZero();
            commit(j.writer(), 50, 60);
            drain(j.reader()).assertExactly(0, 60);
            assertThat(names(dir, ".seg")).endsWith(JournalFormat.segmentName(50));
        }
    }

    @Test
    void aSegmentOverlappingTheOneBeforeAndForeignFilesAreHandled() throws Exception {
        write();
        List<long[]> sealed = sealedRanges();
        // a stray copy named inside the second segment's range
        Path stray = dir.resolve(JournalFormat.segmentName(sealed.get(1)[0] + 1));
        Files.copy(dir.resolve(JournalFormat.segmentName(sealed.get(1)[0])), stray);
        Files.writeString(dir.resolve("notes.txt"), "x");
        Files.writeString(dir.resolve("12.seg"), "x");
        try (Journal j = reopen()) {
            assertThat(j.quarantinedSegments()).isEqualTo(1);
            assertThat(names(dir, ".corrupt")).containsExactly(stray.getFileName() + ".corrupt");
            drain(j.reader()).assertExactly(9, 300);
        }
        assertThat(Files.exists(dir.resolve("12.seg"))).isTrue();
    }
}
