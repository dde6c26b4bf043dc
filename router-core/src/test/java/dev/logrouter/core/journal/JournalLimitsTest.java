package dev.logrouter.core.journal;

import static dev.logrouter.core.journal.JournalTesting.commit;
import static dev.logrouter.core.journal.JournalTesting.drain;
import static dev.logrouter.core.journal.JournalTesting.record;
import static dev.logrouter.core.journal.JournalTesting.segmentFiles;
import static dev.logrouter.core.journal.JournalTesting.small;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.logrouter.core.util.Clock;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The limits ({@code max-size}, the free-disk reserve) refuse appends with {@link JournalFullException} and let
 * them in again once space is freed; a failed write or force fails the journal for good, without crashing
 * anything, and the reader goes on.
 */
class JournalLimitsTest {

    private static final long MAX = 16384;

    @TempDir
    Path dir;

    /** The bytes an append of {@code rec} would bring the pending frame to. */
    private static long frameWith(JournalWriter w, byte[] rec) {
        return (w.pendingRecords() == 0 ? 20 : w.pendingBytes()) + 4L + rec.length;
    }

    @Test
    void maxSizeRefusesAppendsUntilAcknowledgementsDeleteSegments() throws Exception {
        try (Journal j = Journal.open(dir, "out", small().withMaxSize(MAX))) {
            JournalWriter w = j.writer();
            long seq = 0;
            JournalFullException full = null;
            while (full == null) {
                byte[] rec = record(seq);
                long frame = frameWith(w, rec);
                try {
                    w.append(rec);
                    assertThat(j.sizeOnDisk() + frame + 20).isLessThanOrEqualTo(MAX);
                    seq++;
                    if (w.pendingRecords() == 5) {
                        w.commit();
                    }
                } catch (JournalFullException e) {
                    assertThat(j.sizeOnDisk() + frame + 20).isGreaterThan(MAX);
                    full = e;
                }
            }
            assertThat(full.limit()).isEqualTo(JournalFullException.Limit.MAX_SIZE);
            assertThat(full.getStackTrace()).isEmpty();
            long pending = w.pendingRecords();
            assertThat(w.commit()).isEqualTo(seq - 1); // what was accepted is committed
            assertThat(j.sizeOnDisk()).isLessThanOrEqualTo(MAX);
            long refused = seq;
            assertThatThrownBy(() -> w.append(record(refused))).isInstanceOf(JournalFullException.class);
            assertThat(pending).isLessThan(5);

            drain(j.reader()).assertExactly(0, seq);
            j.reader().acknowledge(seq - 1);
            assertThat(segmentFiles(dir)).hasSize(1);
            commit(w, seq, seq + 20);
            drain(j.reader()).assertExactly(seq, seq + 20);
        }
    }

    /**
     * drop-oldest: the reader, in the middle of a batch it polled, drops the oldest segment: its records are
     * acknowledged without delivery (counted), the segment file is deleted, and reading resumes with the first
     * record of the next segment; with only the active segment left nothing is dropped (nothing would be freed).
     */
    @Test
    void dropOldestAcknowledgesTheOldestSegmentAndReadsOnAfterIt() throws Exception {
        try (Journal j = Journal.open(dir, "out", small())) {
            JournalWriter w = j.writer();
            for (long s = 0; s < 300; s += 10) {
                commit(w, s, s + 10);
            }
            int before = segmentFiles(dir).size();
            assertThat(before).isGreaterThan(2);
            Segment oldest = j.head;
            long oldestLast = oldest.lastSeq;
            JournalReader r = j.reader();
            JournalTesting.Collector some = new JournalTesting.Collector();
            r.poll(3, Long.MAX_VALUE, some); // a batch in flight
            r.acknowledge(0);

            assertThat(r.dropOldest()).isEqualTo(oldestLast); // 1..oldestLast: the rest of the oldest segment
            assertThat(Files.exists(oldest.path)).isFalse();
            assertThat(segmentFiles(dir)).hasSize(before - 1);
            assertThat(j.acknowledgedSeq()).isEqualTo(oldestLast);
            drain(r).assertExactly(oldestLast + 1, 300);

            // with only the active segment left a drop frees nothing, so it drops nothing
            while (segmentFiles(dir).size() > 1) {
                r.dropOldest();
            }
            commit(w, 300, 305);
            long acked = j.acknowledgedSeq();
            assertThat(r.dropOldest()).isZero();
            assertThat(j.acknowledgedSeq()).isEqualTo(acked);
            commit(w, 305, 310);
            drain(r).assertExactly(acked + 1, 310);
        }
    }

