package dev.logrouter.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.testing.Ports;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The syslog sink with {@code buffer: journal}, between real routers and real processes: a forward whose receiver
 * is down no longer holds the other sinks (isolation), its backlog is delivered once the receiver listens; a router
 * killed with {@code kill -9} (a child JVM, {@code Process.destroyForcibly}) loses nothing it journaled, also when
 * killed again and again while it delivers (duplicates only from the unacknowledged tail).
 */
class RelayJournalTest {

    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @TempDir
    Path dir;
    private final List<Router> routers = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (Process p : processes) {
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        for (Router r : routers) {
            r.stop();
        }
    }

    private Router start(String yaml) throws Exception {
        Router r = TestClient.startRouter(yaml);
        routers.add(r);
        return r;
    }

    /** A receiving router on {@code port}: every message's MSG as a line of {@code out}. */
    private Router receiver(int port, Path out) throws Exception {
        return start("""
                sources:
                  - {name: in, type: tcp, bind: "127.0.0.1:%d"}
                pipeline: {ring-size: 4096, parse-workers: 2}
                sinks:
                  - {name: out, type: file, path: "%s", template: "${MSG}\\n"}
                """.formatted(port, out));
    }

    /** A router with a TCP source, a file sink {@code local} and the forward sink {@code forward} (a YAML flow map). */
    private Router localAndForward(Path local, String forward) throws Exception {
        return start("""
                sources:
                  - {name: in, type: tcp, bind: "127.0.0.1:0"}
                pipeline: {ring-size: 4096, parse-workers: 2}
                sinks:
                  - {name: local, type: file, path: "%s", template: "${MSG}\\n"}
                  - %s
                """.formatted(local, forward));
    }

    private String journaledForward(int port, String sync) {
        return "{name: relay, type: syslog, hosts: [\"127.0.0.1:" + port + "\"], buffer: journal, reconnect-delay: "
                + "50ms, reconnect-delay-max: 200ms, journal: {dir: \"" + dir.resolve("journal") + "\", sync: " + sync
                + ", segment-size: 1MiB, free-disk-reserve: 0}}";
    }

    private static void send(String address, int conns, int perConn, int base) throws Exception {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        for (int c = 0; c < conns; c++) {
            int conn = c;
            Thread t = new Thread(() -> {
                try (Socket s = new Socket()) {
                    s.connect(dev.logrouter.netty.HostPort.parse(address), 5000);
                    OutputStream out = new java.io.BufferedOutputStream(s.getOutputStream(), 64 * 1024);
                    for (int i = 0; i < perConn; i++) {
                        out.write(("<13>Nov 26 10:00:00 h app: m " + conn + " " + (base + i) + "\n")
                                .getBytes(StandardCharsets.US_ASCII));
                    }
                    out.flush();
                } catch (Throwable e) {
                    synchronized (errors) {
                        errors.add(e);
                    }
                }
            }, "client-" + c);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join(300_000);
        }
        assertThat(errors).isEmpty();
    }

    /** Each expected line's count in {@code file}: missing ones and duplicates. */
    private static Map<String, Integer> counts(Path file) {
        Map<String, Integer> m = new HashMap<>();
        for (String l : TestClient.textLines(file)) {
            m.merge(l, 1, Integer::sum);
        }
        return m;
    }

    private static void assertAllArrived(Path file, int conns, int perConn, long maxDuplicates) {
        Map<String, Integer> m = counts(file);
        long duplicates = 0;
        for (int c = 0; c < conns; c++) {
            for (int i = 0; i < perConn; i++) {
                Integer n = m.get("m " + c + " " + i);
                assertThat(n).as("message %d of connection %d arrived", i, c).isNotNull();
                duplicates += n - 1;
            }
        }
        assertThat(m).hasSize(conns * perConn);
        assertThat(duplicates).as("duplicates").isLessThanOrEqualTo(maxDuplicates);
    }

