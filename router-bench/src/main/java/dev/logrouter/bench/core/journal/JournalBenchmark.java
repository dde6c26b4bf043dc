package dev.logrouter.bench.core.journal;

import dev.logrouter.core.journal.Journal;
import dev.logrouter.core.journal.JournalConfig;
import dev.logrouter.core.journal.JournalReader;
import dev.logrouter.core.journal.JournalSync;
import dev.logrouter.core.journal.JournalWriter;
import dev.logrouter.core.journal.RecordConsumer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Throughput (records/s; × 400 B for MB/s) of a sink's journal with the default 64 MiB segments, in a fresh
 * directory under {@code java.io.tmpdir} per iteration (deleted after it).
 *
 * <p>{@code appendCommit}: 1000 records of 400 bytes appended and committed as one frame; {@code sync=none}
 * measures the copy, CRC32C and one {@code write} to the page cache, {@code sync=batch} adds one fsync per commit
 * (the disk's latency decides). {@code pollAcknowledge}: 1000 committed records polled (read, CRC checked, handed
 * to a consumer) and acknowledged (one cursor write, forced with {@code batch}; whole segments deleted as they are
 * passed); the records are refilled outside the measurement when fewer than 1000 are left (a per-invocation setup,
 * cheap next to an operation of 400 KB).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class JournalBenchmark {

    static final int RECORDS = 1000;
    static final int SIZE = 400;

    /** A journal of its own per iteration. */
    @State(Scope.Thread)
    public static class JournalState {
        @Param({"none", "batch"})
        public JournalSync sync;

        Path dir;
        Journal journal;
        JournalWriter writer;
        JournalReader reader;
        final byte[] record = record();
        final Sum sum = new Sum();

        @Setup(Level.Iteration)
        public void open() throws IOException {
            dir = Files.createTempDirectory("journal-bench");
            journal = Journal.open(dir, "bench", JournalConfig.defaults().withSync(sync));
            writer = journal.writer();
            reader = journal.reader();
        }

        @TearDown(Level.Iteration)
        public void close() throws IOException {
            journal.close();
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }

        void appendAndCommit() throws Exception {
            for (int i = 0; i < RECORDS; i++) {
                writer.append(record, 0, SIZE);
            }
            writer.commit();
        }
    }

    /** The reading side: refilled before an operation that would find fewer than 1000 records. */
    @State(Scope.Thread)
    public static class Backlog extends JournalState {
        @Setup(Level.Invocation)
        public void refill() throws Exception {
            if (reader.available() < RECORDS) {
                appendAndCommit();
            }
        }
    }

    /** Sums the lengths handed out (so that the reading is not optimised away); non-capturing. */
    static final class Sum implements RecordConsumer {
        long bytes;

        @Override
        public void accept(byte[] buf, int off, int len, long seq) {
            bytes += len + buf[off];
        }
    }

    static byte[] record() {
        byte[] line = ("<134>1 2026-11-26T10:00:00.000Z host app 4242 ID47 - user=alice action=login "
                + "outcome=success ").getBytes(StandardCharsets.US_ASCII);
        byte[] r = Arrays.copyOf(line, SIZE);
        for (int i = line.length; i < SIZE; i++) {
            r[i] = (byte) ('a' + i % 26);
        }
        return r;
    }

    /**
     * Nothing is acknowledged, so the journal grows by all the iteration appends: 1 s iterations keep it under its
     * default 10 GiB {@code max-size} (3 s at 9.6 M records/s filled it on 2026-11-27).
     */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    @Warmup(iterations = 2, time = 1)
    @Measurement(iterations = 3, time = 1)
    public long appendCommit(JournalState s) throws Exception {
        s.appendAndCommit();
        return s.journal.committedSeq();
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public long pollAcknowledge(Backlog s) throws Exception {
        int n = s.reader.poll(RECORDS, Long.MAX_VALUE, s.sum);
        s.reader.acknowledge(s.reader.nextSequence() - 1);
        return n + s.sum.bytes;
    }
}
