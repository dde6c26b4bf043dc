package dev.logrouter.core.journal;

import static dev.logrouter.core.journal.JournalTesting.Collector;
import static dev.logrouter.core.journal.JournalTesting.commit;
import static dev.logrouter.core.journal.JournalTesting.drain;
import static dev.logrouter.core.journal.JournalTesting.names;
import static dev.logrouter.core.journal.JournalTesting.record;
import static dev.logrouter.core.journal.JournalTesting.segmentFiles;
import static dev.logrouter.core.journal.JournalTesting.small;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.logrouter.core.util.Clock;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Append, commit, poll and acknowledge over real files: sequences, segments, the byte layout, the sync policies,
 * rewinds, the backlog, and a writer and a reader on two threads.
 */
class JournalRoundTripTest {

    @TempDir
    Path dir;

    @Test
    void roundTripOverSeveralSegmentsDeletesWhatIsAcknowledged() throws Exception {
        try (Journal j = Journal.open(dir, "out", small())) {
            JournalWriter w = j.writer();
            long seq = 0;
            for (int i = 0; seq < 1000; i++) {
                long to = Math.min(1000, seq + 1 + i % 7);
                commit(w, seq, to);
                seq = to;
            }
            assertThat(j.committedSeq()).isEqualTo(999);
            List<Path> files = segmentFiles(dir);
            assertThat(files).hasSizeGreaterThan(10);
            assertThat(j.segments()).isEqualTo(files.size());
            long onDisk = 0;
            for (Path p : files) {
                onDisk += Files.size(p);
                assertThat(Files.size(p)).isLessThanOrEqualTo(4096);
            }
            assertThat(j.sizeOnDisk()).isEqualTo(onDisk);
            // every segment is named by its first record's sequence
            Collector c = new Collector();
            JournalReader r = j.reader();
            while (r.poll(64, Long.MAX_VALUE, c) > 0) {
                // poll in small batches
            }
            c.assertExactly(0, 1000);
            for (Path p : files) {
                byte[] b = Files.readAllBytes(p);
                assertThat(p.getFileName().toString()).isEqualTo(JournalFormat.segmentName(JournalFormat.getLong(b, 8)));
            }
            assertThat(j.backlogRecords()).isEqualTo(1000);

            r.acknowledge(499);
            assertThat(j.acknowledgedSeq()).isEqualTo(499);
            assertThat(j.backlogRecords()).isEqualTo(500);
            List<Path> left = segmentFiles(dir);
            long firstLeft = JournalFormat.parseSegmentName(left.get(0).getFileName().toString());
            assertThat(firstLeft).isLessThanOrEqualTo(500);
            assertThat(left.size() > 1 ? JournalFormat.parseSegmentName(left.get(1).getFileName().toString())
                    : 1000).isGreaterThan(500);

            r.acknowledge(999);
            assertThat(segmentFiles(dir)).hasSize(1);
            assertThat(j.segments()).isEqualTo(1);
            assertThat(j.sizeOnDisk()).isEqualTo(Files.size(segmentFiles(dir).get(0)));
            assertThat(j.backlogRecords()).isZero();
            assertThat(j.backlogBytes()).isZero();
            assertThat(r.poll(10, Long.MAX_VALUE, c)).isZero();
        }
    }

    @Test
    void sequencesContinueAcrossReopenAndTheCursorResumes() throws Exception {
        try (Journal j = Journal.open(dir, "out", small())) {
            commit(j.writer(), 0, 100);
            drain(j.reader()).assertExactly(0, 100);
            j.reader().acknowledge(49);
        }
        try (Journal j = Journal.open(dir, "out", small())) {
            assertThat(j.writer().nextSequence()).isEqualTo(100);
            assertThat(j.committedSeq()).isEqualTo(99);
            assertThat(j.acknowledgedSeq()).isEqualTo(49);
            commit(j.writer(), 100, 150);
            drain(j.reader()).assertExactly(50, 150);
            j.reader().acknowledge(149);
        }
        try (Journal j = Journal.open(dir, "out", small())) {
            assertThat(j.writer().nextSequence()).isEqualTo(150);
            assertThat(drain(j.reader()).seqs).isEmpty();
            assertThat(j.backlogRecords()).isZero();
            assertThat(j.backlogBytes()).isZero();
            assertThat(segmentFiles(dir)).hasSize(1);
            assertThat(j.recoveredBytes()).isZero();
            assertThat(j.corruptFrames()).isZero();
            assertThat(j.quarantinedSegments()).isZero();
            assertThat(j.cursorResets()).isZero();
            assertThat(j.missingRecords()).isZero();
        }
    }