    @Test
    void aForwardWhoseReceiverIsDownHoldsNothingElseAndDeliversItsBacklogLater() throws Exception {
        int port = Ports.freeLoopbackPort();
        Path local = dir.resolve("local.log");
        Router router = localAndForward(local, journaledForward(port, "none"));
        int conns = 10;
        int perConn = 100_000;
        send(router.boundAddress("in"), conns, perConn, 0);
        // the local file gets everything while nothing listens on the forward's port
        assertThat(TestClient.await(() -> TestClient.lines(local).size() >= conns * perConn, 120_000)).isTrue();
        MetricGroup relay = router.metrics().require("Sink", "relay");
        assertThat(TestClient.await(() -> relay.value("written") == conns * perConn, 30_000)).isTrue();
        assertThat(relay.value("backlogRecords")).isEqualTo(conns * perConn);
        assertThat(relay.value("delivered")).isZero();
        assertThat(relay.value("connectFailures")).isPositive();

        Path received = dir.resolve("received.log");
        receiver(port, received);
        assertThat(TestClient.await(() -> TestClient.lines(received).size() >= conns * perConn, 120_000))
                .as(() -> "received " + TestClient.lines(received).size()).isTrue();
        assertThat(TestClient.await(() -> relay.value("backlogRecords") == 0, 30_000)).isTrue();
        assertAllArrived(received, conns, perConn, relay.value("resent"));
        assertThat(relay.value("delivered")).isEqualTo(conns * perConn);
        assertThat(relay.value("segments")).as("delivered segments deleted").isLessThanOrEqualTo(1);
    }

    /** drop-newest keeps the oldest: the first message the sinks saw arrives, the last one was dropped. */
    @Test
    void aFullJournalWithDropNewestDropsCountsAndHoldsNothingElse() throws Exception {
        fullJournal("drop-newest", false);
    }

    /** drop-oldest keeps the newest: the last message the sinks saw arrives, the first one was dropped. */
    @Test
    void aFullJournalWithDropOldestKeepsTheNewest() throws Exception {
        fullJournal("drop-oldest", true);
    }

    /**
     * A 64 KiB journal (16 KiB segments) under 50,000 messages while the receiver is down: the local file sink gets
     * everything, the forward keeps what fits and counts the rest, nothing is held; then the kept ones arrive.
     */
    private void fullJournal(String overflow, boolean keepsNewest) throws Exception {
        int port = Ports.freeLoopbackPort();
        Path local = dir.resolve("local-" + overflow + ".log");
        Router router = localAndForward(local, ("{name: relay, type: syslog, hosts: [\"127.0.0.1:%d\"], buffer: journal, "
                + "overflow: %s, reconnect-delay: 50ms, reconnect-delay-max: 200ms, dead-letter: \"%s\", "
                + "journal: {dir: \"%s\", segment-size: 16KiB, max-size: 64KiB, free-disk-reserve: 0}}")
                .formatted(port, overflow, dir.resolve("dead-" + overflow + ".jsonl"),
                        dir.resolve("journal-" + overflow)));
        int conns = 10;
        int perConn = 5_000;
        send(router.boundAddress("in"), conns, perConn, 0);
        assertThat(TestClient.await(() -> TestClient.lines(local).size() >= conns * perConn, 60_000)).isTrue();
        MetricGroup relay = router.metrics().require("Sink", "relay");
        assertThat(TestClient.await(() -> relay.value("written") == conns * perConn, 30_000)).isTrue();
        long kept = relay.value("backlogRecords");
        long dropped = relay.value("overflowDropped");
        assertThat(dropped).as("dropped, counted").isPositive();
        assertThat(kept + dropped).isEqualTo(conns * perConn);
        assertThat(relay.value("journalBytes")).isLessThanOrEqualTo(64 * 1024);
        assertThat(relay.textValue("state")).as("running: nothing retried, nothing held").isEqualTo("RUNNING");

        Path received = dir.resolve("received-" + overflow + ".log");
        receiver(port, received);
        assertThat(TestClient.await(() -> relay.value("delivered") == kept, 60_000)).isTrue();
        assertThat(TestClient.await(() -> TestClient.lines(received).size() >= kept, 30_000)).isTrue();
        Map<String, Integer> m = counts(received);
        assertThat(m).hasSize((int) kept);
        assertThat(m.keySet()).allMatch(l -> l.matches("m \\d \\d+"));
        List<String> seen = TestClient.textLines(local); // the ring's order, which the journal's appends follow
        String first = seen.get(0);
        String last = seen.get(seen.size() - 1);
        assertThat(m.containsKey(first)).as("first message kept").isEqualTo(!keepsNewest);
        assertThat(m.containsKey(last)).as("last message kept").isEqualTo(keepsNewest);
    }

