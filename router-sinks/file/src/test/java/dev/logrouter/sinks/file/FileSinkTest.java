package dev.logrouter.sinks.file;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.journal.Buffer;
import dev.logrouter.core.journal.JournalConfig;
import dev.logrouter.core.journal.Overflow;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.sink.SinkContext;
import dev.logrouter.core.testing.Conditions;
import dev.logrouter.core.testing.ManualClock;
import dev.logrouter.core.util.Clock;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real file sink ({@link FileSinkConfig#create}: {@link FileEncoder} and {@link FileDelivery}) driven directly, as
 * its sink thread would: events filled like a source fills a ring slot and parsed by the real
 * {@link SyslogHeaderParser}, time from a manual clock the test advances, files in a {@code @TempDir}. With
 * {@code buffer: journal} the journal and its delivery thread are real too.
 */
class FileSinkTest {

    /** syslog-ng's file() format, the declared default of {@code template}. */
    private static final String DEFAULT_LINE = "${DATE} ${HOST} ${MSGHDR}${MSG}\n";

    /** Every event is received 5 s after its stamp, so the year of a legacy stamp is 2026. */
    private static final long RECEIVED = Instant.parse("2026-03-01T10:00:05Z").toEpochMilli();
    private static final String PEER = "192.0.2.7";
    private static final byte[] PEER_BYTES = PEER.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SOURCE_NAME = "net-in".getBytes(StandardCharsets.US_ASCII);

    /** Clock origins: zero, an arbitrary negative reading and one about to wrap (System.nanoTime allows both). */
    private static final long NEGATIVE_ORIGIN = -3_600_000_000_000L;
    private static final long WRAPPING_ORIGIN = Long.MAX_VALUE - 500_000_000L;

    @TempDir
    Path tmp;

    /** Files may only appear under here. */
    private Path base;
    private ManualClock clock;
    private MetricGroup metrics;
    private final LogEvent slot = new LogEvent();
    private final SyslogHeaderParser parser = new SyslogHeaderParser(ZoneOffset.UTC);
    private final List<Sink> sinks = new ArrayList<>();

    @BeforeEach
    void setUp() {
        base = tmp.resolve("root").resolve("logs");
        clock = new ManualClock(0L);
        metrics = new MetricGroup("Sink", "t");
    }

    @AfterEach
    void closeSinks() throws Exception {
        for (Sink s : sinks) {
            s.close();
        }
    }

    // ------------------------------------------------------------------ paths and lines

    @Test
    void linesLandInTheTemplatedFileOnlyAfterFlush() throws Exception {
        Sink sink = sink(cfg());

        append(sink, bsd("host1", "prog[7]: hello"));
        append(sink, bsd("host1", "prog[7]: world"));
        Path file = base.resolve("host1").resolve("prog.log");
        assertThat(content(file)).isEmpty();

        sink.flush();

        assertThat(content(file)).isEqualTo("Mar  1 10:00:00 host1 prog[7]: hello\n"
                + "Mar  1 10:00:00 host1 prog[7]: world\n");
        assertThat(metrics.value("filesOpened")).isEqualTo(1);
        assertThat(metrics.value("openFiles")).isEqualTo(1);
    }

    @Test
    void theDefaultLineIsSyslogNgsFileFormat() throws Exception {
        assertThat(declaredDefault("template")).isEqualTo("\"${DATE} ${HOST} ${MSGHDR}${MSG}\\n\"");
        Sink sink = sink(cfg());

        append(sink, bsd("host1", "prog[7]: hello"));
        append(sink, bsd("host1", "prog: no pid"));
        append(sink, bsd("host1", "[9]: no program"));
        sink.flush();

        assertThat(lines(base.resolve("host1").resolve("prog.log")))
                .containsExactly("Mar  1 10:00:00 host1 prog[7]: hello", "Mar  1 10:00:00 host1 prog: no pid");
        // no PROGRAM: MSGHDR is empty, and the empty value becomes "_" in the path
        assertThat(lines(base.resolve("host1").resolve("_.log")))
                .containsExactly("Mar  1 10:00:00 host1 no program");
    }

    /**
     * A record is its path (2-byte length, then the path) and its line: append counts all of it (batch-bytes, the
     * {@code bytes} counter); the file gets the line's bytes exactly.
     */
    @Test
    void appendReturnsTheBytesOfTheRenderedLine() throws Exception {
        Sink sink = sink(cfg());

        long ascii = append(sink, bsd("host1", "prog[7]: hello"));
        long utf8 = append(sink, bsd("host1", "prog[7]: h\u00e9llo w\u00f6rld \u2603"));
        sink.flush();

        String first = "Mar  1 10:00:00 host1 prog[7]: hello\n";
        String second = "Mar  1 10:00:00 host1 prog[7]: h\u00e9llo w\u00f6rld \u2603\n";
        assertThat(ascii).as("the line's bytes, not the record's path").isEqualTo(first.getBytes(StandardCharsets.UTF_8).length).isEqualTo(37);
        assertThat(utf8).isEqualTo(second.getBytes(StandardCharsets.UTF_8).length)
                .isGreaterThan(second.length());
        assertThat(Files.size(base.resolve("host1").resolve("prog.log"))).isEqualTo(ascii + utf8);
    }

    @Test
    void directoriesAreCreatedOnDemand() throws Exception {
        assertThat(tmp.resolve("root")).doesNotExist();
        Sink sink = sink(cfg().path(base + "/${HOST}/${YEAR}/${MONTH}/${PROGRAM}.log"));

        append(sink, bsd("host1", "prog: hello"));
        sink.flush();

        Path file = base.resolve("host1").resolve("2026").resolve("03").resolve("prog.log");
        assertThat(file.getParent()).isDirectory();
        assertThat(lines(file)).containsExactly("Mar  1 10:00:00 host1 prog: hello");
    }

    @Test
    void appendsToAnExistingFileAndKeepsItsContent() throws Exception {
        Path file = base.resolve("host1").resolve("prog.log");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "old line\n");
        Sink sink = sink(cfg());

        append(sink, bsd("host1", "prog: new line"));
        sink.flush();
        sink.close();

        assertThat(lines(file)).containsExactly("old line", "Mar  1 10:00:00 host1 prog: new line");
    }

    @Test
    void closeFlushesPendingLines() throws Exception {
        Sink sink = sink(cfg());
        append(sink, bsd("host1", "prog: one"));
        append(sink, bsd("host2", "prog: two"));
        assertThat(content(base.resolve("host1").resolve("prog.log"))).isEmpty();

        sink.close();

        assertThat(lines(base.resolve("host1").resolve("prog.log"))).containsExactly("Mar  1 10:00:00 host1 prog: one");
        assertThat(lines(base.resolve("host2").resolve("prog.log"))).containsExactly("Mar  1 10:00:00 host2 prog: two");
        assertThat(metrics.value("openFiles")).isZero();
    }

    // ------------------------------------------------------------------ hostile values and templates

    @Test
    void aLegacyHostOfDotDotSlashesStaysOneComponentUnderTheBase() throws Exception {
        Sink sink = sink(cfg());

        append(sink, "<13>Mar  1 10:00:00 ../../etc prog: x", LogEvent.FORMAT_RFC3164);
        assertThat(slot.hasFlag(LogEvent.FLAG_PARSE_ERROR)).isFalse();
        sink.flush();

        assertThat(lines(base.resolve(".._.._etc").resolve("prog.log")))
                .containsExactly("Mar  1 10:00:00 ../../etc prog: x");
        // without escaping the file would have been <tmp>/etc/prog.log, still inside @TempDir
        assertThat(tmp.resolve("etc")).doesNotExist();
        assertAllFilesUnderBase();
        assertThat(metrics.value("rejectedPaths")).isZero();
    }

    @Test
    void anIetfHostOfDotDotAndAProgramWithSlashesAndControlBytesAreNeutralised() throws Exception {
        Sink sink = sink(cfg());

        append(sink, "<13>1 2026-03-01T10:00:00Z .. a/../b\u0001c\u007f 7 - - hi", LogEvent.FORMAT_RFC5424);
        assertThat(slot.hasFlag(LogEvent.FLAG_PARSE_ERROR)).isFalse();
        sink.flush();

        Path file = base.resolve("__").resolve("a_.._b_c_.log");
        // the line itself is not a path: it keeps the values as received
        assertThat(content(file)).isEqualTo("Mar  1 10:00:00 .. a/../b\u0001c\u007f[7]: hi\n");
        try (Stream<Path> names = Files.list(base)) {
            assertThat(names.map(p -> p.getFileName().toString())).containsExactly("__");
        }
        assertAllFilesUnderBase();
        assertThat(metrics.value("rejectedPaths")).isZero();
    }

    @Test
    void theBaseDirectoryIsTheLiteralDirectoryBeforeTheFirstMacro() {
        assertThat(FileDelivery.baseDirectory(base + "/${HOST}/../../../outside.log")).isEqualTo(base);
        assertThat(FileDelivery.baseDirectory(base + "/app-${HOST}.log")).isEqualTo(base);
        assertThat(FileDelivery.baseDirectory(base + "/./x/../${HOST}.log")).isEqualTo(base);
        assertThat(FileDelivery.baseDirectory(base + "/all.log")).isEqualTo(base);
        assertThat(FileDelivery.baseDirectory("/${HOST}.log")).isEqualTo(Path.of("/"));
        assertThat(FileDelivery.baseDirectory("logs/${HOST}.log"))
                .isEqualTo(Path.of("logs").toAbsolutePath().normalize());
    }

    /** {@code {tmp}} stands for the @TempDir's own name, so an escaped file would be unique in its parent. */
    @ParameterizedTest
    @ValueSource(strings = {"${HOST}/../../../../{tmp}-outside.log", "${HOST}/../../sibling.log", "${HOST}/.."})
    void aLiteralPartThatLeavesTheBaseIsRefusedCountedAndWrittenToInvalidPathLog(String relative)
            throws Exception {
        String template = base + "/" + relative.replace("{tmp}", tmp.getFileName().toString());
        Sink sink = sink(cfg().path(template));

        append(sink, bsd("host1", "prog: one"));
        append(sink, bsd("host2", "prog: two"));
        sink.flush();

        assertThat(metrics.value("rejectedPaths")).isEqualTo(2);
        assertThat(lines(base.resolve("invalid-path.log")))
                .containsExactlyInAnyOrder("Mar  1 10:00:00 host1 prog: one", "Mar  1 10:00:00 host2 prog: two");
        Path naive = Path.of(template.replace("${HOST}", "host1")).normalize();
        if (!naive.equals(base)) {
            assertThat(naive).doesNotExist();
        }
        assertThat(base.resolve("host1")).doesNotExist();
        assertAllFilesUnderBase();
    }

    @Test
    void aLiteralDotDotThatStaysInsideTheBaseIsAccepted() throws Exception {
        Sink sink = sink(cfg().path(base + "/${HOST}/../shared.log"));

        append(sink, bsd("host1", "prog: one"));
        append(sink, bsd("host2", "prog: two"));
        sink.flush();

        assertThat(metrics.value("rejectedPaths")).isZero();
        assertThat(lines(base.resolve("shared.log")))
                .containsExactlyInAnyOrder("Mar  1 10:00:00 host1 prog: one", "Mar  1 10:00:00 host2 prog: two");
        assertThat(base.resolve("invalid-path.log")).doesNotExist();
    }

    @Test
    void aPathTheFileSystemCannotTakeGoesToInvalidPathLogInsteadOfStallingTheSink() throws Exception {
        // two 255-byte values make one 510-byte file name (ENAMETOOLONG); a file where a directory should be
        Sink sink = sink(cfg().path(base + "/${HOST}/${HOST}${PROGRAM}.log"));
        Files.createDirectories(base);
        Files.writeString(base.resolve("blocker"), "a file, not a directory\n");
        String longHost = "h".repeat(300);
        String longProgram = "p".repeat(300);

        append(sink, bsd(longHost, longProgram + ": too-long"));
        append(sink, bsd("blocker", "prog: under-a-file"));
        append(sink, bsd("fine", "prog: ok"));
        sink.flush();

        assertThat(metrics.value("rejectedPaths")).isEqualTo(2);
        assertThat(lines(base.resolve("invalid-path.log"))).hasSize(2)
                .anyMatch(l -> l.endsWith(": too-long")).anyMatch(l -> l.endsWith("prog: under-a-file"));
        assertThat(lines(base.resolve("fine").resolve("fineprog.log"))).containsExactly("Mar  1 10:00:00 fine prog: ok");
        assertAllFilesUnderBase();
    }

    /** A record holds a path of up to 64 KiB; a longer one (no file system takes it) is refused like one. */
    @Test
    void aPathLongerThanARecordHoldsGoesToInvalidPathLog() throws Exception {
        // 300 HOSTs of 255 bytes: 76,500 bytes
        Sink sink = sink(cfg().path(base + "/" + "${HOST}".repeat(300) + ".log"));
        String longHost = "h".repeat(255);

        append(sink, bsd(longHost, "prog: too-long"));
        append(sink, bsd("short", "prog: refused by the file system")); // a 1,504-byte name: ENAMETOOLONG
        sink.flush();

        assertThat(metrics.value("rejectedPaths")).isEqualTo(2);
        assertThat(lines(base.resolve("invalid-path.log"))).containsExactly(
                "Mar  1 10:00:00 " + longHost + " prog: too-long",
                "Mar  1 10:00:00 short prog: refused by the file system");
        assertAllFilesUnderBase();
    }

    @Test
    void tickClosesIdleFilesWithoutFurtherTraffic() throws Exception {
        Sink sink = sink(cfg().idleClose("1s"));
        append(sink, bsd("host1", "prog: only"));
        sink.flush();
        clock.advance(Duration.ofSeconds(2));
        sink.tick();
        assertThat(metrics.value("filesClosedIdle")).isEqualTo(1);
        assertThat(metrics.value("openFiles")).isZero();
    }

    // ------------------------------------------------------------------ open-file cache

    @Test
    void beyondMaxOpenFilesTheLeastRecentlyUsedIsClosedAndNoLineIsLost() throws Exception {
        Sink sink = sink(cfg().maxOpenFiles(2));

        append(sink, bsd("a", "prog: a1"));
        append(sink, bsd("b", "prog: b1"));
        assertThat(metrics.value("filesEvicted")).isZero();
        append(sink, bsd("c", "prog: c1"));
        assertThat(metrics.value("filesEvicted")).isEqualTo(1);
        assertThat(metrics.value("openFiles")).isEqualTo(2);
        sink.flush();

        // "a" was evicted: it is reopened, which evicts "b"
        append(sink, bsd("a", "prog: a2"));
        assertThat(metrics.value("filesEvicted")).isEqualTo(2);
        assertThat(metrics.value("filesOpened")).isEqualTo(4);
        assertThat(metrics.value("openFiles")).isEqualTo(2);
        sink.close();

        assertThat(lines(base.resolve("a").resolve("prog.log")))
                .containsExactly("Mar  1 10:00:00 a prog: a1", "Mar  1 10:00:00 a prog: a2");
        assertThat(lines(base.resolve("b").resolve("prog.log"))).containsExactly("Mar  1 10:00:00 b prog: b1");
        assertThat(lines(base.resolve("c").resolve("prog.log"))).containsExactly("Mar  1 10:00:00 c prog: c1");
        assertThat(metrics.value("openFiles")).isZero();
    }

    @ParameterizedTest
    @ValueSource(longs = {0L, NEGATIVE_ORIGIN, WRAPPING_ORIGIN})
    void anIdleFileIsClosedAndALaterLineReopensItAndAppends(long origin) throws Exception {
        clock = new ManualClock(origin);
        Sink sink = sink(cfg().idleClose("1s"));
        Path file = base.resolve("host1").resolve("prog.log");

        append(sink, bsd("host1", "prog: first"));
        sink.flush();
        assertThat(metrics.value("openFiles")).isEqualTo(1);

        clock.advance(Duration.ofSeconds(2));
        sink.flush();
        assertThat(metrics.value("filesClosedIdle")).isEqualTo(1);
        assertThat(metrics.value("openFiles")).isZero();

        append(sink, bsd("host1", "prog: second"));
        assertThat(metrics.value("filesOpened")).isEqualTo(2);
        sink.flush();

        assertThat(lines(file)).containsExactly("Mar  1 10:00:00 host1 prog: first",
                "Mar  1 10:00:00 host1 prog: second");
    }

    @ParameterizedTest
    @ValueSource(longs = {0L, NEGATIVE_ORIGIN, WRAPPING_ORIGIN})
    void aFileWrittenWithinIdleCloseStaysOpen(long origin) throws Exception {
        clock = new ManualClock(origin);
        Sink sink = sink(cfg().idleClose("1s"));

        for (int i = 0; i < 5; i++) {
            append(sink, bsd("host1", "prog: line " + i));
            sink.flush();
            clock.advance(Duration.ofMillis(800));
        }

        assertThat(metrics.value("filesClosedIdle")).isZero();
        assertThat(metrics.value("filesOpened")).isEqualTo(1);
        assertThat(lines(base.resolve("host1").resolve("prog.log"))).hasSize(5);
    }

    // ------------------------------------------------------------------ fsync

    @Test
    void fsyncBatchSyncsOnEveryFlushWithData() throws Exception {
        Sink sink = sink(cfg().fsync(FsyncPolicy.batch));

        append(sink, bsd("host1", "prog: one"));
        sink.flush();
        assertThat(metrics.value("fsyncs")).isEqualTo(1);

        sink.flush();
        assertThat(metrics.value("fsyncs")).isEqualTo(1);

        append(sink, bsd("host1", "prog: two"));
        sink.flush();
        assertThat(metrics.value("fsyncs")).isEqualTo(2);

        // one fsync per written file
        append(sink, bsd("host1", "prog: three"));
        append(sink, bsd("host2", "prog: three"));
        sink.flush();
        assertThat(metrics.value("fsyncs")).isEqualTo(4);

        sink.close();
        assertThat(metrics.value("fsyncs")).isEqualTo(4);
    }

    @Test
    void fsyncNeverNeverSyncs() throws Exception {
        Sink sink = sink(cfg().fsync(FsyncPolicy.never).maxOpenFiles(1).idleClose("1s"));

        for (int i = 0; i < 3; i++) {
            append(sink, bsd("host" + i, "prog: line"));
            sink.flush();
            clock.advance(Duration.ofSeconds(5));
        }
        append(sink, bsd("host1", "prog: pending"));
        sink.close();

        assertThat(metrics.value("fsyncs")).isZero();
        // evictions and idle closes happened, and did not sync either
        assertThat(metrics.value("filesEvicted") + metrics.value("filesClosedIdle")).isPositive();
    }

    @ParameterizedTest
    @ValueSource(longs = {0L, NEGATIVE_ORIGIN, WRAPPING_ORIGIN})
    void fsyncIntervalSyncsAtMostOncePerInterval(long origin) throws Exception {
        clock = new ManualClock(origin);
        Sink sink = sink(cfg().fsync(FsyncPolicy.interval).fsyncInterval("1s"));

        // within the first second: data on every flush, but no more than one fsync
        for (int i = 0; i < 3; i++) {
            append(sink, bsd("host1", "prog: early " + i));
            sink.flush();
            clock.advance(Duration.ofMillis(400));
        }
        // now origin + 1.2 s: a second has passed since the sink started
        append(sink, bsd("host1", "prog: due"));
        sink.flush();
        assertThat(metrics.value("fsyncs")).isEqualTo(1);

        clock.advance(Duration.ofMillis(400));
        append(sink, bsd("host1", "prog: unsynced"));
        sink.flush();
        clock.advance(Duration.ofMillis(400));
        sink.flush();
        assertThat(metrics.value("fsyncs")).as("0.8 s after the last fsync").isEqualTo(1);

        // 1.2 s after the last fsync: the line written at +1.6 s is synced, even by a flush without new data
        clock.advance(Duration.ofMillis(400));
        sink.flush();
        assertThat(metrics.value("fsyncs")).isEqualTo(2);

        // nothing unsynced: a due flush has nothing to sync
        clock.advance(Duration.ofSeconds(5));
        sink.flush();
        assertThat(metrics.value("fsyncs")).isEqualTo(2);
        assertThat(lines(base.resolve("host1").resolve("prog.log"))).hasSize(5);
    }

    // ------------------------------------------------------------------ buffer: memory and journal

    /**
     * The memory path is the core fast path: once the file is open and its buffer has grown, appending (encode the
     * record, find the file, copy the line) allocates nothing per event; only a flush allocates (one ByteBuffer per
     * file written).
     */
    @Test
    void aWarmMemorySinkAllocatesNothingPerEvent() throws Exception {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(mx instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported()
                && threads.isThreadAllocatedMemoryEnabled());
        Sink sink = sink(cfg());
        byte[][] raws = {
            bsd("host1", "prog[7]: request served in 12 ms").getBytes(StandardCharsets.UTF_8),
            bsd("host1", "prog[7]: request failed, status=503").getBytes(StandardCharsets.UTF_8),
            bsd("host2", "other: a line for another file").getBytes(StandardCharsets.UTF_8),
        };
        for (int i = 0; i < 20_000; i++) {
            fill(raws[i % 3], LogEvent.FORMAT_RFC3164);
            sink.append(slot);
            if (i % 1000 == 999) {
                sink.flush();
            }
        }
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 3_000; i++) {
            fill(raws[i % 3], LogEvent.FORMAT_RFC3164);
            sink.append(slot);
            if (i % 1000 == 999) {
                sink.flush(); // as in the warm-up: the files' buffers do not grow
            }
        }
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        // the measurement and 3 flushes of 2 files allocate a little; 3000 events with any per-event object would
        // exceed it
        assertThat(allocated).isLessThan(3_000);
        // two of every three events go to host1/prog.log: 13,334 of the first 20,000 and 2,000 of the last 3,000
        assertThat(lines(base.resolve("host1").resolve("prog.log"))).hasSize(13_334 + 2_000);
    }

    /**
     * buffer: journal. Every line reaches its file exactly once, in order. A backlog journaled while no file can be
     * opened (the base directory is a regular file, so even invalid-path.log cannot be) stays in the journal across
     * a close; a new sink on the same journal delivers it once the base directory can be created, and the lines
     * appended after it.
     */
    @Test
    void aJournaledSinkDeliversEachLineOnceAndKeepsWhatItCannotWriteAcrossARestart() throws Exception {
        Path out = tmp.resolve("journaled");
        Cfg journaled = new Cfg().path(out + "/${HOST}/${PROGRAM}.log").journal(tmp.resolve("journal"));
        Files.writeString(out, "a file where the base directory should be\n");

        MetricGroup first = new MetricGroup("Sink", "t");
        Sink blocked = sink(journaled, first, Clock.SYSTEM);
        blocked.start();
        for (int i = 0; i < 200; i++) {
            append(blocked, bsd("h" + (i % 2), "app: line " + i));
            if (i % 100 == 99) {
                blocked.flush(); // a journal commit: returns although no file can be opened
            }
        }
        assertThat(first.value("backlogRecords")).isEqualTo(200);
        assertThat(Conditions.await(() -> first.value("deliveryFailures") > 0, Duration.ofSeconds(30)))
                .as("the delivery thread tried and failed").isTrue();
        blocked.close(); // drain-timeout 200 ms: the backlog stays in the journal
        sinks.remove(blocked);
        assertThat(first.value("delivered")).isZero();
        assertThat(out).isRegularFile();

        MetricGroup second = new MetricGroup("Sink", "t");
        Sink sink = sink(journaled, second, Clock.SYSTEM);
        sink.start();
        assertThat(second.value("backlogRecords")).isEqualTo(200);
        assertThat(Conditions.await(() -> second.value("deliveryFailures") > 0, Duration.ofSeconds(30))).isTrue();
        Files.delete(out); // the problem goes away while the sink runs
        for (int i = 200; i < 300; i++) {
            append(sink, bsd("h" + (i % 2), "app: line " + i));
        }
        sink.flush();
        assertThat(Conditions.await(() -> second.value("delivered") == 300, Duration.ofSeconds(30)))
                .as("delivered: " + second.value("delivered")).isTrue();
        sink.close();
        sinks.remove(sink);

        for (int h = 0; h < 2; h++) {
            List<String> expected = new ArrayList<>();
            for (int i = h; i < 300; i += 2) {
                expected.add("Mar  1 10:00:00 h" + h + " app: line " + i);
            }
            assertThat(lines(out.resolve("h" + h).resolve("app.log"))).containsExactlyElementsOf(expected);
        }
        assertThat(out.resolve(FileDelivery.INVALID_PATH_FILE)).doesNotExist();
        assertThat(second.value("backlogRecords")).isZero();
    }

    /** A record that is not the encoder's framing (a journal another sink wrote) is dead-lettered, not written. */
    @Test
    void aRecordThatIsNotAFileRecordIsDeadLettered() throws Exception {
        Path dead = tmp.resolve("dead.jsonl");
        FileDelivery delivery = new FileDelivery(cfg().build(), clock, metrics,
                new DeadLetterFile("t", dead.toString(), metrics));
        byte[] syslog = bsd("host1", "prog: framed for a syslog relay").getBytes(StandardCharsets.UTF_8);

        delivery.add(syslog, 0, syslog.length);
        delivery.add(syslog, 0, 1);
        delivery.flush();
        delivery.close();

        assertThat(metrics.value("deadLettered")).isEqualTo(2);
        assertThat(lines(dead)).hasSize(2).allMatch(l -> l.contains("not a file-sink record"));
        assertThat(metrics.value("filesOpened")).isZero();
    }

    // ------------------------------------------------------------------ helpers

    private Sink sink(Cfg c) {
        return sink(c, metrics, clock);
    }

    /** Built as the pipeline builds it: the config's {@code create} with the sink's context. */
    private Sink sink(Cfg c, MetricGroup group, Clock sinkClock) {
        FileSinkConfig cfg = c.build();
        Sink s = cfg.create(new SinkContext("t", ZoneOffset.UTC, sinkClock, group,
                new DeadLetterFile("t", tmp.resolve("dead-letter.jsonl").toString(), group)));
        sinks.add(s);
        return s;
    }

    private Cfg cfg() {
        return new Cfg().path(base + "/${HOST}/${PROGRAM}.log");
    }

    /** A legacy message stamped {@code Mar  1 10:00:00} from {@code host}. */
    private static String bsd(String host, String tagAndMessage) {
        return "<13>Mar  1 10:00:00 " + host + " " + tagAndMessage;
    }

    private long append(Sink sink, String raw) throws Exception {
        return append(sink, raw, LogEvent.FORMAT_RFC3164);
    }

    /** Fills the one reused event as a source does, parses it and appends it. */
    private long append(Sink sink, String raw, byte formatHint) throws Exception {
        fill(raw.getBytes(StandardCharsets.UTF_8), formatHint);
        return sink.append(slot);
    }

    /** The reused event as a source fills it (allocating nothing), parsed. */
    private void fill(byte[] raw, byte formatHint) {
        slot.clear();
        slot.setRaw(raw, 0, raw.length);
        slot.setPeer(PEER_BYTES, 0, PEER_BYTES.length);
        slot.setSource(1, SOURCE_NAME, formatHint, 1L);
        slot.setReceivedMillis(RECEIVED);
        parser.parse(slot);
    }

    private static String content(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    private static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8);
    }

    private void assertAllFilesUnderBase() throws IOException {
        try (Stream<Path> all = Files.walk(tmp)) {
            List<Path> files = all.filter(Files::isRegularFile).toList();
            assertThat(files).isNotEmpty().allSatisfy(p -> assertThat(p).startsWith(base));
        }
    }

    private static String declaredDefault(String component) {
        for (RecordComponent rc : FileSinkConfig.class.getRecordComponents()) {
            if (rc.getName().equals(component)) {
                return rc.getAnnotation(Option.class).defaultValue();
            }
        }
        throw new IllegalArgumentException(component);
    }

    /** Every component of {@link FileSinkConfig}, given explicitly; defaults as declared unless a test sets one. */
    private static final class Cfg {

        private String path;
        private String template = DEFAULT_LINE;
        private FsyncPolicy fsync = FsyncPolicy.never;
        private TimeSpan fsyncInterval = TimeSpan.parse("1s");
        private int maxOpenFiles = 256;
        private TimeSpan idleClose = TimeSpan.parse("60s");
        private Buffer buffer = Buffer.memory;
        private JournalConfig journal = JournalConfig.defaults().withFreeDiskReserve(0);

        Cfg path(String p) {
            this.path = p;
            return this;
        }

        Cfg fsync(FsyncPolicy p) {
            this.fsync = p;
            return this;
        }

        Cfg fsyncInterval(String span) {
            this.fsyncInterval = TimeSpan.parse(span);
            return this;
        }

        Cfg maxOpenFiles(int n) {
            this.maxOpenFiles = n;
            return this;
        }

        Cfg idleClose(String span) {
            this.idleClose = TimeSpan.parse(span);
            return this;
        }

        /** {@code buffer: journal} in {@code dir}. */
        Cfg journal(Path dir) {
            this.buffer = Buffer.journal;
            this.journal = journal.withDir(dir.toString());
            return this;
        }

        FileSinkConfig build() {
            return new FileSinkConfig("t", path, template, 1000, null, ByteSize.parse("1MiB"),
                    TimeSpan.parse("250ms"), -1, null, fsync, fsyncInterval, maxOpenFiles, idleClose, buffer,
                    journal, TimeSpan.parse("200ms"), Overflow.block, null);
        }
    }
}
