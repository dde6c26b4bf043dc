package dev.logrouter.sinks.hdfs;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.journal.Buffer;
import dev.logrouter.core.journal.JournalConfig;
import dev.logrouter.core.journal.JournalSync;
import dev.logrouter.core.journal.Overflow;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.sink.SinkContext;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.testing.Conditions;
import dev.logrouter.core.testing.Ports;
import dev.logrouter.core.util.Clock;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The HDFS sink as {@link HdfsSinkConfig#create} builds it ({@link HdfsEncoder} + {@link HdfsDelivery}; with
 * {@code buffer: memory} an {@code EncodedSink}, with {@code buffer: journal} a {@code JournaledSink}) against a real
 * HDFS ({@link HdfsCluster}: a NameNode and a DataNode in this JVM, started once for the class), driven directly as
 * its sink thread would drive it, with a clock the test moves. Each test writes under its own directory; what the
 * sink wrote is read back through the FileSystem API by a separate client.
 */
class HdfsSinkTest {

    private static final long RECEIVED = Instant.parse("2026-03-01T10:00:05Z").toEpochMilli();
    private static final AtomicInteger DIRS = new AtomicInteger();

    private static HdfsCluster hdfs;

    private String base;
    private SharedClock clock;
    private MetricGroup metrics;
    @TempDir
    java.nio.file.Path scratch;
    private final LogEvent slot = new LogEvent();
    private final SyslogHeaderParser parser = new SyslogHeaderParser(ZoneOffset.UTC);
    private final List<Sink> open = new ArrayList<>();

    @BeforeAll
    static void startHdfs() throws IOException {
        hdfs = HdfsCluster.start();
    }

    @AfterAll
    static void stopHdfs() throws IOException {
        if (hdfs != null) {
            hdfs.close();
        }
    }

    @BeforeEach
    void setUp(TestInfo info) {
        base = "/t" + DIRS.incrementAndGet() + "-" + info.getTestMethod().orElseThrow().getName();
        clock = new SharedClock();
        metrics = new MetricGroup("Sink", "t");
    }

    @AfterEach
    void closeSinks() throws Exception {
        for (Sink s : open) {
            s.close();
        }
    }

    // ------------------------------------------------------------------ lines, parts, durability

    @Test
    void everyLineIsReadBackOnceFromCompletedParts() throws Exception {
        Sink sink = sink(cfg());
        int n = 3000;
        for (int i = 0; i < n; i++) {
            append(sink, "host" + (i % 3), "app[7]: line " + i);
            if (i % 500 == 499) {
                sink.flush();
            }
        }
        sink.close();
        open.clear();

        List<Path> files = hdfs.files(base);
        assertThat(files).extracting(Path::getName).containsExactly("app-00000.log", "app-00000.log",
                "app-00000.log");
        assertThat(files).extracting(p -> p.getParent().getName()).containsExactly("host0", "host1", "host2");
        List<String> lines = hdfs.allLines(base);
        assertThat(lines).hasSize(n);
        assertThat(new HashSet<>(lines)).hasSize(n);
        assertThat(hdfs.lines(new Path(base + "/host1/app-00000.log")))
                .startsWith("Mar  1 10:00:00 host1 app[7]: line 1", "Mar  1 10:00:00 host1 app[7]: line 4")
                .hasSize(n / 3);
        assertThat(metrics.value("hflushes")).isEqualTo(6 * 3); // 6 batches, 3 files each
        assertThat(metrics.value("partsOpened")).isEqualTo(3);
        assertThat(metrics.value("partsCompleted")).isEqualTo(3);
        assertThat(metrics.value("openFiles")).isZero();
    }

    @Test
    void aFlushedBatchIsVisibleToANewReaderWhileThePartIsStillOpen() throws Exception {
        for (HdfsSync sync : HdfsSync.values()) {
            String dir = base + "/" + sync;
            Sink sink = sink(cfg().path(dir + "/${HOST}.log").sync(sync));
            append(sink, "web1", "app: one");
            append(sink, "web1", "app: two");
            Path tmp = new Path(dir + "/web1-00000.log.tmp");
            assertThat(hdfs.lines(tmp)).as("before the flush").isEmpty();

            sink.flush();

            assertThat(hdfs.lines(tmp)).containsExactly("Mar  1 10:00:00 web1 app: one", "Mar  1 10:00:00 web1 app: two");
            assertThat(metrics.value(sync == HdfsSync.hflush ? "hflushes" : "hsyncs")).isEqualTo(1);
            assertThat(metrics.value("openFiles")).isEqualTo(1); // the first sink's gauge: it is still open
        }
    }