    @Test
    void theFreeDiskReserveIsCheckedAtOpenAndWhenASegmentWouldBeAdded() throws Exception {
        TestFiles files = new TestFiles();
        files.usableSpace = 100L << 20;
        JournalConfig cfg = small().withFreeDiskReserve(1L << 30);
        try (Journal j = Journal.open(dir, "out", cfg, Clock.SYSTEM, files)) {
            JournalWriter w = j.writer();
            assertThat(w.belowDiskReserve()).isTrue();
            JournalFullException e = (JournalFullException) catchThrowable(() -> w.append(record(0)));
            assertThat(e.limit()).isEqualTo(JournalFullException.Limit.DISK_RESERVE);
            assertThat(w.pendingRecords()).isZero();

            files.usableSpace = 2L << 30; // space freed
            commit(w, 0, 5);
            assertThat(w.belowDiskReserve()).isFalse();

            files.usableSpace = 100L << 20; // not checked again until a segment would be added
            long seq = 5;
            long segments = j.segments();
            JournalFullException full = null;
            while (full == null) {
                byte[] rec = record(seq);
                long activeBytes = Files.size(segmentFiles(dir).get(segmentFiles(dir).size() - 1));
                boolean rolls = activeBytes + frameWith(w, rec) + 20 > 4096;
                try {
                    w.append(rec);
                    assertThat(rolls).as("append of " + seq + " passed the reserve check").isFalse();
                    seq++;
                    if (w.pendingRecords() == 3) {
                        w.commit();
                    }
                } catch (JournalFullException ex) {
                    assertThat(rolls).isTrue();
                    full = ex;
                }
            }
            assertThat(full.limit()).isEqualTo(JournalFullException.Limit.DISK_RESERVE);
            assertThat(w.belowDiskReserve()).isTrue();
            w.commit(); // what is pending fits: no roll
            assertThat(j.segments()).isEqualTo(segments);

            files.usableSpace = 2L << 30;
            commit(w, seq, seq + 10);
            assertThat(j.segments()).isEqualTo(segments + 1);
            drain(j.reader()).assertExactly(0, seq + 10);
        }
    }

    @Test
    void aFailedForceFailsTheJournalForGood() throws Exception {
        TestFiles files = new TestFiles();
        JournalConfig cfg = small().withSync(JournalSync.batch);
        try (Journal j = Journal.open(dir, "out", cfg, Clock.SYSTEM, files)) {
            JournalWriter w = j.writer();
            commit(w, 0, 10);
            files.failForce = p -> p.getFileName().toString().endsWith(".seg");
            w.append(record(10));
            Throwable thrown = catchThrowable(w::commit);
            assertThat(thrown).isInstanceOf(JournalFailedException.class);
            JournalFailedException e = (JournalFailedException) thrown;
            assertThat(e.getCause()).hasMessageContaining("injected: fsync failed");
            assertThat(j.failed()).isTrue();
            assertThat(j.failure()).isSameAs(e.getCause());
            assertThat(j.committedSeq()).isEqualTo(10); // written: the reader may have it
            assertThat(j.durableSeq()).isEqualTo(9);
            files.failForce = p -> false; // even when the disk comes back, the journal does not retry
            assertThatThrownBy(() -> w.append(record(11))).isInstanceOf(JournalFailedException.class)
                    .hasCause(j.failure());
            assertThatThrownBy(w::commit).isInstanceOf(JournalFailedException.class);
            assertThatThrownBy(w::sync).isInstanceOf(JournalFailedException.class);
            // the reader goes on: it can deliver and acknowledge what was committed
            drain(j.reader()).assertExactly(0, 11);
            j.reader().acknowledge(5);
        }
        // a new open reads what is really in the file
        try (Journal j = Journal.open(dir, "out", cfg, Clock.SYSTEM, files)) {
            assertThat(j.failed()).isFalse();
            assertThat(j.acknowledgedSeq()).isEqualTo(5);
            drain(j.reader()).assertExactly(6, 11);
        }
    }

    @Test
    void aFailedWriteFailsTheJournalAndTheOpenAfterFindsNoDamage() throws Exception {
        TestFiles files = new TestFiles();
        try (Journal j = Journal.open(dir, "out", small(), Clock.SYSTEM, files)) {
            commit(j.writer(), 0, 10);
            files.failWrite = p -> p.getFileName().toString().endsWith(".seg");
            j.writer().append(record(10));
            assertThatThrownBy(j.writer()::commit).isInstanceOf(JournalFailedException.class)
                    .hasRootCauseMessage("injected: write failed (No space left on device)");
            assertThat(j.committedSeq()).isEqualTo(9);
            files.failWrite = p -> false;
        }
        try (Journal j = Journal.open(dir, "out", small(), Clock.SYSTEM, files)) {
            assertThat(j.recoveredBytes()).isZero();
            assertThat(j.writer().nextSequence()).isEqualTo(10);
            drain(j.reader()).assertExactly(0, 10);
        }
    }

    @Test
    void aFailedCursorForceOrDirectorySyncFailsTheJournal() throws Exception {
        TestFiles files = new TestFiles();
        JournalConfig cfg = small().withSync(JournalSync.batch);
        try (Journal j = Journal.open(dir.resolve("cursor"), "out", cfg, Clock.SYSTEM, files)) {
            commit(j.writer(), 0, 10);
            drain(j.reader());
            files.failForce = p -> p.getFileName().toString().equals("out.cursor");
            assertThatThrownBy(() -> j.reader().acknowledge(3)).isInstanceOf(JournalFailedException.class);
            assertThat(j.failed()).isTrue();
            assertThatThrownBy(() -> j.reader().acknowledge(4)).isInstanceOf(JournalFailedException.class);
            assertThatThrownBy(() -> j.writer().append(record(10))).isInstanceOf(JournalFailedException.class);
        }
        files.failForce = p -> false;
        Path d = dir.resolve("dir");
        try (Journal j = Journal.open(d, "out", cfg, Clock.SYSTEM, files)) {
            files.failForce = d::equals;
            long seq = 0;
            // commits until one rolls to a new segment, whose directory sync fails
            JournalFailedException failed = null;
            while (failed == null) {
                try {
                    commit(j.writer(), seq, seq + 10);
                    seq += 10;
                } catch (JournalFailedException e) {
                    failed = e;
                }
            }
            assertThat(failed.getCause()).hasMessageContaining("directory fsync");
            assertThat(j.failed()).isTrue();
            assertThat(j.committedSeq()).isEqualTo(seq - 1);
        }
    }
}