    /**
     * A full disk: the journal sits on a 256 KiB tmpfs (mounted by the test; skipped where it cannot mount, i.e. not
     * root), the receiver is down and the free-disk reserve is off, so a write hits ENOSPC and fails the journal.
     * With drop-newest the forward drops and counts what comes while it is failed and the file sink beside it gets
     * everything; once the receiver listens the journal is reopened, its backlog delivered (segments deleted: room
     * again), and messages sent afterwards are journaled and arrive. Every message arrives or is counted dropped.
     */
    @Test
    void aFullDiskFailsTheJournalWhichDropsCountsAndReopensOnceThereIsRoom() throws Exception {
        Path mount = dir.resolve("tmpfs");
        Files.createDirectories(mount);
        org.junit.jupiter.api.Assumptions.assumeTrue(mountTmpfs(mount, "256k"), "needs root to mount a tmpfs");
        try {
            int port = Ports.freeLoopbackPort();
            Path local = dir.resolve("local-disk-full.log");
            Router router = localAndForward(local, ("{name: relay, type: syslog, hosts: [\"127.0.0.1:%d\"], "
                    + "buffer: journal, overflow: drop-newest, reconnect-delay: 50ms, reconnect-delay-max: 200ms, "
                    + "journal: {dir: \"%s\", segment-size: 64KiB, max-size: 10MiB, free-disk-reserve: 0}}")
                    .formatted(port, mount.resolve("journal")));
            int conns = 10;
            int perConn = 2_000;
            send(router.boundAddress("in"), conns, perConn, 0);
            assertThat(TestClient.await(() -> TestClient.lines(local).size() >= conns * perConn, 60_000)).isTrue();
            MetricGroup relay = router.metrics().require("Sink", "relay");
            assertThat(TestClient.await(() -> relay.value("written") == conns * perConn, 30_000)).isTrue();
            assertThat(relay.value("overflowDropped")).as("dropped while the journal was failed").isPositive();
            assertThat(text(relay, "journalError")).contains("No space left on device");

            Path received = dir.resolve("received-disk-full.log");
            receiver(port, received);
            assertThat(TestClient.await(() -> relay.value("journalReopens") >= 1
                    && text(relay, "journalError").isEmpty() && relay.value("backlogRecords") == 0, 60_000))
                    .as(() -> "reopened and delivered: " + text(relay, "journalError")).isTrue();
            long dropped = relay.value("overflowDropped");
            assertThat(TestClient.await(() -> TestClient.textLines(received).size() + dropped >= conns * perConn,
                    30_000)).isTrue();
            Map<String, Integer> m = counts(received);
            assertThat(m.keySet()).allMatch(l -> l.matches("m \\d \\d+"));
            assertThat(m.size() + dropped).as("every message arrived or was counted dropped")
                    .isEqualTo(conns * perConn);

            send(router.boundAddress("in"), 1, 1_000, perConn); // after the reopen: journaled and delivered
            assertThat(TestClient.await(() -> counts(received).keySet().containsAll(
                    java.util.stream.IntStream.range(perConn, perConn + 1_000).mapToObj(i -> "m 0 " + i).toList()),
                    60_000)).isTrue();
            assertThat(relay.value("overflowDropped")).isEqualTo(dropped);
        } finally {
            for (Router r : routers) {
                r.stop();
            }
            routers.clear();
            new ProcessBuilder("umount", "-l", mount.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static String text(MetricGroup g, String name) {
        return g.texts().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow().value().get();
    }

    /** Mounts a tmpfs of {@code size} on {@code at}; false when that is not allowed here. */
    private static boolean mountTmpfs(Path at, String size) throws Exception {
        if (!"root".equals(System.getProperty("user.name"))) {
            return false;
        }
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", at.toString())
                .redirectErrorStream(true).start();
        return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    /**
     * A damaged journal at start: a router journals 5,000 messages with the receiver down and stops; then the active
     * segment is cut in the middle of a frame and a cursor slot is zeroed. A new router on the same journal starts (never refuses), counts the damage, and
     * delivers exactly the messages before it, in order, and the ones sent after the start.
     */
    @Test
    void aDamagedJournalAtStartIsCutCountedAndEverythingBeforeTheDamageDelivered() throws Exception {
        int port = Ports.freeLoopbackPort();
        Path local = dir.resolve("local-damaged.log");
        String forward = ("{name: relay, type: syslog, hosts: [\"127.0.0.1:%d\"], buffer: journal, reconnect-delay: "
                + "50ms, reconnect-delay-max: 200ms, drain-timeout: 100ms, journal: {dir: \"%s\", sync: batch, "
                + "segment-size: 1MiB, free-disk-reserve: 0}}").formatted(port, dir.resolve("journal-damaged"));
        Router first = localAndForward(local, forward);
        send(first.boundAddress("in"), 1, 5_000, 0);
        assertThat(TestClient.await(() -> TestClient.lines(local).size() >= 5_000, 60_000)).isTrue();
        MetricGroup before = first.metrics().require("Sink", "relay");
        assertThat(TestClient.await(() -> before.value("written") == 5_000, 30_000)).isTrue();
        first.stop();
        routers.remove(first);

        Path journal = dir.resolve("journal-damaged");
        Path segment;
        try (var files = Files.list(journal)) {
            segment = files.filter(f -> f.toString().endsWith(".seg")).sorted().reduce((a, b) -> b).orElseThrow();
        }
        long size = Files.size(segment);
        try (var ch = java.nio.channels.FileChannel.open(segment, java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(size * 2 / 3); // a torn tail: the cut lands inside a frame
        }
        try (var ch = java.nio.channels.FileChannel.open(journal.resolve("delivery.cursor"),
                java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.allocate(20), 0); // slot 0 zeroed
        }

        Path received = dir.resolve("received-damaged.log");
        receiver(port, received);
        Path local2 = dir.resolve("local-damaged-2.log");
        Router second = localAndForward(local2, forward);
        MetricGroup relay = second.metrics().require("Sink", "relay");
        assertThat(TestClient.await(() -> relay.value("recoveredBytes") > 0, 30_000)).as("bytes cut").isTrue();
        assertThat(relay.value("corruptFrames")).as("damaged frames counted").isPositive();
        assertThat(TestClient.await(() -> relay.value("delivered") > 0 && relay.value("backlogRecords") == 0,
                60_000)).isTrue();
        long kept = relay.value("delivered");
        assertThat(kept).isBetween(1L, 4_999L);
        send(second.boundAddress("in"), 1, 100, 5_000);
        assertThat(TestClient.await(() -> TestClient.textLines(received).size() >= kept + 100, 60_000)).isTrue();
        List<String> expected = new ArrayList<>(TestClient.textLines(local).subList(0, (int) kept));
        for (int i = 5_000; i < 5_100; i++) {
            expected.add("m 0 " + i);
        }
        assertThat(TestClient.textLines(received)).as("what was before the damage, in order, then the new ones")
                .isEqualTo(expected);
    }

    @Test
    void sigtermWhileTheReceiverIsDownKeepsEverythingForTheNextStart() throws Exception {
        int port = Ports.freeLoopbackPort();
        int conns = 10;
        int perConn = 20_000;
        Path log = dir.resolve("child-term.log");
        Process p = child(port, "interval", log);
        assertThat(TestClient.await(() -> TestClient.listening(log) != null, 60_000)).as("router started").isTrue();
        send(TestClient.listening(log), conns, perConn, 0);
        // the socket drain at a stop is the TCP source's own test (it waits for a quiet connection, a heuristic);
        // here the journal is under test: SIGTERM once everything was read, while the ring and journal still work
        assertThat(TestClient.await(() -> value(p, "/Source/in/received") == conns * perConn, 60_000))
                .as("everything read").isTrue();
        p.destroy();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(log)).isZero();
        processes.remove(p);

        Path received = dir.resolve("received-term.log");
        receiver(port, received);
        Path log2 = dir.resolve("child-term-2.log");
        Process again = child(port, "interval", log2);
        assertThat(TestClient.await(() -> TestClient.lines(received).size() >= conns * perConn, 120_000))
                .as(() -> "received " + TestClient.lines(received).size()).isTrue();
        assertAllArrived(received, conns, perConn, 0);
        again.destroy();
        assertThat(again.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }

    /** A router in a child JVM with a journaled forward to {@code port}; returns its process. */
    private Process child(int port, String sync, Path log) throws IOException {
        Path cfg = dir.resolve("child.yaml");
        Files.writeString(cfg, """
                sources:
                  - {name: in, type: tcp, bind: "127.0.0.1:0"}
                pipeline: {ring-size: 1024}
                sinks:
                  - %s
                """.formatted(journaledForward(port, sync)));
        Process p = new ProcessBuilder(JAVA, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "run", "--config", cfg.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.add(p);
        return p;
    }

    private static long sinkValue(Process p, String metric) {
        return value(p, "/Sink/relay/" + metric);
    }

    /** A metric of the child router at a JSON pointer of {@code stats --format json}; -1 when not readable. */
    private static long value(Process p, String pointer) {
        TestClient.StatsOutput json = TestClient.stats("--pid", Long.toString(p.pid()), "--format", "json");
        try {
            return new ObjectMapper().readTree(json.out()).at(pointer).asLong(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    private void kill(Process p) throws InterruptedException {
        p.destroyForcibly();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        processes.remove(p);
    }

    @Test
    void killMinusNineLosesNothingJournaledEvenWhenKilledAgainAndAgainWhileDelivering() throws Exception {
        int port = Ports.freeLoopbackPort();
        int conns = 3;
        int perConn = 100_000;
        Path log = dir.resolve("child-0.log");
        Process first = child(port, "none", log);
        assertThat(TestClient.await(() -> TestClient.listening(log) != null, 60_000)).as("router started").isTrue();
        send(TestClient.listening(log), conns, perConn, 0);
        assertThat(TestClient.await(() -> sinkValue(first, "written") == conns * perConn, 60_000))
                .as("everything journaled").isTrue();
        kill(first); // the receiver is still down: everything is in the journal only

        Path received = dir.resolve("received.log");
        receiver(port, received);
        Random random = new Random(42);
        int kills = 20;
        for (int k = 1; k <= kills; k++) {
            Path l = dir.resolve("child-" + k + ".log");
            Process p = child(port, "none", l);
            assertThat(TestClient.await(() -> TestClient.listening(l) != null, 60_000)).as("router started").isTrue();
            // somewhere in the delivery: once the receiver got a random number of further messages (or all of them)
            int target = Math.min(conns * perConn, TestClient.lines(received).size() + 1 + random.nextInt(20_000));
            assertThat(TestClient.await(() -> TestClient.lines(received).size() >= target, 60_000))
                    .as("delivery goes on after restart %d", k).isTrue();
            kill(p);
        }
        Path last = dir.resolve("child-last.log");
        Process p = child(port, "none", last);
        assertThat(TestClient.await(() -> TestClient.lines(received).size() >= conns * perConn
                && sinkValue(p, "backlogRecords") == 0, 120_000))
                .as(() -> "received " + TestClient.lines(received).size()).isTrue();
        // duplicates only from batches delivered but not acknowledged when a kill came: at most one batch per kill
        assertAllArrived(received, conns, perConn, (long) kills * 1000);
        p.destroy();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(last)).isZero();
    }
}