    @Test
    void anIdleTickMakesThePendingLinesVisibleAndTheFlushThenHasNothingToWrite() throws Exception {
        Sink sink = sink(cfg().path(base + "/${HOST}.log"));
        long n = sink.append(event("<13>Mar  1 10:00:00 web1 app: one"));
        append(sink, "web1", "app: two");
        assertThat(n).as("the line's bytes, as the sink's bytes counter counts them")
                .isEqualTo("Mar  1 10:00:00 web1 app: one\n".length());
        Path tmp = new Path(base + "/web1-00000.log.tmp");
        assertThat(hdfs.lines(tmp)).as("before the tick").isEmpty();

        sink.tick(); // the ring was idle: the batch's flush-timeout is not due

        assertThat(hdfs.lines(tmp)).containsExactly("Mar  1 10:00:00 web1 app: one", "Mar  1 10:00:00 web1 app: two");
        assertThat(metrics.value("hflushes")).isEqualTo(1);
        sink.flush();
        assertThat(metrics.value("hflushes")).as("nothing left for the batch's flush").isEqualTo(1);
        sink.close();
        open.clear();
        assertThat(hdfs.lines(new Path(base + "/web1-00000.log"))).containsExactly("Mar  1 10:00:00 web1 app: one",
                "Mar  1 10:00:00 web1 app: two");
    }

