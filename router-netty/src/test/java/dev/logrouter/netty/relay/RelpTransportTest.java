package dev.logrouter.netty.relay;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.journal.Buffer;
import dev.logrouter.core.journal.JournalConfig;
import dev.logrouter.core.journal.Overflow;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.sink.SinkContext;
import dev.logrouter.core.source.SyslogFormat;
import dev.logrouter.core.testing.Conditions;
import dev.logrouter.core.testing.ManualClock;
import dev.logrouter.core.testing.TestPki;
import dev.logrouter.core.util.Clock;
import dev.logrouter.netty.HostPort;
import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.RingPublisher;
import dev.logrouter.netty.relay.SyslogSinkConfig.Format;
import dev.logrouter.netty.relay.SyslogSinkConfig.Mode;
import dev.logrouter.netty.relay.SyslogSinkConfig.Transport;
import dev.logrouter.netty.relp.RelpFrames;
import dev.logrouter.netty.relp.RelpSource;
import dev.logrouter.netty.relp.RelpSourceConfig;
import dev.logrouter.netty.tls.TlsClientConfig;
import dev.logrouter.netty.tls.TlsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The syslog sink with {@code transport: relp} against a real {@link RelpSource} on loopback, publishing into a real
 * ring read by a test consumer that decides when the source may acknowledge (the source answers {@code rsp 200}
 * only once its completed sequence passed a message): every message arrives once and in order; a flush waits for
 * the acknowledgements (and gives up only after write-timeout without one, then sends the unanswered ones again); a
 * receiver restarted mid-batch gets every message at least once, at most a window twice, all counted in
 * {@code resent}; RELP over TLS with client certificates; a receiver that refuses a message with {@code rsp 500}.
 *
 * <p>Threads: the JUnit thread drives the sink (as its sink thread would); flushes that must block run on a
 * helper thread; the ring's consumer runs on a thread of its own.
 */
class RelpTransportTest {

    private static final int WINDOW = 128;

    @TempDir
    static Path dir;
    private static TestPki pki;
    private static NettyTransport transport;

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final java.util.Set<Sink> closedSinks = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final ExecutorService flusher = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-flush"));

    @BeforeAll
    static void setUp() throws Exception {
        pki = new TestPki(dir);
        pki.server("server", "localhost");
        pki.client("web", "/O=Example/OU=frontend/CN=web-01");
        transport = new NettyTransport(1);
    }

    @AfterAll
    static void stopLoops() {
        transport.close();
    }

