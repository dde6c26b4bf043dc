package dev.logrouter.core.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Records, collectors and file helpers shared by the journal tests. A record's content is a function of its
 * sequence ({@link #record}), so that what a reader hands out can be checked exactly.
 */
final class JournalTesting {

    private JournalTesting() {
    }

    /** Small segments, no reserve, no fsync: the tests that need more say so. */
    static JournalConfig small() {
        return JournalConfig.defaults().withSegmentSize(4096).withMaxSize(1L << 30).withFreeDiskReserve(0)
                .withSync(JournalSync.none);
    }

    /** {@code seq=<seq>;} then 0 to 199 letters, depending on the sequence. */
    static byte[] record(long seq) {
        int filler = (int) (seq * 37 % 200);
        StringBuilder sb = new StringBuilder("seq=").append(seq).append(';');
        for (int i = 0; i < filler; i++) {
            sb.append((char) ('a' + (seq + i) % 26));
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Appends the records of sequences {@code [from, to)} and commits them as one frame. */
    static void commit(JournalWriter w, long from, long to) throws Exception {
        for (long s = from; s < to; s++) {
            assertThat(w.append(record(s))).isEqualTo(s);
        }
        w.commit();
    }

    /** Collects what a reader hands out (copies). */
    static final class Collector implements RecordConsumer {
        final List<Long> seqs = new ArrayList<>();
        final List<String> records = new ArrayList<>();

        @Override
        public void accept(byte[] buf, int off, int len, long seq) {
            seqs.add(seq);
            records.add(new String(buf, off, len, StandardCharsets.UTF_8));
        }

        /** Asserts that exactly the records of {@code [from, to)} were collected, in order, intact. */
        void assertExactly(long from, long to) {
            List<Long> expectedSeqs = new ArrayList<>();
            List<String> expected = new ArrayList<>();
            for (long s = from; s < to; s++) {
                expectedSeqs.add(s);
                expected.add(new String(record(s), StandardCharsets.UTF_8));
            }
            assertThat(seqs).as("sequences").isEqualTo(expectedSeqs);
            assertThat(records).as("records").isEqualTo(expected);
        }
    }

    /** Polls until nothing committed is left. */
    static Collector drain(JournalReader r) throws IOException {
        Collector c = new Collector();
        while (r.poll(100, Long.MAX_VALUE, c) > 0) {
            // keep polling
        }
        return c;
    }

    /** The segment files in {@code dir}, oldest first. */
    static List<Path> segmentFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".seg")).sorted().toList();
        }
    }

    /** The files in {@code dir} whose name ends with {@code suffix}, sorted. */
    static List<String> names(Path dir, String suffix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(suffix)).sorted().toList();
        }
    }

    /** Copies every regular file of {@code from} into a new {@code to}. */
    static void copyDir(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path p : s.toList()) {
                Files.copy(p, to.resolve(p.getFileName()));
            }
        }
    }

    /**
     * Frame boundaries of a segment file, read with the documented format alone (not the journal's code):
     * {@code [start of frame 0, start of frame 1, ..., end of the last frame]}, stopping at a footer.
     */
    static List<Long> frameBoundaries(byte[] seg) {
        List<Long> b = new ArrayList<>();
        long pos = 0;
        b.add(0L);
        while (pos + 20 <= seg.length) {
            long len = Integer.toUnsignedLong(JournalFormat.getInt(seg, (int) pos));
            if (JournalFormat.getInt(seg, (int) pos) == JournalFormat.FOOTER_MAGIC && pos + 20 == seg.length) {
                break;
            }
            pos += 8 + len;
            b.add(pos);
        }
        return b;
    }
}