    @Test
    void rollBySizeLeavesCompleteRenamedPartsInOrder() throws Exception {
        Sink sink = sink(cfg().rollSize("4KiB"));
        int n = 1000;
        for (int i = 0; i < n; i++) {
            append(sink, "web1", "app: line " + i);
            if (i % 50 == 49) {
                sink.flush();
            }
        }
        // before the close: every part but the last is complete and renamed
        List<Path> parts = hdfs.files(base + "/web1");
        assertThat(parts.subList(0, parts.size() - 1)).extracting(Path::getName).allMatch(s -> s.matches("app-\\d{5}\\.log"));
        assertThat(parts.get(parts.size() - 1).getName()).endsWith(".log.tmp");
        sink.close();
        open.clear();

        parts = hdfs.files(base + "/web1");
        assertThat(parts.size()).isGreaterThan(5);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            assertThat(parts.get(i).getName()).isEqualTo(String.format("app-%05d.log", i));
            long len = hdfs.fileSystem().getFileStatus(parts.get(i)).getLen();
            if (i < parts.size() - 1) {
                assertThat(len).as("a rolled part is at least roll-size").isGreaterThanOrEqualTo(4096);
            }
            List<String> partLines = hdfs.lines(parts.get(i));
            assertThat(partLines).allMatch(l -> l.startsWith("Mar  1 10:00:00 web1 app: line "));
            lines.addAll(partLines);
        }
        assertThat(lines).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(lines.get(i)).endsWith(" line " + i);
        }
        assertThat(metrics.value("rolls")).isEqualTo(parts.size() - 1);
    }

    @Test
    void rollIntervalAndIdleCloseCompleteParts() throws Exception {
        Sink sink = sink(cfg().rollInterval("10s").idleClose("5s"));
        append(sink, "web1", "app: first");
        sink.flush();
        clock.advance(Duration.ofSeconds(11));
        sink.tick();
        assertThat(hdfs.files(base)).extracting(Path::getName).containsExactly("app-00000.log");
        assertThat(metrics.value("rolls")).isEqualTo(1);

        append(sink, "web1", "app: second");
        sink.flush();
        assertThat(hdfs.files(base)).extracting(Path::getName).containsExactly("app-00000.log", "app-00001.log.tmp");
        clock.advance(Duration.ofSeconds(6)); // idle-close is due, roll-interval is not
        sink.tick();
        assertThat(hdfs.files(base)).extracting(Path::getName).containsExactly("app-00000.log", "app-00001.log");
        assertThat(metrics.value("filesClosedIdle")).isEqualTo(1);
        assertThat(metrics.value("rolls")).isEqualTo(1);
        assertThat(metrics.value("openFiles")).isZero();
        assertThat(hdfs.allLines(base)).containsExactly("Mar  1 10:00:00 web1 app: first",
                "Mar  1 10:00:00 web1 app: second");
    }

    @Test
    void aNewSinkContinuesThePartNumbersItFinds() throws Exception {
        for (int run = 0; run < 3; run++) {
            Sink sink = sink(cfg());
            append(sink, "web1", "app: run " + run);
            sink.close();
            open.clear();
        }
        assertThat(hdfs.files(base)).extracting(Path::getName)
                .containsExactly("app-00000.log", "app-00001.log", "app-00002.log");
        assertThat(hdfs.allLines(base)).containsExactly("Mar  1 10:00:00 web1 app: run 0",
                "Mar  1 10:00:00 web1 app: run 1", "Mar  1 10:00:00 web1 app: run 2");
    }

    @Test
    void maxOpenFilesCompletesTheLeastRecentlyUsedPart() throws Exception {
        Sink sink = sink(cfg().maxOpenFiles(2));
        append(sink, "a", "app: 1");
        append(sink, "b", "app: 2");
        append(sink, "c", "app: 3"); // a's line is written and its part completed to make room
        assertThat(hdfs.files(base + "/a")).extracting(Path::getName).containsExactly("app-00000.log");
        assertThat(metrics.value("filesEvicted")).isEqualTo(1);
        assertThat(metrics.value("openFiles")).isEqualTo(2);
        sink.close();
        open.clear();
        assertThat(hdfs.allLines(base)).containsExactly("Mar  1 10:00:00 a app: 1", "Mar  1 10:00:00 b app: 2",
                "Mar  1 10:00:00 c app: 3");
    }

    @Test
    void gzipPartsAreReadableAfterEveryBatchAndAfterTheRoll() throws Exception {
        Sink sink = sink(cfg().compression(HdfsCompression.gzip));
        for (int batch = 0; batch < 3; batch++) {
            for (int i = 0; i < 100; i++) {
                append(sink, "web1", "app: batch " + batch + " line " + i);
            }
            sink.flush();
            // a reader in the middle of the stream: each batch is a complete gzip member
            assertThat(hdfs.lines(new Path(base + "/web1/app-00000.log.gz.tmp"))).hasSize(100 * (batch + 1));
        }
        sink.close();
        open.clear();
        List<String> lines = hdfs.lines(new Path(base + "/web1/app-00000.log.gz"));
        assertThat(lines).hasSize(300).endsWith("Mar  1 10:00:00 web1 app: batch 2 line 99");
        long rendered = lines.stream().mapToLong(l -> l.length() + 1).sum();
        assertThat(metrics.value("storedBytes")).isLessThan(rendered / 3)
                .isEqualTo(hdfs.fileSystem().getFileStatus(new Path(base + "/web1/app-00000.log.gz")).getLen());
    }

    @Test
    void partNamesAnotherWriterTookAreSkippedAtOpenAndAtRename() throws Exception {
        Sink sink = sink(cfg().rollSize("1B"));
        append(sink, "web1", "app: one");
        sink.flush(); // part 0 written and rolled
        // another writer completes part 1 before this sink needs it, and part 3 while this sink writes part 2
        writeExternally(base + "/web1/app-00001.log", "other 1\n");
        append(sink, "web1", "app: two");
        writeExternally(base + "/web1/app-00003.log", "other 3\n");
        sink.close();
        open.clear();

        assertThat(hdfs.files(base)).extracting(Path::getName)
                .containsExactly("app-00000.log", "app-00001.log", "app-00002.log", "app-00003.log");
        assertThat(hdfs.lines(new Path(base + "/web1/app-00001.log"))).containsExactly("other 1");
        assertThat(hdfs.lines(new Path(base + "/web1/app-00002.log"))).containsExactly("Mar  1 10:00:00 web1 app: two");
        assertThat(hdfs.lines(new Path(base + "/web1/app-00003.log"))).containsExactly("other 3");

        // a part completed under a name another writer took meanwhile goes to the next free number
        Sink second = sink(cfg());
        append(second, "web2", "app: three");
        second.flush();
        writeExternally(base + "/web2/app-00000.log", "other 0\n");
        second.close();
        open.clear();
        assertThat(hdfs.files(base + "/web2")).extracting(Path::getName).containsExactly("app-00000.log", "app-00001.log");
        assertThat(hdfs.lines(new Path(base + "/web2/app-00001.log"))).containsExactly("Mar  1 10:00:00 web2 app: three");
    }

    private static void writeExternally(String path, String text) throws IOException {
        try (var out = hdfs.fileSystem().create(new Path(path), false)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    // ------------------------------------------------------------------ hostile paths

    @Test
    void hostileValuesStayOneNameAndRefusedPathsGoToInvalidPathLog() throws Exception {
        Sink sink = sink(cfg().path(base + "/in/${HOST}/../../../${PROGRAM}.log"));
        append(sink, "ok", "app: escapes the base through the literal text");
        sink.close();
        open.clear();
        assertThat(hdfs.files(base)).extracting(Path::toString)
                .containsExactly(hdfs.uri() + base + "/in/invalid-path-00000.log");
        assertThat(metrics.value("rejectedPaths")).isEqualTo(1);

        Sink hosts = sink(cfg().path(base + "/h/${HOST}/${PROGRAM}.log"));
        append(hosts, "..", "app: dots");
        append(hosts, "fe80::1", "app: colons");
        appendRaw(hosts, "<13>Mar  1 10:00:00 a/b\\c app: slashes");
        hosts.close();
        open.clear();
        assertThat(hdfs.files(base + "/h")).extracting(p -> p.getParent().getName() + "/" + p.getName())
                .containsExactlyInAnyOrder("__/app-00000.log", "fe80__1/app-00000.log", "a_b_c/app-00000.log");
    }

    @Test
    void aNameHdfsRefusesGoesToInvalidPathLogAndTheRestIsWritten() throws Exception {
        // 250 bytes pass the value cut (255) but not with the part number: HDFS refuses names over 255 bytes
        String longHost = "h".repeat(250);
        Sink sink = sink(cfg().path(base + "/${HOST}.log"));
        append(sink, longHost, "app: too long 1");
        append(sink, "web1", "app: fine");
        append(sink, longHost, "app: too long 2");
        sink.close();
        open.clear();

        assertThat(metrics.value("rejectedPaths")).isEqualTo(2);
        assertThat(hdfs.files(base)).extracting(Path::getName).containsExactly("invalid-path-00000.log", "web1-00000.log");
        assertThat(hdfs.lines(new Path(base + "/invalid-path-00000.log")))
                .containsExactly("Mar  1 10:00:00 " + longHost + " app: too long 1", "Mar  1 10:00:00 " + longHost
                        + " app: too long 2");
    }

    // ------------------------------------------------------------------ failures

    @Test
    void aDataNodeRestartBreaksThePartAndTheRetriedBatchLandsOnceInANewPart() throws Exception {
        Sink sink = sink(cfg());
        for (int i = 0; i < 100; i++) {
            append(sink, "web1", "app: before " + i);
        }
        sink.flush();

        hdfs.restartDataNode();
        for (int i = 0; i < 100; i++) {
            append(sink, "web1", "app: after " + i);
        }
        // as the sink handler does: flush again (with a pause) until it succeeds
        List<String> errors = new ArrayList<>();
        assertThat(Conditions.await(() -> tryFlush(sink, errors), Duration.ofSeconds(90))).as("flushed").isTrue();
        sink.close();
        open.clear();

        List<String> lines = hdfs.allLines(base);
        assertThat(lines).hasSize(200);
        assertThat(new HashSet<>(lines)).hasSize(200);
        // the first write after the restart found the pipeline broken: the part was recovered, the batch rewritten
        assertThat(errors).isNotEmpty();
        assertThat(metrics.value("streamFailures")).isPositive();
        assertThat(metrics.value("recoveries")).isEqualTo(1);
        assertThat(hdfs.files(base)).extracting(Path::getName).containsExactly("app-00000.log", "app-00001.log");
        assertThat(hdfs.lines(new Path(base + "/web1/app-00000.log"))).hasSize(100).allMatch(l -> l.contains("before"));
        System.out.println("DataNode restart: " + errors.size() + " failed flushes, recoveries "
                + metrics.value("recoveries") + ", truncated bytes " + metrics.value("truncatedBytes")
                + ", first error " + (errors.isEmpty() ? "-" : errors.get(0)));
    }

    private static boolean tryFlush(Sink sink, List<String> errors) {
        try {
            sink.flush();
            return true;
        } catch (Exception e) {
            errors.add(e.toString());
            return false;
        }
    }

    // ------------------------------------------------------------------ buffer: journal, records

    @Test
    void aJournaledSinkDeliversEveryLineOnceAndCompletesIdleParts(@TempDir java.nio.file.Path journal)
            throws Exception {
        Sink sink = sink(cfg().journal(journal));
        int n = 900;
        for (int i = 0; i < n; i++) {
            append(sink, "host" + (i % 3), "app[7]: line " + i);
            if (i % 300 == 299) {
                sink.flush(); // committed to the journal: written for the ring; the delivery thread sends it
            }
        }
        assertThat(Conditions.await(() -> metrics.value("delivered") == n, Duration.ofSeconds(60)))
                .as("delivered").isTrue();
        assertThat(metrics.value("backlogRecords")).isZero();
        // hflushed into the open parts: a new reader sees each line once
        List<String> lines = hdfs.allLines(base);
        assertThat(lines).hasSize(n);
        assertThat(new HashSet<>(lines)).hasSize(n);

        // no more lines: the delivery thread ticks the delivery, which completes the parts idle for idle-close
        clock.advance(Duration.ofSeconds(61));
        assertThat(Conditions.await(() -> metrics.value("filesClosedIdle") == 3, Duration.ofSeconds(30)))
                .as("idle parts completed").isTrue();
        assertThat(hdfs.files(base)).extracting(Path::getName).containsExactly("app-00000.log", "app-00000.log",
                "app-00000.log");
        sink.close();
        open.clear();
        assertThat(hdfs.allLines(base)).hasSize(n).containsAll(lines);
        assertThat(hdfs.lines(new Path(base + "/host1/app-00000.log")))
                .startsWith("Mar  1 10:00:00 host1 app[7]: line 1", "Mar  1 10:00:00 host1 app[7]: line 4");
    }

    @Test
    void aJournaledBacklogWaitsForHdfsAndSurvivesARecreate(@TempDir java.nio.file.Path journal) throws Exception {
        String nowhere = "hdfs://127.0.0.1:" + Ports.freeLoopbackPort(); // no NameNode there
        Sink down = sink(cfg().uri(nowhere).journal(journal).drainTimeout("100ms"));
        int n = 500;
        for (int i = 0; i < n; i++) {
            append(down, "host" + (i % 2), "app: backlog " + i);
        }
        down.flush(); // journaled: the ring moves on although HDFS cannot be reached
        assertThat(Conditions.await(() -> metrics.value("deliveryFailures") > 0, Duration.ofSeconds(60)))
                .as("the delivery thread tried").isTrue();
        down.close();
        open.clear();
        assertThat(metrics.value("delivered")).isZero();
        assertThat(hdfs.files(base)).isEmpty();

        // the same journal, the real NameNode: the backlog is delivered after the start
        Sink up = sink(cfg().journal(journal));
        assertThat(Conditions.await(() -> metrics.value("delivered") == n, Duration.ofSeconds(60)))
                .as("backlog delivered").isTrue();
        up.close();
        open.clear();
        List<String> lines = hdfs.allLines(base);
        assertThat(lines).hasSize(n);
        assertThat(new HashSet<>(lines)).hasSize(n);
        assertThat(lines).contains("Mar  1 10:00:00 host0 app: backlog 0", "Mar  1 10:00:00 host1 app: backlog 499");
        assertThat(hdfs.files(base)).extracting(Path::getName).containsExactly("app-00000.log", "app-00000.log");
    }

    @Test
    void aRecordHoldsTheRelativePathThenTheLineAndAForeignRecordIsDeadLettered() throws Exception {
        HdfsEncoder encoder = new HdfsEncoder(base + "/${HOST}/${PROGRAM}.log", "${MSG}\n", ZoneOffset.UTC);
        ByteBuilder out = new ByteBuilder(16);
        encoder.encode(event("<13>Mar  1 10:00:00 ../x app: hello"), out);
        // a hostile HOST stays one name; the base directory is left out
        assertThat(bytes(out)).isEqualTo(concat(new byte[] {12}, ".._x/app.log", "hello\n"));
        // a path of 128 bytes or more: a two-byte length (LEB128), the line after it
        String host = "h".repeat(200);
        out.reset();
        encoder.encode(event("<13>Mar  1 10:00:00 " + host + " app: long"), out);
        int n = host.length() + "/app.log".length(); // 208 = 0x50 | 1 << 7
        assertThat(bytes(out)).isEqualTo(concat(new byte[] {(byte) (0x80 | (n & 0x7f)), (byte) (n >>> 7)},
                host + "/app.log", "long\n"));

        HdfsDelivery delivery = new HdfsDelivery(cfg().build(), context());
        delivery.add(new byte[] {(byte) 0x85}, 0, 1); // the length goes on past the record
        delivery.add(new byte[] {5, 'a', 'b'}, 0, 3); // a 5-byte path in 2 bytes
        delivery.close();
        assertThat(metrics.value("deadLettered")).isEqualTo(2);
        assertThat(Files.readAllLines(scratch.resolve("dead-letter.jsonl"))).hasSize(2)
                .allMatch(l -> l.contains("not an HDFS sink record"));
    }

    private static byte[] bytes(ByteBuilder b) {
        return java.util.Arrays.copyOf(b.array(), b.length());
    }

    private static byte[] concat(byte[] head, String... parts) {
        ByteBuilder b = new ByteBuilder(64);
        b.append(head);
        for (String p : parts) {
            b.append(p);
        }
        return bytes(b);
    }

    // ------------------------------------------------------------------ configuration

    @Test
    void configDirThenPropertiesMakeTheHadoopConfiguration(@TempDir java.nio.file.Path dir) throws Exception {
        Files.writeString(dir.resolve("core-site.xml"), site("ha.test.from", "core-site", "ha.test.core", "yes"));
        Files.writeString(dir.resolve("hdfs-site.xml"), site("ha.test.from", "hdfs-site", "dfs.nameservices", "ns1"));
        Configuration conf = HdfsDelivery.hadoopConfiguration(cfg().configDir(dir.toString())
                .properties(Map.of("ha.test.from", "properties")).build());
        assertThat(conf.get("ha.test.core")).isEqualTo("yes");
        assertThat(conf.get("dfs.nameservices")).isEqualTo("ns1");
        assertThat(conf.get("ha.test.from")).isEqualTo("properties");

        assertThatThrownBy(() -> HdfsDelivery.hadoopConfiguration(cfg().configDir(dir.resolve("nope").toString()).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a directory");
        assertThatThrownBy(() -> cfg().path("logs/${HOST}.log").build())
                .hasMessageContaining("path must be absolute");
        assertThatThrownBy(() -> cfg().uri("namenode:8020").build()).hasMessageContaining("uri must be hdfs://");
        assertThatThrownBy(() -> cfg().uri("file:///tmp").build()).hasMessageContaining("uri must be hdfs://");
    }

    @Test
    void partNamesPutTheNumberBeforeTheExtension() {
        assertThat(HdfsDelivery.partName("/logs/web1/20261122.log", 3, "")).isEqualTo("/logs/web1/20261122-00003.log");
        assertThat(HdfsDelivery.partName("/logs/web1/messages", 0, "")).isEqualTo("/logs/web1/messages-00000");
        assertThat(HdfsDelivery.partName("/logs/v1.2/.hidden", 0, ".gz")).isEqualTo("/logs/v1.2/.hidden-00000.gz");
        assertThat(HdfsDelivery.partName("/logs/a.log", 123456, ".gz")).isEqualTo("/logs/a-123456.log.gz");
    }

    private static String site(String k1, String v1, String k2, String v2) {
        return "<?xml version=\"1.0\"?><configuration>"
                + "<property><name>" + k1 + "</name><value>" + v1 + "</value></property>"
                + "<property><name>" + k2 + "</name><value>" + v2 + "</value></property></configuration>";
    }

    // ------------------------------------------------------------------ helpers

    /** The sink as the router builds it ({@link HdfsSinkConfig#create}), started. */
    private Sink sink(Cfg c) throws Exception {
        Sink s = c.build().create(context());
        s.start();
        open.add(s);
        return s;
    }

    /** What the router gives a sink: this test's clock and metrics, a dead-letter file in a temporary directory. */
    private SinkContext context() {
        DeadLetterFile deadLetters = new DeadLetterFile("t", scratch.resolve("dead-letter.jsonl").toString(), metrics);
        return new SinkContext("t", ZoneOffset.UTC, clock, metrics, deadLetters);
    }

    private Cfg cfg() {
        return new Cfg().path(base + "/${HOST}/${PROGRAM}.log");
    }

    private void append(Sink sink, String host, String tagAndMessage) throws Exception {
        appendRaw(sink, "<13>Mar  1 10:00:00 " + host + " " + tagAndMessage);
    }

    /** Fills the one reused event as a source does, parses it and appends it. */
    private void appendRaw(Sink sink, String raw) throws Exception {
        sink.append(event(raw));
    }

    /** The one reused event, filled as a source does and parsed. */
    private LogEvent event(String raw) {
        slot.clear();
        byte[] b = raw.getBytes(StandardCharsets.UTF_8);
        slot.setRaw(b, 0, b.length);
        byte[] peer = "192.0.2.7".getBytes(StandardCharsets.US_ASCII);
        slot.setPeer(peer, 0, peer.length);
        slot.setSource(1, "net-in".getBytes(StandardCharsets.US_ASCII), LogEvent.FORMAT_RFC3164, 1L);
        slot.setReceivedMillis(RECEIVED);
        parser.parse(slot);
        return slot;
    }

    /** A clock the test moves and a journal's delivery thread reads. */
    private static final class SharedClock implements Clock {

        private volatile long now;

        @Override
        public long nanoTime() {
            return now;
        }

        void advance(Duration d) {
            now += d.toNanos();
        }
    }

    /** Every component of {@link HdfsSinkConfig}: the declared defaults unless a test sets one. */
    private final class Cfg {

        private String uri = hdfs.uri();
        private String path;
        private HdfsSync sync = HdfsSync.hflush;
        private ByteSize rollSize = ByteSize.parse("128MiB");
        private TimeSpan rollInterval;
        private TimeSpan idleClose = TimeSpan.parse("60s");
        private int maxOpenFiles = 64;
        private HdfsCompression compression = HdfsCompression.none;
        private String configDir;
        private Map<String, String> properties = HdfsCluster.clientProperties();
        private Buffer buffer = Buffer.memory;
        private JournalConfig journal = JournalConfig.defaults();
        private TimeSpan drainTimeout = TimeSpan.parse("5s");

        Cfg uri(String u) {
            this.uri = u;
            return this;
        }

        Cfg path(String p) {
            this.path = p;
            return this;
        }

        Cfg sync(HdfsSync s) {
            this.sync = s;
            return this;
        }

        Cfg rollSize(String size) {
            this.rollSize = ByteSize.parse(size);
            return this;
        }

        Cfg rollInterval(String span) {
            this.rollInterval = TimeSpan.parse(span);
            return this;
        }

        Cfg idleClose(String span) {
            this.idleClose = TimeSpan.parse(span);
            return this;
        }

        Cfg maxOpenFiles(int n) {
            this.maxOpenFiles = n;
            return this;
        }

        Cfg compression(HdfsCompression c) {
            this.compression = c;
            return this;
        }

        Cfg configDir(String d) {
            this.configDir = d;
            return this;
        }

        Cfg properties(Map<String, String> p) {
            this.properties = p;
            return this;
        }

        /** {@code buffer: journal} in {@code dir}, synced never (the tests do not cut the power). */
        Cfg journal(java.nio.file.Path dir) {
            this.buffer = Buffer.journal;
            this.journal = JournalConfig.defaults().withDir(dir.toString()).withSync(JournalSync.none)
                    .withSegmentSize(1 << 20).withMaxSize(16 << 20).withFreeDiskReserve(0);
            return this;
        }

        Cfg drainTimeout(String span) {
            this.drainTimeout = TimeSpan.parse(span);
            return this;
        }

        HdfsSinkConfig build() {
            return new HdfsSinkConfig("t", uri, path, "${DATE} ${HOST} ${MSGHDR}${MSG}\n", 5000,
                    ByteSize.parse("4MiB"), TimeSpan.parse("1s"), -1, null, sync, rollSize, rollInterval, idleClose, ".tmp",
                    maxOpenFiles, compression, configDir, properties, null, buffer, journal, drainTimeout,
                    Overflow.block, null);
        }
    }
}