    @AfterEach
    void closeAll() throws Exception {
        flusher.shutdownNow();
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    @Test
    void tenThousandMessagesArriveOnceAndInOrder() throws Exception {
        Receiver rx = receiver();
        RelpSource source = rx.start(0, null);
        MetricGroup m = new MetricGroup("Sink", "relp");
        Sink sink = sink(config(source.boundAddress(), null, "30s"), m, Clock.SYSTEM);
        List<String> sent = append(sink, "m", 0, 10_000);

        sink.flush();

        assertThat(rx.messages).containsExactlyElementsOf(sent);
        assertThat(m.value("resent")).isZero();
        assertThat(m.value("unackedInFlight")).isZero();
        assertThat(m.value("connects")).isEqualTo(1);
        assertThat(rx.metrics.value("acked")).isEqualTo(10_000);
        assertThat(rx.metrics.value("protocolErrors")).as("never more than the window unanswered").isZero();

        close(sink); // sends close, the source answers it once all is acknowledged and ends the session
        assertThat(await(() -> rx.metrics.value("sessions") == 0)).isTrue();
        assertThat(rx.metrics.value("protocolErrors")).isZero();
    }

    @Test
    void flushWaitsForTheAcknowledgementsAndGivesUpOnlyAfterWriteTimeout() throws Exception {
        Receiver rx = receiver();
        RelpSource source = rx.start(0, null);
        rx.hold(-1); // the ring's consumer reads, but nothing completes: the source acknowledges nothing
        ManualClock clock = new ManualClock();
        MetricGroup m = new MetricGroup("Sink", "relp");
        Sink sink = sink(config(source.boundAddress(), null, "5s"), m, clock);
        List<String> first = append(sink, "a", 0, 300);

        CompletableFuture<Void> flush = flushAsync(sink);
        assertThat(await(() -> rx.read() == WINDOW && m.value("unackedInFlight") == WINDOW)).isTrue();
        assertThat(flush).as("no acknowledgement yet: the flush waits (the clock has not reached write-timeout)")
                .isNotDone();
        assertThat(rx.messages).hasSize(WINDOW); // the window: no more until answers come

        rx.release();
        flush.get(20, TimeUnit.SECONDS);
        assertThat(rx.messages).containsExactlyElementsOf(first);
        assertThat(m.value("unackedInFlight")).isZero();

        // no answer within write-timeout: the flush fails, keeps the unanswered, and they go again
        rx.hold(rx.read() - 1);
        List<String> second = append(sink, "b", 0, 50);
        CompletableFuture<Void> stuck = flushAsync(sink);
        assertThat(await(() -> rx.read() == 350)).isTrue();
        assertThat(stuck).isNotDone();
        clock.advance(Duration.ofSeconds(6));
        assertThat(await(stuck::isDone)).isTrue();
        assertThat(stuck).isCompletedExceptionally();
        assertThat(m.value("writeFailures")).isEqualTo(1);
        assertThat(m.value("unackedInFlight")).isZero();

        rx.release();
        clock.advance(Duration.ofSeconds(1)); // past the host's reconnect delay
        sink.flush();
        assertThat(m.value("resent")).isEqualTo(50);
        List<String> expected = new ArrayList<>(first);
        expected.addAll(second);
        expected.addAll(second); // the 50 came once on the session that timed out, then again
        assertThat(rx.messages).containsExactlyElementsOf(expected);
        assertThat(rx.metrics.value("protocolErrors")).isZero();
    }

    @Test
    void aReceiverRestartedMidBatchGetsEveryMessageAtLeastOnce() throws Exception {
        Receiver rx = receiver();
        RelpSource first = rx.start(0, null);
        int port = HostPort.parse(first.boundAddress()).getPort();
        rx.hold(999); // the first 1000 messages are acknowledged, then none
        MetricGroup m = new MetricGroup("Sink", "relp");
        Sink sink = sink(config(first.boundAddress(), null, "30s"), m, Clock.SYSTEM);
        List<String> sent = append(sink, "r", 0, 3000);

        CompletableFuture<Void> flush = flushAsync(sink);
        assertThat(await(() -> rx.read() == 1000 + WINDOW)).isTrue(); // a window beyond the acknowledged
        // the receiver stops: it acknowledges what completed and ends the session with serverclose
        first.stopAccepting();
        first.close();
        assertThat(await(flush::isDone)).isTrue();
        assertThat(flush).as("the session ended before all were answered").isCompletedExceptionally();

        rx.release();
        rx.start(port, null);
        assertThat(await(() -> tryFlush(sink))).isTrue();

        assertThat(rx.messages).containsAll(sent);
        int duplicates = rx.messages.size() - sent.size();
        assertThat(duplicates).isBetween(1, WINDOW);
        assertThat(m.value("resent")).isEqualTo(duplicates);
        // the second session starts again at the first message not acknowledged, in order
        assertThat(rx.messages.subList(1000 + duplicates, rx.messages.size()))
                .containsExactlyElementsOf(sent.subList(1000, 3000));
        assertThat(rx.metrics.value("protocolErrors")).isZero();
    }

    @Test
    void relpOverTlsWithClientCertificates() throws Exception {
        Receiver rx = receiver();
        TlsConfig serverTls = new TlsConfig(pki.cert("server").toString(), pki.key("server").toString(), null, null,
                null, pki.caFile().toString(), TlsConfig.ClientAuthMode.required, List.of("TLSv1.3", "TLSv1.2"),
                List.of(), TlsConfig.Provider.jdk, TimeSpan.parse("5s"), TimeSpan.parse("0s"));
        RelpSource source = rx.start(0, serverTls);
        MetricGroup m = new MetricGroup("Sink", "relp-tls");
        TlsClientConfig withCert = new TlsClientConfig(pki.caFile().toString(), true, pki.cert("web").toString(),
                pki.key("web").toString(), null, null, null, List.of("TLSv1.3", "TLSv1.2"), List.of(),
                TlsConfig.Provider.jdk, TimeSpan.parse("5s"));
        Sink sink = sink(config(source.boundAddress(), withCert, "30s"), m, Clock.SYSTEM);
        List<String> sent = append(sink, "t", 0, 2000);
        sink.flush();
        assertThat(rx.messages).containsExactlyElementsOf(sent);
        assertThat(rx.metrics.value("acked")).isEqualTo(2000);

        // without a client certificate the receiver refuses the session: the connect fails, nothing is taken
        MetricGroup anonymous = new MetricGroup("Sink", "relp-anon");
        TlsClientConfig noCert = new TlsClientConfig(pki.caFile().toString(), true, null, null, null, null, null,
                List.of("TLSv1.3", "TLSv1.2"), List.of(), TlsConfig.Provider.jdk, TimeSpan.parse("5s"));
        Sink refused = sink(config(source.boundAddress(), noCert, "30s"), anonymous, Clock.SYSTEM);
        append(refused, "x", 0, 3);
        assertThat(tryFlush(refused)).isFalse();
        assertThat(anonymous.value("connectFailures")).isPositive();
        assertThat(rx.messages).hasSize(2000);
    }

    @Test
    void aMessageAnsweredWith500GoesToTheDeadLetterFileAndTheRestAgain() throws Exception {
        try (RefusingReceiver rx = new RefusingReceiver("refuse-me")) {
            MetricGroup m = new MetricGroup("Sink", "relp-500");
            Path deadLetters = dir.resolve("dead-letter-500.jsonl");
            Sink sink = sink(config("127.0.0.1:" + rx.port(), null, "30s"), m, Clock.SYSTEM, deadLetters);
            List<String> sent = new ArrayList<>();
            LogEvent e = new LogEvent();
            for (int i = 0; i < 10; i++) {
                String msg = i == 4 ? "refuse-me" : "n" + i;
                byte[] b = msg.getBytes(StandardCharsets.UTF_8);
                e.setRaw(b, 0, b.length);
                sink.append(e);
                sent.add(msg);
            }
            assertThat(await(() -> tryFlush(sink))).isTrue();

            assertThat(m.value("refused")).isEqualTo(1);
            assertThat(Files.readString(deadLetters)).contains("\"event\":\"refuse-me\"")
                    .contains("\"status\":500").contains("500 refused");
            List<List<String>> sessions = rx.sessions();
            // all ten were sent at once (the window); the receiver read at least up to the refused one
            assertThat(sessions.get(0)).startsWith(sent.subList(0, 5).toArray(String[]::new));
            // as librelp: the refused one is not sent again, the five after it (answers ignored) are
            assertThat(sessions.get(1)).containsExactlyElementsOf(sent.subList(5, 10));
            assertThat(m.value("resent")).isEqualTo(5);
            assertThat(m.value("unackedInFlight")).isZero();
            close(sink);
        }
    }

    @Test
    void relpConfigRules() {
        SyslogSinkConfig relp = config("127.0.0.1:1", null, "30s");
        assertThat(relp.effectiveFraming()).as("RELP frames each message itself").isNull();
        TlsClientConfig tls = new TlsClientConfig(pki.caFile().toString(), true, null, null, null, null, null,
                List.of("TLSv1.3"), List.of(), TlsConfig.Provider.jdk, TimeSpan.parse("5s"));
        assertThat(config("127.0.0.1:1", tls, "30s").tls()).isNotNull(); // relp + tls: = RELP over TLS
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> withWindow(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("window");
    }

    // ---------------------------------------------------------------- helpers

    private Receiver receiver() {
        Receiver rx = new Receiver();
        closeables.add(rx);
        return rx;
    }

    private void close(Sink sink) throws Exception {
        closedSinks.add(sink);
        sink.close();
    }

    private static boolean await(BooleanSupplier condition) {
        return Conditions.await(condition, Duration.ofSeconds(20));
    }

    private CompletableFuture<Void> flushAsync(Sink sink) {
        return CompletableFuture.runAsync(() -> {
            try {
                sink.flush();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, flusher);
    }

    /** One flush, as the sink handler's retry makes it; true when it returned. */
    private static boolean tryFlush(Sink sink) {
        try {
            sink.flush();
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private static List<String> append(Sink sink, String prefix, int from, int n) throws Exception {
        List<String> sent = new ArrayList<>(n);
        LogEvent e = new LogEvent();
        for (int i = from; i < from + n; i++) {
            byte[] b = ("<13>1 2026-11-26T10:00:00Z host app - - - " + prefix + i).getBytes(StandardCharsets.UTF_8);
            e.setRaw(b, 0, b.length);
            sink.append(e);
            sent.add(new String(b, StandardCharsets.UTF_8));
        }
        return sent;
    }

    private Sink sink(SyslogSinkConfig cfg, MetricGroup m, Clock clock) throws Exception {
        return sink(cfg, m, clock, dir.resolve("dead-letter-" + m.hashCode() + ".jsonl"));
    }

    private Sink sink(SyslogSinkConfig cfg, MetricGroup m, Clock clock, Path deadLetters) throws Exception {
        DeadLetterFile dl = new DeadLetterFile(cfg.name(), deadLetters.toString(), m);
        Sink sink = cfg.create(new SinkContext(cfg.name(), ZoneOffset.UTC, clock, m, dl));
        sink.start();
        closeables.add(() -> {
            if (!closedSinks.add(sink)) {
                return;
            }
            sink.abort();
            try {
                sink.close();
            } catch (Exception ignored) {
                // what a test left pending
            }
        });
        return sink;
    }

    /** {@code transport: relp}, format raw (each message exactly as the test wrote it), window 128. */
    private static SyslogSinkConfig config(String host, TlsClientConfig tls, String writeTimeout) {
        return new SyslogSinkConfig("relp", List.of(host), Mode.failover, TimeSpan.parse("60s"), Transport.relp, tls,
                Format.raw, null, null, null, ByteSize.parse("65000"), TimeSpan.parse("5s"),
                TimeSpan.parse(writeTimeout), WINDOW, TimeSpan.parse("1ms"), TimeSpan.parse("50ms"), 1000,
                ByteSize.parse("1MiB"), TimeSpan.parse("250ms"), -1, null, Buffer.memory, JournalConfig.defaults(),
                TimeSpan.parse("5s"), Overflow.block, null);
    }

    private static SyslogSinkConfig withWindow(int window) {
        return new SyslogSinkConfig("relp", List.of("127.0.0.1:1"), Mode.failover, TimeSpan.parse("60s"),
                Transport.relp, null, Format.raw, null, null, null, ByteSize.parse("65000"), TimeSpan.parse("5s"),
                TimeSpan.parse("30s"), window, TimeSpan.parse("1ms"), TimeSpan.parse("50ms"), 1000,
                ByteSize.parse("1MiB"), TimeSpan.parse("250ms"), -1, null, Buffer.memory, JournalConfig.defaults(),
                TimeSpan.parse("5s"), Overflow.block, null);
    }

    /**
     * The receiving router: a real ring, a consumer thread that reads each event's message and then marks it
     * completed, unless held (then the relp source acknowledges nothing past the hold), and the relp sources that
     * publish into it (a restart starts another on the same port).
     */
    private static final class Receiver implements AutoCloseable {

        final RingBuffer<LogEvent> ring = RingBuffer.createMultiProducer(LogEvent.FACTORY, 1 << 14,
                new BlockingWaitStrategy());
        final MetricGroup metrics = new MetricGroup("Source", "relp");
        final List<String> messages = new CopyOnWriteArrayList<>();
        private final Sequence consumed = new Sequence(-1);
        private final SequenceBarrier barrier = ring.newBarrier();
        private final AtomicLong readUpTo = new AtomicLong(-1);
        private final AtomicLong completed = new AtomicLong(-1);
        private final RingPublisher publisher = new RingPublisher(ring, 0, "relp", LogEvent.FORMAT_AUTO, 1L, metrics);
        private final List<RelpSource> sources = new ArrayList<>();
        private final Thread consumer;
        /** The highest sequence that may complete. */
        private volatile long cap = Long.MAX_VALUE;

        Receiver() {
            ring.addGatingSequences(consumed);
            consumer = new Thread(this::consume, "test-ring-consumer");
            consumer.start();
        }

        private void consume() {
            long next = 0;
            while (true) {
                long available;
                try {
                    available = barrier.waitFor(next);
                } catch (AlertException | InterruptedException | com.lmax.disruptor.TimeoutException e) {
                    return;
                }
                for (long s = next; s <= available; s++) {
                    LogEvent e = ring.get(s);
                    messages.add(new String(e.raw(), 0, e.rawLength(), StandardCharsets.UTF_8));
                }
                consumed.set(available);
                readUpTo.set(available);
                advance();
                next = available + 1;
            }
        }

        private void advance() {
            long to = Math.min(readUpTo.get(), cap);
            completed.accumulateAndGet(to, Math::max);
        }

        /** Messages read from the ring up to now. */
        long read() {
            return readUpTo.get() + 1;
        }

        /** Completes nothing past {@code sequence} (-1: nothing more at all). */
        void hold(long sequence) {
            cap = sequence;
        }

        void release() {
            cap = Long.MAX_VALUE;
            advance();
        }

        RelpSource start(int port, TlsConfig tls) throws Exception {
            RelpSource s = new RelpSource(new RelpSourceConfig("relp", "127.0.0.1:" + port, SyslogFormat.auto,
                    ByteSize.parse("64KiB"), WINDOW, 10, TimeSpan.parse("1ms"), ByteSize.parse("0"), tls),
                    transport, publisher, completed::get, metrics);
            s.start();
            sources.add(s);
            return s;
        }

        @Override
        public void close() throws Exception {
            for (RelpSource s : sources) {
                s.stopAccepting();
                s.close();
            }
            barrier.alert();
            consumer.join(10_000);
        }
    }

    /**
     * A minimal RELP receiver on plain sockets (one thread per connection) that accepts every message but one,
     * which it answers {@code 500 refused}; it records the messages of each session.
     */
    private static final class RefusingReceiver implements AutoCloseable {

        private final ServerSocket server;
        private final String refuse;
        private final List<List<String>> sessions = new CopyOnWriteArrayList<>();
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        private final Thread acceptor;

        RefusingReceiver(String refuse) throws IOException {
            this.refuse = refuse;
            this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            this.acceptor = new Thread(this::accept, "test-relp-500");
            acceptor.start();
        }

        int port() {
            return server.getLocalPort();
        }

        /** The messages of each session so far, in order. */
        List<List<String>> sessions() {
            List<List<String>> copy = new ArrayList<>();
            for (List<String> s : sessions) {
                copy.add(List.copyOf(s));
            }
            return copy;
        }

        private void accept() {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    sockets.add(s);
                    List<String> got = new CopyOnWriteArrayList<>();
                    sessions.add(got);
                    Thread t = new Thread(() -> serve(s, got), "test-relp-500-session");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void serve(Socket s, List<String> got) {
            try (s) {
                InputStream in = new BufferedInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream();
                while (true) {
                    Map<String, String> f = readFrame(in);
                    if (f == null) {
                        return;
                    }
                    String txnr = f.get("txnr");
                    String data = switch (f.get("cmd")) {
                        case RelpFrames.OPEN -> "200 OK\n" + RelpFrames.offers();
                        case RelpFrames.SYSLOG -> {
                            got.add(f.get("data"));
                            yield f.get("data").equals(refuse) ? "500 refused" : "200 OK";
                        }
                        case RelpFrames.CLOSE -> "";
                        default -> "500 unknown";
                    };
                    byte[] d = data.getBytes(StandardCharsets.UTF_8);
                    out.write((txnr + " rsp " + d.length + (d.length > 0 ? " " : "")).getBytes(StandardCharsets.UTF_8));
                    out.write(d);
                    out.write('\n');
                    out.flush();
                    if (f.get("cmd").equals(RelpFrames.CLOSE)) {
                        return;
                    }
                }
            } catch (IOException e) {
                // the client closed the connection
            }
        }

        /** {@code TXNR SP CMD SP LEN [SP DATA] LF}; null at the end of the stream. */
        private static Map<String, String> readFrame(InputStream in) throws IOException {
            String txnr = readTo(in, ' ');
            if (txnr == null) {
                return null;
            }
            String cmd = readTo(in, ' ');
            StringBuilder len = new StringBuilder();
            int c;
            while ((c = in.read()) >= '0' && c <= '9') {
                len.append((char) c);
            }
            int n = Integer.parseInt(len.toString());
            byte[] data = new byte[n];
            if (n > 0) {
                if (in.readNBytes(data, 0, n) < n || in.read() != '\n') {
                    return null;
                }
            }
            Map<String, String> f = new HashMap<>();
            f.put("txnr", txnr);
            f.put("cmd", cmd);
            f.put("data", new String(data, StandardCharsets.UTF_8));
            return f;
        }

        private static String readTo(InputStream in, char end) throws IOException {
            StringBuilder sb = new StringBuilder();
            int c;
            while ((c = in.read()) != end) {
                if (c < 0) {
                    return null;
                }
                sb.append((char) c);
            }
            return sb.toString();
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
