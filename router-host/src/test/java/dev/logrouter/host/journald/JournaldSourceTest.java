package dev.logrouter.host.journald;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.testing.Conditions;
import dev.logrouter.host.journald.JournalFiles.Entry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The journald source against real journal files (written by systemd-journal-remote), a real journalctl and a real
 * Disruptor ring whose first stage is the real header parser: what arrives is what a sink would see.
 *
 * <p>Threads: the test thread; the source's and the ring's threads run as in the router.
 */
class JournaldSourceTest {

    private static final ZoneId ZONE = ZoneId.of("Europe/Berlin");
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path tmp;
    private Path journalDir;
    private Path journal;
    private final List<JournaldSource> sources = new ArrayList<>();
    private final List<TestRing> rings = new ArrayList<>();

    @BeforeEach
    void tools() {
        JournalFiles.assumeTools();
        journalDir = tmp.resolve("journal");
        journal = journalDir.resolve("test.journal");
    }

    @AfterEach
    void stop() {
        sources.forEach(JournaldSource::close);
        rings.forEach(TestRing::close);
    }

    private JournaldSourceConfig config(String dir, JournaldSourceConfig.StartAt startAt, long maxMessage,
                                        String journalctl) {
        return new JournaldSourceConfig("jd", journalctl, dir, List.of(), List.of(), startAt,
                tmp.resolve("checkpoints").toString(), new TimeSpan(TimeUnit.MILLISECONDS.toNanos(20)),
                new ByteSize(maxMessage), ".journald.");
    }

    private JournaldSourceConfig config(JournaldSourceConfig.StartAt startAt) {
        return config(journalDir.toString(), startAt, 64 << 10, "journalctl");
    }

    private TestRing ring(int size) {
        TestRing r = new TestRing(size, ZONE);
        rings.add(r);
        return r;
    }

    private JournaldSource start(JournaldSourceConfig cfg, TestRing ring, MetricGroup metrics) throws Exception {
        JournaldSource s = new JournaldSource(cfg, ring.ring(), ring::completed, 3, ZONE, metrics);
        sources.add(s);
        s.start();
        return s;
    }

