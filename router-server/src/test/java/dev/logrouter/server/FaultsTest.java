package dev.logrouter.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.logrouter.netty.HostPort;
import dev.logrouter.core.metrics.MetricGroup;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Faults survived by a real router over real TCP on loopback: a sink slower than its senders holds them back
 * without loss and without unbounded memory (the sink writes into a FIFO that the test reads only when it wants
 * to); a sink failing on every event with {@code max-retries} is isolated (its events dead-lettered once each with
 * the reason, the other sink on the same route gets everything, the source keeps accepting, the router says
 * DEGRADED and RUNNING again after the cause is gone); a sink whose every flush fails (a full device) hands each batch
 * to its dead letters; and 10,000 connections opened and dropped (nothing sent, a full frame, a partial frame, reset)
 * leave no leaked buffer under paranoid leak detection.
 */
class FaultsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    // ------------------------------------------------------------------ a slow sink

    private static final int SLOW_CONNECTIONS = 2;
    /** Per connection: more than the kernel's socket buffers can absorb (tcp_rmem max 32 MiB, send buffer 64 KiB). */
    private static final int SLOW_MESSAGES = 44_000;
    private static final int PAD = 1000;
    /** Netty memory the sources may use: far below what is sent (about 88 MB). */
    private static final long DIRECT_BOUND = 24L << 20;

    /** One sender: writes its messages over one connection and counts the bytes the socket took. */
    private static final class Sender extends Thread {
        final AtomicLong written = new AtomicLong();
        final AtomicReference<Throwable> error = new AtomicReference<>();
        final long total;
        private final String address;
        private final byte[] data;

        Sender(String address, int conn) {
            super("sender-" + conn);
            setDaemon(true);
            this.address = address;
            StringBuilder sb = new StringBuilder(SLOW_MESSAGES * (PAD + 60));
            String pad = "p".repeat(PAD);
            for (int i = 0; i < SLOW_MESSAGES; i++) {
                sb.append("<13>Mar  1 10:00:00 host app: c=").append(conn).append(" n=").append(i).append(' ')
                        .append(pad).append('\n');
            }
            data = sb.toString().getBytes(StandardCharsets.US_ASCII);
            total = data.length;
        }

        @Override
        public void run() {
            try (Socket s = new Socket()) {
                s.setSendBufferSize(64 * 1024);
                s.connect(HostPort.parse(address), 5000);
                OutputStream out = s.getOutputStream();
                for (int off = 0; off < data.length; off += 64 * 1024) {
                    int n = Math.min(64 * 1024, data.length - off);
                    out.write(data, off, n); // blocks while the router does not read
                    written.addAndGet(n);
                }
            } catch (Throwable e) {
                error.set(e);
            }
        }
    }

    /** Reads the FIFO the sink writes, once allowed to, and checks that each message comes exactly once. */
    private static final class FifoReader extends Thread {
        final CountDownLatch go = new CountDownLatch(1);
        final AtomicInteger lines = new AtomicInteger();
        final AtomicInteger duplicates = new AtomicInteger();
        final AtomicInteger malformed = new AtomicInteger();
        final AtomicReference<Throwable> error = new AtomicReference<>();
        final BitSet[] seen = new BitSet[SLOW_CONNECTIONS];
        private final Path fifo;

        FifoReader(Path fifo) {
            super("fifo-reader");
            setDaemon(true); // a failed test must not leave it blocked in open
            this.fifo = fifo;
            for (int c = 0; c < SLOW_CONNECTIONS; c++) {
                seen[c] = new BitSet(SLOW_MESSAGES);
            }
        }

        @Override
        public void run() {
            // opening blocks until the sink opens its end (on its first line); reading waits for go
            try (InputStream in = new BufferedInputStream(new FileInputStream(fifo.toFile()), 1 << 16)) {
                go.await();
                ByteArrayOutputStream line = new ByteArrayOutputStream(PAD + 64);
                int b;
                while ((b = in.read()) >= 0) {
                    if (b != '\n') {
                        line.write(b);
                        continue;
                    }
                    check(line.toString(StandardCharsets.US_ASCII));
                    line.reset();
                    lines.incrementAndGet();
                }
            } catch (Throwable e) {
                error.set(e);
            }
        }

        private void check(String l) {
            // "c=<conn> n=<i> ppp…"
            String[] parts = l.split(" ", 3);
            if (parts.length != 3 || !parts[0].startsWith("c=") || !parts[1].startsWith("n=")
                    || parts[2].length() != PAD) {
                malformed.incrementAndGet();
                return;
            }
            int c = Integer.parseInt(parts[0].substring(2));
            int n = Integer.parseInt(parts[1].substring(2));
            if (seen[c].get(n)) {
                duplicates.incrementAndGet();
            }
            seen[c].set(n);
        }
    }

    private static long nettyDirectMemory() {
        ByteBufAllocator a = ByteBufAllocator.DEFAULT;
        assertThat(a).isInstanceOf(ByteBufAllocatorMetricProvider.class);
        return ((ByteBufAllocatorMetricProvider) a).metric().usedDirectMemory();
    }

    @Test
    void aSinkSlowerThanItsSendersHoldsThemBackWithoutLossAndWithBoundedMemory() throws Exception {
        Path fifo = dir.resolve("slow.fifo");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(mk.waitFor()).as("mkfifo").isZero();
        FifoReader reader = new FifoReader(fifo);
        reader.start();
        String yaml = """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0"}
                pipeline: {ring-size: 256, parse-workers: 1}
                sinks:
                  - {name: slow, type: file, path: "%s", template: "${MSG}\\n", batch-size: 100}
                """.formatted(fifo);
        long directBefore = nettyDirectMemory();
        Router router = TestClient.startRouter(yaml);
        List<Sender> senders = new ArrayList<>();
        long[] maxDirect = {directBefore};
        long[] maxKept = {0};
        MetricGroup source = router.metrics().require("Source", "net");
        Runnable sample = () -> {
            maxDirect[0] = Math.max(maxDirect[0], nettyDirectMemory());
            maxKept[0] = Math.max(maxKept[0], source.value("keptFrames"));
        };
        try {
            for (int c = 0; c < SLOW_CONNECTIONS; c++) {
                Sender s = new Sender(router.boundAddress("net"), c);
                senders.add(s);
                s.start();
            }
            long total = senders.stream().mapToLong(s -> s.total).sum();
            // nothing is read from the FIFO yet: the sink blocks in its write, the ring fills, the sources stop reading
            assertThat(TestClient.await(() -> {
                sample.run();
                return source.value("pausedConnections") == SLOW_CONNECTIONS;
            }, 60_000)).as("every connection paused").isTrue();
            assertThat(source.value("pauses")).isPositive();
            // the senders cannot finish: what they wrote sits in the socket buffers and the router's bounded buffers
            for (Sender s : senders) {
                assertThat(s.isAlive()).as("%s blocked in write", s.getName()).isTrue();
                assertThat(s.written.get()).isLessThan(s.total);
                assertThat(s.error.get()).isNull();
            }
            long stalledAt = senders.stream().mapToLong(s -> s.written.get()).sum();
            assertThat(stalledAt).isLessThan(total);

            reader.go.countDown(); // the sink may write again
            assertThat(TestClient.await(() -> {
                sample.run();
                return reader.lines.get() == SLOW_CONNECTIONS * SLOW_MESSAGES || reader.error.get() != null;
            }, 120_000)).as("every message read (%d so far)", reader.lines.get()).isTrue();
            for (Sender s : senders) {
                s.join(60_000);
                assertThat(s.error.get()).isNull();
                assertThat(s.written.get()).isEqualTo(s.total);
            }
        } finally {
            reader.go.countDown();
            assertThat(router.stop()).isTrue(); // the sink closes its end: the reader sees the end of the FIFO
        }
        reader.join(60_000);
        assertThat(reader.error.get()).isNull();
        assertThat(reader.isAlive()).isFalse();
        assertThat(reader.malformed.get()).isZero();
        assertThat(reader.duplicates.get()).isZero();
        assertThat(reader.lines.get()).isEqualTo(SLOW_CONNECTIONS * SLOW_MESSAGES);
        for (int c = 0; c < SLOW_CONNECTIONS; c++) {
            assertThat(reader.seen[c].cardinality()).isEqualTo(SLOW_MESSAGES);
        }
        assertThat(router.metrics().require("Sink", "slow").value("written"))
                .isEqualTo((long) SLOW_CONNECTIONS * SLOW_MESSAGES);
        assertThat(source.value("pauses")).isPositive();
        // bounded: the sources' Netty buffers stayed far below what went through them (each connection holds at most
        // one read loop, 16 reads of 64 KiB, while paused), and so did the frames of closed connections kept waiting
        long sent = (long) SLOW_CONNECTIONS * SLOW_MESSAGES * (PAD + 40);
        assertThat(maxDirect[0] - directBefore).as("Netty direct memory used beyond the start")
                .isLessThan(DIRECT_BOUND).isLessThan(sent / 3);
        assertThat(maxKept[0]).isLessThanOrEqualTo(SLOW_CONNECTIONS * (17L * 64 * 1024 / PAD + 1));
    }

    // ------------------------------------------------------------------ a sink failing on every event

    private static String message(int conn, int i) {
        return "<13>Mar  1 10:00:00 web1 app: c=" + conn + " n=" + i;
    }

    private static byte[] burst(int conn, int count) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            sb.append(message(conn, i)).append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static List<JsonNode> deadLetters(Path file) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        if (Files.exists(file)) {
            for (String l : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                out.add(JSON.readTree(l));
            }
        }
        return out;
    }

    @Test
    void aSinkFailingOnEveryEventIsIsolatedByMaxRetriesAndItsEventsDeadLettered() throws Exception {
        // the broken sink's base directory is a regular file: neither its path nor invalid-path.log can be opened
        Path blocker = dir.resolve("broken");
        Files.writeString(blocker, "not a directory");
        Path dead = dir.resolve("dead/broken.jsonl");
        Path good = dir.resolve("good.log");
        String yaml = """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0"}
                pipeline: {ring-size: 64, parse-workers: 1}
                sinks:
                  - {name: broken, type: file, path: "%s/${HOST}.log", template: "${MSG}\\n", max-retries: 2,
                     dead-letter: "%s"}
                  - {name: good, type: file, path: "%s", template: "${MSG}\\n"}
                routes:
                  - {name: all, to: [broken, good]}
                """.formatted(blocker, dead, good);
        Router router = TestClient.startRouter(yaml);
        int connections = 3;
        int perConnection = 500; // 1,500 messages through a ring of 64: a sink that held the ring would stall them
        try {
            MetricGroup source = router.metrics().require("Source", "net");
            MetricGroup broken = router.metrics().require("Sink", "broken");
            assertThat(router.state()).isEqualTo("RUNNING");
            for (int c = 0; c < connections; c++) {
                TestClient.sendTcp(router.boundAddress("net"), burst(c, perConnection));
            }
            int total = connections * perConnection;
            assertThat(TestClient.await(() -> TestClient.lines(good).size() == total, 60_000))
                    .as("the good sink got %d of %d", TestClient.lines(good).size(), total).isTrue();
            // deadLettered is the last counter the sink moves for an event: after it, the letter is written
            assertThat(TestClient.await(() -> broken.value("deadLettered") == total, 30_000)).isTrue();
            assertThat(broken.value("givenUp")).isEqualTo(total);
            assertThat(router.state()).isEqualTo("DEGRADED");
            assertThat(broken.textValue("state")).isEqualTo("GIVING_UP");
            assertThat(router.metrics().require("Router", "main").texts()).anySatisfy(t -> {
                assertThat(t.name()).isEqualTo("degradedBy");
                assertThat(t.value().get()).startsWith("sink broken: APPEND: ");
            });
            // the first event waited for its two retries; every later one was given up at its first failure
            assertThat(broken.value("retries")).isEqualTo(2);
            assertThat(broken.value("failures")).isEqualTo(total + 2);
            assertThat(broken.value("deadLettered")).isEqualTo(total);
            assertThat(broken.value("deadLetterFailures")).isZero();
            assertThat(broken.value("written")).isZero();
            assertThat(broken.value("lost")).isZero();

            List<JsonNode> letters = deadLetters(dead);
            assertThat(letters).hasSize(total);
            Set<String> expected = new HashSet<>();
            for (int c = 0; c < connections; c++) {
                for (int i = 0; i < perConnection; i++) {
                    expected.add(message(c, i));
                }
            }
            assertThat(letters).extracting(l -> l.get("event").asText()).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(expected);
            assertThat(letters.get(0).get("reason").asText()).startsWith("append given up after 2 retries: APPEND: ")
                    .contains(blocker.toString());
            assertThat(letters.subList(1, total)).allSatisfy(l -> assertThat(l.get("reason").asText())
                    .startsWith("append given up at once (max-retries 2 ran out before): APPEND: "));
            assertThat(letters).allSatisfy(l -> assertThat(l.get("sink").asText()).isEqualTo("broken"));

            // the source kept accepting: one more connection, delivered to the good sink at once
            TestClient.sendTcp(router.boundAddress("net"), message(9, 0) + "\n");
            assertThat(TestClient.await(() -> TestClient.lines(good).size() == total + 1, 30_000)).isTrue();
            assertThat(source.value("acceptedConnections")).isEqualTo(connections + 1);
            assertThat(source.value("received")).isEqualTo(total + 1);
            assertThat(TestClient.await(() -> broken.value("givenUp") == total + 1, 30_000)).isTrue();

            // the cause goes away: the next event is written, and the router is RUNNING again
            Files.delete(blocker);
            TestClient.sendTcp(router.boundAddress("net"), message(10, 0) + "\n");
            assertThat(TestClient.await(() -> broken.value("written") == 1, 30_000)).isTrue();
            assertThat(TestClient.await(() -> "RUNNING".equals(router.state()), 30_000)).isTrue();
            assertThat(broken.textValue("state")).isEqualTo("RUNNING");
            assertThat(TestClient.textLines(blocker.resolve("web1.log"))).containsExactly("c=10 n=0");
            assertThat(deadLetters(dead)).hasSize(total + 1);
        } finally {
            assertThat(router.stop()).isTrue();
        }
        assertThat(Files.readAllLines(good, StandardCharsets.US_ASCII)).hasSize(connections * perConnection + 2)
                .doesNotHaveDuplicates();
    }

    @Test
    void aSinkWhoseEveryFlushFailsHandsEachBatchToItsDeadLetters() throws Exception {
        // a real full device: every write to /dev/full fails with ENOSPC
        Path full = Path.of("/dev/full");
        assertThat(Files.isWritable(full)).as("/dev/full").isTrue();
        Path dead = dir.resolve("full.jsonl");
        Path good = dir.resolve("good.log");
        String yaml = """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0"}
                pipeline: {ring-size: 64, parse-workers: 1}
                sinks:
                  - {name: full, type: file, path: "%s", template: "${MSG}\\n", batch-size: 10, max-retries: 1,
                     dead-letter: "%s"}
                  - {name: good, type: file, path: "%s", template: "${MSG}\\n"}
                """.formatted(full, dead, good);
        Router router = TestClient.startRouter(yaml);
        int total = 1000;
        MetricGroup sink = router.metrics().require("Sink", "full");
        try {
            TestClient.sendTcp(router.boundAddress("net"), burst(0, total));
            assertThat(TestClient.await(() -> TestClient.lines(good).size() == total, 60_000)).isTrue();
            assertThat(TestClient.await(() -> sink.value("givenUp") == total, 30_000)).isTrue();
            assertThat(router.state()).isEqualTo("DEGRADED");
        } finally {
            assertThat(router.stop()).isTrue();
        }
        List<JsonNode> letters = deadLetters(dead);
        // one dead letter per given-up batch (at most batch-size lines each), all lines of all batches once
        assertThat(letters).hasSizeBetween(total / 10, total);
        assertThat(sink.value("deadLettered")).isEqualTo(letters.size());
        List<String> lines = new ArrayList<>();
        for (JsonNode l : letters) {
            assertThat(l.get("target").asText()).isEqualTo(full.toString());
            assertThat(l.get("reason").asText()).startsWith("flush given up").contains("FLUSH: ")
                    .contains("No space left on device");
            String event = l.get("event").asText();
            assertThat(event).endsWith("\n");
            lines.addAll(Arrays.asList(event.substring(0, event.length() - 1).split("\n")));
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            expected.add("c=0 n=" + i);
        }
        assertThat(lines).containsExactlyElementsOf(expected);
        assertThat(sink.value("written")).isZero();
        assertThat(sink.value("lost")).isZero();
    }

    // ------------------------------------------------------------------ 10,000 connections opened and dropped

    private static final int DROPPED_CONNECTIONS = 10_000;
    private static final int CLIENT_THREADS = 4;
    /**
     * Most connections a client may have opened that the router has not accepted yet. A TCP connect completes in
     * the kernel, so clients that do not wait can outrun the acceptor (slow here: paranoid leak detection) past
     * the listen backlog; the kernel then drops handshakes, and a connection whose sender resets meanwhile is
     * never accepted at all. This test is about leaks, not about the backlog, so it stays well below it.
     */
    private static final int MAX_NOT_ACCEPTED = 128;

    /** System.err as it is, and a copy of everything printed to it while the test runs. */
    private static final class Tee extends OutputStream {
        private final PrintStream original;
        private final ByteArrayOutputStream copy = new ByteArrayOutputStream();

        Tee(PrintStream original) {
            this.original = original;
        }

        @Override
        public synchronized void write(int b) {
            original.write(b);
            copy.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            original.write(b, off, len);
            copy.write(b, off, len);
        }

        synchronized String text() {
            return copy.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void tenThousandConnectionsOpenedAndDroppedLeakNothing() throws Exception {
        assertThat(io.netty.util.ResourceLeakDetector.getLevel())
                .isEqualTo(io.netty.util.ResourceLeakDetector.Level.PARANOID);
        Path out = dir.resolve("out.log");
        String yaml = """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0"}
                sinks:
                  - {name: file, type: file, path: "%s", template: "${MSG}\\n"}
                """.formatted(out);
        PrintStream originalErr = System.err;
        Tee tee = new Tee(originalErr);
        System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8)); // Netty reports leaks through slf4j-simple
        Router router = TestClient.startRouter(yaml);
        MetricGroup source = router.metrics().require("Source", "net");
        String address = router.boundAddress("net");
        AtomicReference<Throwable> error = new AtomicReference<>();
        AtomicInteger connecting = new AtomicInteger();
        try {
            List<Thread> clients = new ArrayList<>();
            for (int t = 0; t < CLIENT_THREADS; t++) {
                int first = t;
                Thread client = new Thread(() -> {
                    try {
                        for (int i = first; i < DROPPED_CONNECTIONS; i += CLIENT_THREADS) {
                            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                            while (connecting.get() - taken(source) >= MAX_NOT_ACCEPTED) {
                                if (System.nanoTime() - giveUp > 0 || error.get() != null) {
                                    throw new IllegalStateException("no progress: " + connecting.get()
                                            + " connections made, " + taken(source) + " taken by the router");
                                }
                                LockSupport.parkNanos(200_000);
                            }
                            connecting.incrementAndGet();
                            dropOne(address, i);
                        }
                    } catch (Throwable e) {
                        error.compareAndSet(null, e);
                    }
                }, "client-" + t);
                client.setDaemon(true);
                clients.add(client);
                client.start();
            }
            for (Thread c : clients) {
                c.join(120_000);
                assertThat(c.isAlive()).isFalse();
            }
            assertThat(error.get()).isNull();
            assertThat(TestClient.await(() -> source.value("acceptedConnections") == DROPPED_CONNECTIONS, 30_000))
                    .as("accepted %d", source.value("acceptedConnections")).isTrue();
            assertThat(TestClient.await(() -> source.value("connections") == 0, 30_000))
                    .as("open connections %d", source.value("connections")).isTrue();
            int full = DROPPED_CONNECTIONS / 4;
            // every full frame of a connection closed normally arrives; one closed by a reset may or may not
            assertThat(TestClient.await(() -> TestClient.lines(out).size() >= full, 30_000)).isTrue();
            assertThat(source.value("rejectedConnections")).isZero();
            assertThat(source.value("partialFrames")).isBetween((long) full, 2L * full);
            assertThat(source.value("ioErrors")).isLessThanOrEqualTo(full);
            assertThat(source.value("keptFrames")).isZero();

            // a buffer dropped without release() is reported when the collector has found it unreachable and a
            // later allocation polls the detector: a probe leaked on purpose, last, shows when that has happened
            leakProbe();
            assertThat(TestClient.await(() -> {
                System.gc();
                ByteBufAllocator.DEFAULT.directBuffer(16).release();
                ByteBufAllocator.DEFAULT.heapBuffer(16).release();
                return tee.text().contains("fault-test leak probe");
            }, 60_000)).as("the probe's leak was reported").isTrue();
        } finally {
            System.setErr(originalErr);
            router.stop();
        }
        List<String> leaks = new ArrayList<>();
        for (String report : tee.text().split("(?=LEAK: )")) {
            if (report.startsWith("LEAK: ") && !report.contains("fault-test leak probe")) {
                leaks.add(report);
            }
        }
        assertThat(leaks).as("leak reports other than the probe's").isEmpty();

        Set<String> delivered = new HashSet<>();
        for (String l : TestClient.textLines(out)) {
            assertThat(delivered.add(l)).as("delivered once: %s", l).isTrue();
        }
        for (int i = 1; i < DROPPED_CONNECTIONS; i += 4) {
            assertThat(delivered).contains("full " + i);
        }
        for (String l : delivered) {
            int i = Integer.parseInt(l.substring("full ".length()));
            assertThat(i % 4).as("only full frames: %s", l).isIn(1, 3);
        }
    }

    /** Allocates a buffer, touches it with a hint and drops it without release(). */
    private static void leakProbe() {
        io.netty.buffer.ByteBuf probe = ByteBufAllocator.DEFAULT.directBuffer(16);
        probe.touch("fault-test leak probe");
        probe.writeByte(1);
    }

    /**
     * Opens connection {@code i} and drops it, by {@code i % 4}: 0 sends nothing and closes, 1 sends a full
     * octet-counted frame and closes, 2 sends a partial frame and closes, 3 sends a full and a partial frame and
     * resets the connection (SO_LINGER 0).
     */
    /** Connections the router has taken from the kernel: accepted, or refused by a limit. */
    private static long taken(MetricGroup source) {
        return source.value("acceptedConnections") + source.value("rejectedConnections")
                + source.value("rejectedPerIpConnections");
    }

    private static void dropOne(String address, int i) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(HostPort.parse(address), 5000);
            OutputStream o = s.getOutputStream();
            switch (i % 4) {
                case 0 -> {
                }
                case 1 -> o.write(TestClient.octet("<13>Mar  1 10:00:00 h app: full " + i));
                case 2 -> o.write(("200 <13>Mar  1 10:00:00 h app: partial " + i).getBytes(StandardCharsets.US_ASCII));
                default -> {
                    byte[] f = TestClient.octet("<13>Mar  1 10:00:00 h app: full " + i);
                    byte[] p = ("300 <13>Mar  1 10:00:00 h app: cut " + i).getBytes(StandardCharsets.US_ASCII);
                    byte[] both = Arrays.copyOf(f, f.length + p.length);
                    System.arraycopy(p, 0, both, f.length, p.length);
                    o.write(both);
                    s.setSoLinger(true, 0);
                }
            }
            o.flush();
        }
    }
}