    @Test
    void pollHonoursMaxRecordsAndMaxBytesButAlwaysHandsOutOneRecord() throws Exception {
        try (Journal j = Journal.open(dir, "out", small())) {
            commit(j.writer(), 0, 10);
            JournalReader r = j.reader();
            Collector c = new Collector();
            assertThat(r.poll(3, Long.MAX_VALUE, c)).isEqualTo(3);
            assertThat(c.seqs).containsExactly(0L, 1L, 2L);
            // records 3 to 6 are 117, 154, 191 and 28 bytes long
            assertThat(record(3)).hasSize(117);
            assertThat(record(4)).hasSize(154);
            assertThat(record(5)).hasSize(191);
            assertThat(record(6)).hasSize(28);
            assertThat(r.poll(10, 200, c)).isEqualTo(1);
            assertThat(r.poll(10, 1, c)).isEqualTo(1);
            assertThat(r.poll(10, 191 + 28, c)).isEqualTo(2);
            assertThat(r.nextSequence()).isEqualTo(7);
            assertThat(r.available()).isEqualTo(3);
            assertThat(r.poll(100, Long.MAX_VALUE, c)).isEqualTo(3);
            c.assertExactly(0, 10);
            assertThatThrownBy(() -> r.poll(0, 1, c)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aFrameLargerThanTheSegmentSizeGetsASegmentOfItsOwn() throws Exception {
        try (Journal j = Journal.open(dir, "out", small())) {
            JournalWriter w = j.writer();
            w.append(new byte[10]);
            w.commit();
            for (int i = 0; i < 10; i++) {
                w.append(new byte[1000]);
            }
            w.commit();
            w.append(new byte[10]);
            w.commit();
            assertThat(names(dir, ".seg")).containsExactly(JournalFormat.segmentName(0),
                    JournalFormat.segmentName(1), JournalFormat.segmentName(11));
            assertThat(Files.size(dir.resolve(JournalFormat.segmentName(0)))).isEqualTo(20 + 14 + 20);
            assertThat(Files.size(dir.resolve(JournalFormat.segmentName(1)))).isEqualTo(20 + 10 * 1004 + 20);
            assertThat(Files.size(dir.resolve(JournalFormat.segmentName(11)))).isEqualTo(20 + 14);
            Collector c = new Collector();
            assertThat(j.reader().poll(100, Long.MAX_VALUE, c)).isEqualTo(12);
            assertThat(c.seqs).hasSize(12).startsWith(0L).endsWith(11L);
        }
    }

    @Test
    void theFilesAreLaidOutByteByByteAsDocumented() throws Exception {
        try (Journal j = Journal.open(dir, "out", small())) {
            JournalWriter w = j.writer();
            w.append("ab".getBytes(StandardCharsets.US_ASCII));
            w.append("cde".getBytes(StandardCharsets.US_ASCII));
            assertThat(w.commit()).isEqualTo(1);
            byte[] f = Files.readAllBytes(dir.resolve("00000000000000000000.seg"));
            byte[] expected = {
                0, 0, 0, 25, // len: firstSeq + count + (4 + 2) + (4 + 3)
                0, 0, 0, 0, // crc, below
                0, 0, 0, 0, 0, 0, 0, 0, // firstSeq 0
                0, 0, 0, 2, // count
                0, 0, 0, 2, 'a', 'b',
                0, 0, 0, 3, 'c', 'd', 'e'};
            CRC32C crc = new CRC32C();
            crc.update(expected, 8, 25);
            JournalFormat.putInt(expected, 4, (int) crc.getValue());
            assertThat(f).isEqualTo(expected);

            // a frame that does not fit seals the segment with its footer
            w.append(new byte[4096 - 33 - 20 - 24 + 1]);
            w.commit();
            byte[] sealed = Files.readAllBytes(dir.resolve("00000000000000000000.seg"));
            assertThat(sealed).hasSize(33 + 20);
            byte[] footer = {'L', 'R', 'J', 'F', 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0};
            crc.reset();
            crc.update(footer, 0, 16);
            JournalFormat.putInt(footer, 16, (int) crc.getValue());
            assertThat(java.util.Arrays.copyOfRange(sealed, 33, 53)).isEqualTo(footer);
            assertThat(names(dir, ".seg")).containsExactly("00000000000000000000.seg", "00000000000000000002.seg");

            // the cursor: the open wrote generation 0 (nothing acknowledged) in slot 0, the acknowledgement
            // generation 1 in slot 1, at 4096
            j.reader().poll(10, Long.MAX_VALUE, (b, o, l, s) -> { });
            j.reader().acknowledge(1);
            byte[] cur = Files.readAllBytes(dir.resolve("out.cursor"));
            assertThat(cur).hasSize(4096 + 20);
            assertThat(JournalFormat.getLong(cur, 0)).isZero();
            assertThat(JournalFormat.getLong(cur, 8)).isEqualTo(-1);
            assertThat(JournalFormat.getLong(cur, 4096)).isEqualTo(1);
            assertThat(JournalFormat.getLong(cur, 4096 + 8)).isEqualTo(1);
            crc.reset();
            crc.update(cur, 4096, 16);
            assertThat(JournalFormat.getInt(cur, 4096 + 16)).isEqualTo((int) crc.getValue());
            assertThat(names(dir, ".seg")).containsExactly("00000000000000000002.seg");
        }
    }

    @Test
    void rewindHandsOutTheUnacknowledgedAgain() throws Exception {
        try (Journal j = Journal.open(dir, "out", small())) {
            for (long s = 0; s < 300; s += 10) {
                commit(j.writer(), s, s + 10);
            }
            JournalReader r = j.reader();
            Collector first = new Collector();
            r.poll(250, Long.MAX_VALUE, first);
            first.assertExactly(0, 250);
            r.acknowledge(104);
            r.rewind();
            Collector again = new Collector();
            r.poll(20, Long.MAX_VALUE, again);
            again.assertExactly(105, 125);
            // the destination had taken up to 200 before the reconnect: acknowledging it moves past it
            r.acknowledge(200);
            Collector rest = drain(r);
            rest.assertExactly(201, 300);
            r.acknowledge(299);
            r.rewind();
            assertThat(drain(r).seqs).isEmpty();
        }
    }

    @Test
    void acknowledgingWhatWasNotHandedOutIsRefused() throws Exception {
        try (Journal j = Journal.open(dir, "out", small())) {
            commit(j.writer(), 0, 10);
            JournalReader r = j.reader();
            r.poll(5, Long.MAX_VALUE, (b, o, l, s) -> { });
            assertThatThrownBy(() -> r.acknowledge(5)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("last: 4");
            r.acknowledge(4);
            r.acknowledge(2); // below the cursor: ignored
            assertThat(r.acknowledgedSeq()).isEqualTo(4);
        }
    }

    @Test
    void backlogCountsRecordsAndFrameBytes() throws Exception {
        try (Journal j = Journal.open(dir, "out", small().withSegmentSize(1 << 20))) {
            commit(j.writer(), 0, 3); // frame of 20 + 3 records
            long frame1 = 20 + 3 * 4 + record(0).length + record(1).length + record(2).length;
            commit(j.writer(), 3, 5);
            long frame2 = 20 + 2 * 4 + record(3).length + record(4).length;
            assertThat(j.backlogRecords()).isEqualTo(5);
            assertThat(j.backlogBytes()).isEqualTo(frame1 + frame2);
            JournalReader r = j.reader();
            r.poll(4, Long.MAX_VALUE, (b, o, l, s) -> { });
            r.acknowledge(1); // frame 1 partly acknowledged: it still counts
            assertThat(j.backlogRecords()).isEqualTo(3);
            assertThat(j.backlogBytes()).isEqualTo(frame1 + frame2);
            r.acknowledge(2);
            assertThat(j.backlogBytes()).isEqualTo(frame2);
            r.poll(4, Long.MAX_VALUE, (b, o, l, s) -> { });
            r.acknowledge(4);
            assertThat(j.backlogRecords()).isZero();
            assertThat(j.backlogBytes()).isZero();
        }
    }

    @Test
    void syncPolicies() throws Exception {
        Path none = dir.resolve("none");
        try (Journal j = Journal.open(none, "out", small())) {
            commit(j.writer(), 0, 5);
            assertThat(j.syncs()).isZero();
            assertThat(j.durableSeq()).isEqualTo(-1);
            assertThat(j.committedSeq()).isEqualTo(4);
            assertThat(j.writer().syncIfDue(Long.MAX_VALUE)).isFalse();
        }
        Path batch = dir.resolve("batch");
        try (Journal j = Journal.open(batch, "out", small().withSync(JournalSync.batch))) {
            assertThat(j.syncs()).isEqualTo(1); // the open forces the active segment
            assertThat(j.cursorSyncs()).isEqualTo(1); // and the new cursor
            commit(j.writer(), 0, 5);
            commit(j.writer(), 5, 6);
            assertThat(j.syncs()).isEqualTo(3);
            assertThat(j.durableSeq()).isEqualTo(5);
            j.reader().poll(10, Long.MAX_VALUE, (b, o, l, s) -> { });
            j.reader().acknowledge(3);
            assertThat(j.cursorSyncs()).isEqualTo(2);
        }
        Path interval = dir.resolve("interval");
        AtomicLong now = new AtomicLong(1_000_000_000_000L);
        Clock clock = now::get;
        JournalConfig cfg = small().withSync(JournalSync.interval).withSyncInterval(1_000_000_000L);
        try (Journal j = Journal.open(interval, "out", cfg, clock, JournalFiles.DEFAULT)) {
            long t0 = now.get();
            assertThat(j.syncs()).isEqualTo(1);
            commit(j.writer(), 0, 5); // within the interval of the open's force
            assertThat(j.syncs()).isEqualTo(1);
            assertThat(j.durableSeq()).isEqualTo(-1);
            assertThat(j.writer().syncIfDue(t0 + 999_999_999L)).isFalse();
            now.set(t0 + 1_000_000_000L);
            assertThat(j.writer().syncIfDue(now.get())).isTrue();
            assertThat(j.syncs()).isEqualTo(2);
            assertThat(j.durableSeq()).isEqualTo(4);
            assertThat(j.writer().syncIfDue(t0 + 5_000_000_000L)).isFalse(); // nothing new
            now.set(t0 + 1_500_000_000L);
            commit(j.writer(), 5, 6);
            assertThat(j.syncs()).isEqualTo(2);
            now.set(t0 + 2_000_000_000L);
            commit(j.writer(), 6, 7);
            assertThat(j.syncs()).isEqualTo(3);
            assertThat(j.durableSeq()).isEqualTo(6);
            // the cursor: forced at most once per interval
            j.reader().poll(10, Long.MAX_VALUE, (b, o, l, s) -> { });
            long cursorSyncs = j.cursorSyncs();
            j.reader().acknowledge(1); // the open's cursor force was at t0: due
            assertThat(j.cursorSyncs()).isEqualTo(cursorSyncs + 1);
            j.reader().acknowledge(2);
            assertThat(j.cursorSyncs()).isEqualTo(cursorSyncs + 1);
            now.set(t0 + 3_000_000_001L);
            j.reader().acknowledge(3);
            assertThat(j.cursorSyncs()).isEqualTo(cursorSyncs + 2);
            j.reader().acknowledge(4);
            assertThat(j.cursorSyncs()).isEqualTo(cursorSyncs + 2);
            commit(j.writer(), 7, 8);
        }
        // a clean close forced the rest
        try (Journal j = Journal.open(interval, "out", cfg, clock, JournalFiles.DEFAULT)) {
            assertThat(j.acknowledgedSeq()).isEqualTo(4);
            drain(j.reader()).assertExactly(5, 8);
        }
    }

    @Test
    void aWriterAndAReaderOnTwoThreads() throws Exception {
        int total = 100_000;
        try (Journal j = Journal.open(dir, "out", small().withSegmentSize(64 * 1024))) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try {
                    for (long s = 0; s < total; s += 100) {
                        commit(j.writer(), s, s + 100);
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "journal-writer-0");
            long[] next = {0};
            long[] mismatches = {0};
            Thread reader = new Thread(() -> {
                try {
                    JournalReader r = j.reader();
                    RecordConsumer check = (b, o, l, s) -> {
                        if (s != next[0] || !java.util.Arrays.equals(b, o, o + l, record(s), 0, record(s).length)) {
                            mismatches[0]++;
                        }
                        next[0] = s + 1;
                    };
                    long deadline = System.nanoTime() + 30_000_000_000L;
                    while (next[0] < total && System.nanoTime() < deadline) {
                        if (r.poll(500, Long.MAX_VALUE, check) > 0) {
                            r.acknowledge(next[0] - 1);
                        } else {
                            Thread.onSpinWait();
                        }
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "journal-reader-0");
            writer.start();
            reader.start();
            writer.join(30_000);
            reader.join(30_000);
            assertThat(writer.isAlive()).isFalse();
            assertThat(reader.isAlive()).isFalse();
            assertThat(failure.get()).isNull();
            assertThat(next[0]).isEqualTo(total);
            assertThat(mismatches[0]).isZero();
            assertThat(j.acknowledgedSeq()).isEqualTo(total - 1);
            assertThat(j.backlogRecords()).isZero();
            assertThat(j.backlogBytes()).isZero();
            assertThat(segmentFiles(dir)).hasSize(1);
            assertThat(j.segments()).isEqualTo(1);
        }
    }

    @Test
    void aSecondOpenOfTheSameDirectoryIsRefused() throws Exception {
        try (Journal j = Journal.open(dir, "out", small())) {
            assertThat(j.directory()).isEqualTo(dir);
            assertThatThrownBy(() -> Journal.open(dir, "out", small())).isInstanceOf(java.io.IOException.class)
                    .hasMessageContaining("already open");
        }
        try (Journal j = Journal.open(dir, "out", small())) {
            assertThat(j.failed()).isFalse();
        }
        assertThatThrownBy(() -> Journal.open(dir, "../x", small())).isInstanceOf(IllegalArgumentException.class);
    }
}