    private static String text(LogEvent e, int field) {
        return new String(e.fieldArray(field), e.fieldOffset(field), e.fieldLength(field), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(LogEvent e, int field) {
        return Arrays.copyOfRange(e.fieldArray(field), e.fieldOffset(field),
                e.fieldOffset(field) + e.fieldLength(field));
    }

    private static List<String> messages(TestRing ring) {
        return ring.events().stream().map(e -> text(e, LogEvent.MSG)).toList();
    }

    private static Entry plain(int i) {
        return Entry.at(i, "MESSAGE", "entry " + i, "PRIORITY", "6", "SYSLOG_IDENTIFIER", "app", "_HOSTNAME", "h1");
    }

    private static List<Entry> plain(int from, int to) {
        List<Entry> l = new ArrayList<>();
        for (int i = from; i < to; i++) {
            l.add(plain(i));
        }
        return l;
    }

    private void stopAndClose(JournaldSource s) throws InterruptedException {
        s.stopAccepting();
        assertThat(s.awaitPublished(30, TimeUnit.SECONDS)).isTrue();
        s.close();
        sources.remove(s);
    }

    @Test
    void mapsEveryFieldAndTheHeaderParserKeepsThem() throws Exception {
        byte[] binary = {'b', 'i', 'n', 1, 'a', 'r', 'y', (byte) 0xff};
        JournalFiles.append(journal, List.of(
                Entry.at(0, "MESSAGE", "Accepted publickey for root", "PRIORITY", "6", "SYSLOG_FACILITY", "4",
                        "SYSLOG_IDENTIFIER", "sshd", "SYSLOG_PID", "41", "_PID", "42", "_COMM", "sshd-session",
                        "_HOSTNAME", "web-1", "_SYSTEMD_UNIT", "ssh.service", "_TRANSPORT", "syslog",
                        "TAG", "first", "TAG", "second"),
                Entry.at(1, "MESSAGE", "usb 1-1: new device", "PRIORITY", "4", "_TRANSPORT", "kernel",
                        "_HOSTNAME", "web-1"),
                Entry.at(2, "MESSAGE", binary, "_HOSTNAME", "web-1", "SYSLOG_IDENTIFIER", "blob"),
                Entry.at(3, "MESSAGE", "x".repeat(3000), "_HOSTNAME", "web-1", "DETAIL", "y".repeat(1500)),
                Entry.at(4, "MESSAGE", "Grüße ✓ 日本", "_HOSTNAME", "web-1", "_COMM", "bash", "SYSLOG_PID", "7",
                        "PRIORITY", "not-a-number")));
        TestRing ring = ring(1024);
        MetricGroup metrics = new MetricGroup("Source", "jd");
        start(config(journalDir.toString(), JournaldSourceConfig.StartAt.beginning, 1024, "journalctl"), ring,
                metrics);
        assertThat(Conditions.await(() -> ring.count() == 5, WAIT)).as("5 entries arrive").isTrue();
        List<LogEvent> ev = ring.events();

        LogEvent ssh = ev.get(0);
        assertThat(ssh.formatHint()).isEqualTo(LogEvent.FORMAT_RAW);
        assertThat(ssh.hasFlag(LogEvent.FLAG_PARSE_ERROR)).isFalse();
        assertThat(ssh.sourceId()).isEqualTo(3);
        assertThat(text(ssh, LogEvent.MSG)).isEqualTo("Accepted publickey for root");
        assertThat(text(ssh, LogEvent.HOST)).isEqualTo("web-1");
        assertThat(text(ssh, LogEvent.PROGRAM)).isEqualTo("sshd");
        assertThat(text(ssh, LogEvent.PID)).isEqualTo("42"); // _PID wins over SYSLOG_PID
        assertThat(ssh.pri()).isEqualTo(4 * 8 + 6); // auth.info
        assertThat(ssh.stampEpochSecond()).isEqualTo(1_700_000_000L);
        assertThat(ssh.stampMicros()).isEqualTo(123_456);
        assertThat(ssh.stampOffsetSeconds()).isEqualTo(3600); // Berlin in November
        assertThat(ssh.stampFracDigits()).isEqualTo(6); // real microseconds: an RFC 5424 relay writes all 6
        assertThat(ssh.fields().get(".journald._SYSTEMD_UNIT")).isEqualTo("ssh.service");
        assertThat(ssh.fields().get(".journald._COMM")).isEqualTo("sshd-session");
        assertThat(ssh.fields().get(".journald.SYSLOG_PID")).isEqualTo("41");
        assertThat(ssh.fields().get(".journald._TRANSPORT")).isEqualTo("syslog");
        assertThat(ssh.fields().get(".journald._BOOT_ID")).isEqualTo(JournalFiles.BOOT_ID);
        assertThat(ssh.fields().get(".journald.TAG")).isEqualTo("first"); // a field given twice: the first value
        // the header fields and the entry's address are not repeated as name-value pairs
        for (String f : List.of("MESSAGE", "_HOSTNAME", "SYSLOG_IDENTIFIER", "_PID", "PRIORITY", "SYSLOG_FACILITY",
                "__CURSOR", "__REALTIME_TIMESTAMP", "__MONOTONIC_TIMESTAMP")) {
            assertThat(ssh.fields().get(".journald." + f)).as(f).isNull();
        }

        LogEvent kernel = ev.get(1);
        assertThat(text(kernel, LogEvent.MSG)).isEqualTo("usb 1-1: new device");
        assertThat(kernel.pri()).isEqualTo(4); // kern.warning: no SYSLOG_FACILITY, kernel transport
        assertThat(kernel.isFieldSet(LogEvent.PROGRAM)).isFalse();
        assertThat(kernel.isFieldSet(LogEvent.PID)).isFalse();

        LogEvent blob = ev.get(2);
        assertThat(bytes(blob, LogEvent.MSG)).isEqualTo(binary);
        assertThat(blob.pri()).isEqualTo(LogEvent.DEFAULT_PRI); // user.notice
        assertThat(text(blob, LogEvent.PROGRAM)).isEqualTo("blob");

        LogEvent big = ev.get(3);
        assertThat(text(big, LogEvent.MSG)).isEqualTo("x".repeat(1024));
        assertThat(big.fields().get(".journald.DETAIL")).isEqualTo("y".repeat(1024));

        LogEvent utf8 = ev.get(4);
        assertThat(text(utf8, LogEvent.MSG)).isEqualTo("Grüße ✓ 日本");
        assertThat(text(utf8, LogEvent.PROGRAM)).isEqualTo("bash"); // _COMM stands in
        assertThat(text(utf8, LogEvent.PID)).isEqualTo("7"); // SYSLOG_PID stands in
        assertThat(utf8.severity()).isEqualTo(5); // an invalid PRIORITY: notice

        assertThat(metrics.value("received")).isEqualTo(5);
        assertThat(metrics.value("truncated")).isEqualTo(1);
        assertThat(metrics.value("errors")).isZero();
    }

    @Test
    void aRestartResumesAfterTheSavedCursorWithoutLossOrRepeat() throws Exception {
        JournalFiles.append(journal, plain(0, 10));
        TestRing ring1 = ring(1024);
        MetricGroup m1 = new MetricGroup("Source", "jd");
        JournaldSource s1 = start(config(JournaldSourceConfig.StartAt.beginning), ring1, m1);
        assertThat(Conditions.await(() -> ring1.count() == 10, WAIT)).isTrue();
        assertThat(Conditions.await(() -> m1.value("cursorLag") == 0, WAIT)).as("cursor saved").isTrue();
        stopAndClose(s1);
        Path cursor = tmp.resolve("checkpoints/jd.cursor");
        assertThat(Files.readString(cursor)).startsWith("s=").contains(";i=a;");

        JournalFiles.append(journal, plain(10, 15));
        TestRing ring2 = ring(1024);
        JournaldSource s2 = start(config(JournaldSourceConfig.StartAt.beginning), ring2,
                new MetricGroup("Source", "jd"));
        JournalFiles.append(journal, List.of(plain(15))); // while it follows
        assertThat(Conditions.await(() -> ring2.count() >= 6, WAIT)).isTrue();
        stopAndClose(s2);
        assertThat(messages(ring2)).containsExactly("entry 10", "entry 11", "entry 12", "entry 13", "entry 14",
                "entry 15");
    }

    @Test
    void entriesTheSinksDidNotAcknowledgeAreReadAgain() throws Exception {
        JournalFiles.append(journal, plain(0, 4));
        TestRing ring1 = ring(1024);
        MetricGroup m1 = new MetricGroup("Source", "jd");
        JournaldSource s1 = start(config(JournaldSourceConfig.StartAt.beginning), ring1, m1);
        assertThat(Conditions.await(() -> ring1.count() == 4 && m1.value("cursorLag") == 0, WAIT)).isTrue();
        String acked = Files.readString(tmp.resolve("checkpoints/jd.cursor"));

        ring1.ackUpTo = ring1.consumed(); // the sinks hold back from here on
        JournalFiles.append(journal, plain(4, 8));
        assertThat(Conditions.await(() -> ring1.count() == 8, WAIT)).isTrue();
        assertThat(m1.value("cursorLag")).isEqualTo(4);
        // a crash now (the ring never drains): the cursor still names entry 3
        s1.close();
        sources.remove(s1);
        assertThat(Files.readString(tmp.resolve("checkpoints/jd.cursor"))).isEqualTo(acked);

        TestRing ring2 = ring(1024);
        JournaldSource s2 = start(config(JournaldSourceConfig.StartAt.end), ring2, new MetricGroup("Source", "jd"));
        assertThat(Conditions.await(() -> ring2.count() == 4, WAIT)).isTrue();
        JournalFiles.append(journal, List.of(plain(8)));
        assertThat(Conditions.await(() -> ring2.count() == 5, WAIT)).isTrue();
        stopAndClose(s2);
        assertThat(messages(ring2)).containsExactly("entry 4", "entry 5", "entry 6", "entry 7", "entry 8");
    }

    @Test
    void followsAppendsAndNewFilesOfTheDirectory() throws Exception {
        JournalFiles.append(journal, plain(0, 3));
        TestRing ring = ring(1024);
        JournaldSource s = start(config(JournaldSourceConfig.StartAt.beginning), ring,
                new MetricGroup("Source", "jd"));
        assertThat(Conditions.await(() -> ring.count() == 3, WAIT)).isTrue();
        JournalFiles.append(journal, plain(3, 5));
        assertThat(Conditions.await(() -> ring.count() == 5, WAIT)).isTrue();
        JournalFiles.append(journalDir.resolve("second.journal"), plain(5, 7)); // a file journalctl did not open
        assertThat(Conditions.await(() -> ring.count() == 7, WAIT)).isTrue();
        stopAndClose(s);
        assertThat(messages(ring)).containsExactly("entry 0", "entry 1", "entry 2", "entry 3", "entry 4",
                "entry 5", "entry 6");
    }

    @Test
    void startAtEndSkipsWhatTheJournalHeld() throws Exception {
        JournalFiles.append(journal, plain(0, 3));
        TestRing ring = ring(1024);
        JournaldSource s = start(config(JournaldSourceConfig.StartAt.end), ring, new MetricGroup("Source", "jd"));
        // journalctl gives no sign when it has positioned itself at the end: append until something arrives
        int next = 3;
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (ring.count() == 0 && System.nanoTime() < deadline) {
            JournalFiles.append(journal, List.of(plain(next++)));
            Conditions.await(() -> ring.count() > 0, Duration.ofMillis(500));
        }
        int last = next - 1;
        assertThat(Conditions.await(() -> messages(ring).contains("entry " + last), WAIT)).isTrue();
        stopAndClose(s);
        List<String> got = messages(ring);
        assertThat(got).doesNotContain("entry 0", "entry 1", "entry 2").isNotEmpty();
        assertThat(got.get(got.size() - 1)).isEqualTo("entry " + last);
    }

    @Test
    void aFullRingStopsTheReadingAndNothingIsDropped() throws Exception {
        int n = 3000;
        JournalFiles.append(journal, plain(0, n));
        TestRing ring = ring(16);
        ring.pause = true;
        MetricGroup metrics = new MetricGroup("Source", "jd");
        JournaldSource s = start(config(JournaldSourceConfig.StartAt.beginning), ring, metrics);
        // the ring fills (16 slots, the held one included) and the source waits: journalctl blocks on its pipe
        assertThat(Conditions.await(() -> metrics.value("received") >= 16, WAIT)).isTrue();
        assertThat(Conditions.await(() -> false, Duration.ofMillis(300))).isFalse(); // give it time to overrun
        assertThat(metrics.value("received")).isLessThanOrEqualTo(17);
        ring.pause = false;
        assertThat(Conditions.await(() -> ring.count() == n, WAIT)).isTrue();
        stopAndClose(s);
        List<String> got = messages(ring);
        for (int i = 0; i < n; i++) {
            assertThat(got.get(i)).isEqualTo("entry " + i);
        }
        assertThat(metrics.value("errors")).isZero();
    }

    @Test
    void aFailingJournalctlIsRestartedWithBackoff() throws Exception {
        TestRing ring = ring(64);
        MetricGroup metrics = new MetricGroup("Source", "jd");
        // the directory does not exist yet: journalctl exits at once, and again after 1 s
        JournaldSource s = start(config(JournaldSourceConfig.StartAt.beginning), ring, metrics);
        assertThat(Conditions.await(() -> metrics.value("restarts") >= 1 && metrics.value("errors") >= 2, WAIT))
                .isTrue();
        JournalFiles.append(journal, plain(0, 2));
        assertThat(Conditions.await(() -> ring.count() == 2, WAIT)).as("read once journalctl could start").isTrue();
        stopAndClose(s);
        assertThat(messages(ring)).containsExactly("entry 0", "entry 1");
    }

    @Test
    void aMissingBinaryIsCountedAndStopsPromptly() throws Exception {
        TestRing ring = ring(64);
        MetricGroup metrics = new MetricGroup("Source", "jd");
        JournaldSource s = start(config(journalDir.toString(), JournaldSourceConfig.StartAt.beginning, 1024,
                tmp.resolve("no-such-journalctl").toString()), ring, metrics);
        assertThat(Conditions.await(() -> metrics.value("errors") >= 1, WAIT)).isTrue();
        long t = System.nanoTime();
        stopAndClose(s);
        assertThat(System.nanoTime() - t).isLessThan(TimeUnit.SECONDS.toNanos(5));
        assertThat(ring.count()).isZero();
    }
}
