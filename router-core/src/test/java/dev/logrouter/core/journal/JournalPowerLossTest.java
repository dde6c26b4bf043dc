package dev.logrouter.core.journal;

import static dev.logrouter.core.journal.JournalTesting.Collector;
import static dev.logrouter.core.journal.JournalTesting.commit;
import static dev.logrouter.core.journal.JournalTesting.drain;
import static dev.logrouter.core.journal.JournalTesting.record;
import static dev.logrouter.core.journal.JournalTesting.small;
import static org.assertj.core.api.Assertions.assertThat;

import dev.logrouter.core.util.Clock;

import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Power losses, modelled by {@link TestFiles}: every file reverts to what it held at its last {@code force()},
 * and a file created after its directory's last force disappears. With {@code sync: batch} nothing whose commit
 * returned is lost and the cursor is where the last acknowledgement put it; with {@code none} the open still
 * starts, and hands out an intact prefix.
 */
class JournalPowerLossTest {

    @TempDir
    Path dir;

    @Test
    void withSyncBatchNothingWhoseCommitReturnedIsLost() throws Exception {
        TestFiles files = new TestFiles();
        Random rnd = new Random(1969);
        JournalConfig cfg = small().withSync(JournalSync.batch);
        long committed = -1; // the last sequence whose commit returned
        long acked = -1; // the last acknowledgement that returned
        for (int round = 0; round < 40; round++) {
            Journal j = Journal.open(dir, "out", cfg, Clock.SYSTEM, files);
            assertThat(j.committedSeq()).as("round " + round).isEqualTo(committed);
            assertThat(j.acknowledgedSeq()).as("round " + round).isEqualTo(acked);
            assertThat(j.recoveredBytes()).isZero();
            assertThat(j.corruptFrames()).isZero();
            assertThat(j.quarantinedSegments()).isZero();
            assertThat(j.missingRecords()).isZero();
            assertThat(j.cursorResets()).isZero();
            Collector c = drain(j.reader());
            c.assertExactly(acked + 1, committed + 1);
            long delivered = committed;
            int ops = 1 + rnd.nextInt(30);
            for (int op = 0; op < ops; op++) {
                switch (rnd.nextInt(4)) {
                    case 0, 1 -> {
                        int n = 1 + rnd.nextInt(25);
                        commit(j.writer(), committed + 1, committed + 1 + n);
                        committed += n;
                    }
                    case 2 -> {
                        Collector more = new Collector();
                        j.reader().poll(1 + rnd.nextInt(60), Long.MAX_VALUE, more);
                        more.assertExactly(delivered + 1, delivered + 1 + more.seqs.size());
                        delivered += more.seqs.size();
                    }
                    default -> {
                        if (delivered > acked) {
                            acked += 1 + rnd.nextLong(delivered - acked);
                            j.reader().acknowledge(acked);
                        }
                    }
                }
            }
            for (int i = rnd.nextInt(3); i > 0; i--) {
                j.writer().append(record(committed + i)); // appended, never committed: may be lost
            }
            files.powerLoss(null); // j is abandoned
        }
        assertThat(committed).isGreaterThan(500);
        assertThat(acked).isGreaterThan(200);
    }

    @Test
    void withSyncNoneRecoveryStartsAndHandsOutAPrefix() throws Exception {
        Random rnd = new Random(2003);
        for (int round = 0; round < 40; round++) {
            Path d = dir.resolve("round" + round);
            TestFiles files = new TestFiles();
            Journal j = Journal.open(d, "out", small(), Clock.SYSTEM, files);
            long committed = -1;
            long acked = -1;
            long writtenBack = -1; // committed when the kernel last wrote everything back
            long ackedWrittenBack = -1;
            boolean writeback = round % 4 != 0; // every fourth round loses everything
            int before = rnd.nextInt(15);
            int after = rnd.nextInt(15);
            for (int op = 0; op < before + after; op++) {
                int n = 1 + rnd.nextInt(25);
                commit(j.writer(), committed + 1, committed + 1 + n);
                committed += n;
                if (op < before && rnd.nextBoolean()) {
                    // acknowledgements only before the write-back: the model never brings back a deleted segment
                    drain(j.reader());
                    acked = committed - rnd.nextInt(n);
                    j.reader().acknowledge(acked);
                }
                if (op == before - 1 && writeback) {
                    files.writeback();
                    writtenBack = committed;
                    ackedWrittenBack = acked;
                }
            }
            files.powerLoss(rnd);

            try (Journal again = Journal.open(d, "out", small(), Clock.SYSTEM, files)) {
                String what = "round " + round;
                assertThat(again.acknowledgedSeq()).as(what).isEqualTo(ackedWrittenBack);
                long end = again.committedSeq();
                assertThat(end).as(what).isBetween(writtenBack, committed);
                drain(again.reader()).assertExactly(ackedWrittenBack + 1, end + 1);
                assertThat(again.missingRecords()).as(what).isZero();
                commit(again.writer(), end + 1, end + 4);
                drain(again.reader()).assertExactly(end + 1, end + 4);
            }
        }
    }
}
