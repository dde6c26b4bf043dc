package dev.logrouter.core.pipeline;

import com.lmax.disruptor.EventTranslatorThreeArg;
import com.lmax.disruptor.EventTranslatorTwoArg;
import dev.logrouter.core.config.PipelineConfig;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.sink.FlushPolicy;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.util.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real {@link Pipeline}: ring of 1024, two sharded parse workers running the real syslog parser,
 * sink threads with recording sinks. Every test stops the pipeline and checks that every thread ended.
 */
class PipelineTest {

    private static final long STOP_SECONDS = 20;
    private static final byte[] SOURCE = "in".getBytes(StandardCharsets.US_ASCII);

    /** Fills a claimed slot like a source does: clear, copy the frame, say where it came from. */
    private static final EventTranslatorTwoArg<LogEvent, byte[], Long> FILL = (event, sequence, frame, mask) -> {
        event.clear();
        event.setRaw(frame, 0, frame.length);
        event.setSource(0, SOURCE, LogEvent.FORMAT_RFC3164, mask);
    };

    /** Like {@link #FILL}, and marks the event as not to be delivered when the flag argument says so. */
    private static final EventTranslatorThreeArg<LogEvent, byte[], Long, Boolean> FILL_DISCARDED =
        (event, sequence, frame, mask, discard) -> {
            FILL.translateTo(event, sequence, frame, mask);
            if (discard) {
                event.addFlag(LogEvent.FLAG_DISCARD);
            }
        };

    /** The clock never moves: no batch is ever flushed for its age. */
    private static final Clock STOPPED_CLOCK = () -> 1_000L;

    private final MetricRegistry metrics = new MetricRegistry();
    private Pipeline pipeline;

    @AfterEach
    void stopAndCheckThreads() throws InterruptedException {
        if (pipeline != null) {
            pipeline.drainAndStop(STOP_SECONDS, TimeUnit.SECONDS);
            assertThat(pipeline.threads()).allSatisfy(t -> assertThat(t.isAlive()).as(t.getName()).isFalse());
        }
    }

    // ------------------------------------------------------------------ helpers

    /** Records batches: the MSG of each appended event, moved to a finished batch on flush. */
    private static class RecordingSink implements Sink {

        private final List<String> current = new ArrayList<>();
        private final List<List<String>> batches = Collections.synchronizedList(new ArrayList<>());
        private volatile int appendFailuresLeft;
        private volatile String startThread;
        private volatile String closeThread;
        private volatile int closes;

        RecordingSink failingFirstAppends(int n) {
            appendFailuresLeft = n;
            return this;
        }

        @Override
        public void start() {
            startThread = Thread.currentThread().getName();
        }

        @Override
        public long append(LogEvent e) throws Exception {
            if (appendFailuresLeft > 0) {
                appendFailuresLeft--;
                throw new java.io.IOException("injected append failure");
            }
            String msg = new String(e.fieldArray(LogEvent.MSG), e.fieldOffset(LogEvent.MSG),
                    e.fieldLength(LogEvent.MSG), StandardCharsets.UTF_8);
            String program = new String(e.fieldArray(LogEvent.PROGRAM), e.fieldOffset(LogEvent.PROGRAM),
                    e.fieldLength(LogEvent.PROGRAM), StandardCharsets.UTF_8);
            // PROGRAM is only set once a parse worker has run: proves the sink runs after parsing
            current.add(program.equals("app") ? msg : "UNPARSED:" + msg);
            return msg.length();
        }

        @Override
        public void flush() {
            batches.add(List.copyOf(current));
            current.clear();
        }

        @Override
        public void close() {
            closes++;
            closeThread = Thread.currentThread().getName();
            if (!current.isEmpty()) {
                flush();
            }
        }

        List<Integer> batchSizes() {
            synchronized (batches) {
                return batches.stream().map(List::size).toList();
            }
        }

        List<String> messages() {
            synchronized (batches) {
                return batches.stream().flatMap(List::stream).toList();
            }
        }
    }

    private static byte[] frame(int i) {
        return ("<13>Oct 11 22:14:15 host app: msg-" + i).getBytes(StandardCharsets.US_ASCII);
    }

    private static List<String> messages(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "msg-" + i).toList();
    }

    private Pipeline build(SinkBinding... sinks) {
        PipelineConfig cfg = new PipelineConfig(1024, 2, PipelineConfig.WaitStrategyName.blocking, 0, "UTC", 1000,
                null);
        List<EventParser> parsers = List.of(new SyslogHeaderParser(ZoneOffset.UTC),
                new SyslogHeaderParser(ZoneOffset.UTC));
        pipeline = new Pipeline(cfg, parsers, List.of(sinks), metrics, STOPPED_CLOCK);
        return pipeline;
    }

    private static SinkBinding binding(String name, int batchSize, Sink sink) {
        return new SinkBinding(name, new FlushPolicy(batchSize, Long.MAX_VALUE, Long.MAX_VALUE), sink);
    }

    private void publish(int from, int to, long mask) {
        for (int i = from; i < to; i++) {
            pipeline.ring().publishEvent(FILL, frame(i), mask);
        }
    }

    private long parsed(int worker) {
        return metrics.require("Stage", "parse-" + worker).value("parsed");
    }

    private long sinkMetric(String sink, String metric) {
        return metrics.require("Sink", sink).value(metric);
    }

    private void drain() throws InterruptedException {
        assertThat(pipeline.drainAndStop(STOP_SECONDS, TimeUnit.SECONDS)).as("drained in time").isTrue();
    }

    // ------------------------------------------------------------------ tests

    @Test
    void everyEventIsParsedOnceAndDeliveredInOrder() throws Exception {
        RecordingSink sink = new RecordingSink();
        build(binding("out", 64, sink));
        pipeline.start();
        int n = 5_000; // several laps of the 1024-slot ring
        publish(0, n, 1L);
        drain();

        assertThat(parsed(0)).isEqualTo(n / 2);
        assertThat(parsed(1)).isEqualTo(n / 2);
        assertThat(parsed(0) + parsed(1)).isEqualTo(n);
        assertThat(metrics.require("Stage", "parse-0").value("parseErrors")).isZero();
        assertThat(sink.messages()).containsExactlyElementsOf(messages(0, n));
        assertThat(sink.batchSizes()).allSatisfy(size -> assertThat(size).isBetween(1, 64));
        assertThat(sinkMetric("out", "written")).isEqualTo(n);
        assertThat(sinkMetric("out", "batches")).isEqualTo(sink.batchSizes().size());
        assertThat(sinkMetric("out", "bytes")).isEqualTo(messages(0, n).stream().mapToLong(String::length).sum());
        assertThat(sinkMetric("out", "failures")).isZero();
        assertThat(sinkMetric("out", "lost")).isZero();
        assertThat(metrics.require("Ring", "main").value("published")).isEqualTo(n);
        assertThat(metrics.require("Ring", "main").value("stageErrors")).isZero();
    }

    @Test
    void batchesAreCutExactlyAtBatchSize() throws Exception {
        RecordingSink sink = new RecordingSink();
        build(binding("out", 10, sink));
        // the whole backlog is in the ring before any stage runs: the sink sees one Disruptor batch of 100,
        // so only the count limit (and the end of that batch) can cut it
        publish(0, 100, 1L);
        pipeline.start();
        drain();

        assertThat(sink.batchSizes()).containsExactly(10, 10, 10, 10, 10, 10, 10, 10, 10, 10);
        assertThat(sink.messages()).containsExactlyElementsOf(messages(0, 100));
        synchronized (sink.batches) {
            for (int b = 0; b < 10; b++) {
                assertThat(sink.batches.get(b)).containsExactlyElementsOf(messages(b * 10, b * 10 + 10));
            }
        }
        assertThat(sinkMetric("out", "batches")).isEqualTo(10);
        assertThat(sinkMetric("out", "averageBatchSize")).isEqualTo(10);
    }

    @Test
    void endOfBatchFlushesARemainder() throws Exception {
        RecordingSink sink = new RecordingSink();
        build(binding("out", 10, sink));
        publish(0, 25, 1L);
        pipeline.start();
        drain();
        assertThat(sink.batchSizes()).containsExactly(10, 10, 5);
        assertThat(sink.messages()).containsExactlyElementsOf(messages(0, 25));
    }

    @Test
    void theCompletedSequenceWaitsForTheSlowestSinksFlush() throws Exception {
        RecordingSink files = new RecordingSink();
        RecordingSink bus = new RecordingSink();
        // "bus" flushes by size only (as a Kafka sink does): 25 events leave 5 unflushed
        build(binding("files", 1000, files),
                new SinkBinding("bus", new FlushPolicy(10, Long.MAX_VALUE, Long.MAX_VALUE, false), bus));
        pipeline.start();
        publish(0, 25, 0b11L);
        assertThat(await(() -> files.messages().size() == 25 && bus.messages().size() == 20)).isTrue();
        assertThat(await(() -> pipeline.completedSequence() == 19)).isTrue(); // 0..19 are out in both sinks
        publish(25, 30, 0b01L); // for "files" only: "bus" still holds 20..24
        assertThat(await(() -> files.messages().size() == 30)).isTrue();
        assertThat(pipeline.completedSequence()).isEqualTo(19);
        publish(30, 35, 0b10L); // "bus" reaches 10 again: flushes 20..24 and 30..34
        assertThat(await(() -> bus.messages().size() == 30)).isTrue();
        assertThat(await(() -> pipeline.completedSequence() == 34)).isTrue();
        drain();
    }

    private static boolean await(java.util.function.BooleanSupplier condition) {
        return dev.logrouter.core.testing.Conditions.await(condition, java.time.Duration.ofSeconds(10));
    }

    @Test
    void bytesLimitCutsBatches() throws Exception {
        RecordingSink sink = new RecordingSink();
        // every message is "msg-N": 5 bytes for N < 10, so 4 of them reach 20 bytes
        build(new SinkBinding("out", new FlushPolicy(1000, 20, Long.MAX_VALUE), sink));
        publish(0, 10, 1L);
        pipeline.start();
        drain();
        assertThat(sink.batchSizes()).containsExactly(4, 4, 2);
        assertThat(sinkMetric("out", "bytes")).isEqualTo(50);
    }

    @Test
    void ageLimitCutsBatchesByTheInjectedClock() throws Exception {
        AtomicLong now = new AtomicLong(1_000_000L);
        // each append takes 4 ns of manual time; a batch may wait 10 ns, so its 4th event (12 ns after the
        // first was appended) makes it due
        RecordingSink sink = new RecordingSink() {
            @Override
            public long append(LogEvent e) throws Exception {
                now.addAndGet(4);
                return super.append(e);
            }
        };
        PipelineConfig cfg = new PipelineConfig(1024, 2, PipelineConfig.WaitStrategyName.blocking, 0, "UTC", 1000,
                null);
        pipeline = new Pipeline(cfg, List.of(new SyslogHeaderParser(ZoneOffset.UTC),
                new SyslogHeaderParser(ZoneOffset.UTC)),
                List.of(new SinkBinding("out", new FlushPolicy(1000, Long.MAX_VALUE, 10), sink)), metrics, now::get);
        publish(0, 30, 1L);
        pipeline.start();
        drain();
        assertThat(sink.batchSizes()).containsExactly(4, 4, 4, 4, 4, 4, 4, 2);
        assertThat(sink.messages()).containsExactlyElementsOf(messages(0, 30));
    }

    @Test
    void eventsGoOnlyToTheSinksInTheirMask() throws Exception {
        RecordingSink a = new RecordingSink();
        RecordingSink b = new RecordingSink();
        build(binding("a", 100, a), binding("b", 100, b));
        pipeline.start();
        List<String> toA = new ArrayList<>();
        List<String> toB = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            long mask = i % 4; // 0: nobody, 1: a, 2: b, 3: both
            pipeline.ring().publishEvent(FILL, frame(i), mask);
            if ((mask & 1) != 0) {
                toA.add("msg-" + i);
            }
            if ((mask & 2) != 0) {
                toB.add("msg-" + i);
            }
        }
        drain();

        assertThat(a.messages()).containsExactlyElementsOf(toA);
        assertThat(b.messages()).containsExactlyElementsOf(toB);
        assertThat(sinkMetric("a", "written")).isEqualTo(200);
        assertThat(sinkMetric("b", "written")).isEqualTo(200);
        assertThat(parsed(0) + parsed(1)).isEqualTo(400);
    }

    @Test
    void discardedEventsAreNotDelivered() throws Exception {
        RecordingSink sink = new RecordingSink();
        build(binding("out", 100, sink));
        pipeline.start();
        for (int i = 0; i < 10; i++) {
            pipeline.ring().publishEvent(FILL_DISCARDED, frame(i), 1L, i % 2 == 1);
        }
        drain();
        assertThat(sink.messages()).containsExactly("msg-0", "msg-2", "msg-4", "msg-6", "msg-8");
    }

    @Test
    void failingAppendIsRetriedAndNothingIsLost() throws Exception {
        RecordingSink sink = new RecordingSink().failingFirstAppends(2);
        build(binding("flaky", 10, sink));
        publish(0, 30, 1L);
        pipeline.start();
        drain();

        assertThat(sink.messages()).containsExactlyElementsOf(messages(0, 30));
        assertThat(sink.batchSizes()).containsExactly(10, 10, 10);
        assertThat(sinkMetric("flaky", "failures")).isEqualTo(2);
        assertThat(sinkMetric("flaky", "retries")).isEqualTo(2);
        assertThat(sinkMetric("flaky", "written")).isEqualTo(30);
        assertThat(sinkMetric("flaky", "lost")).isZero();
        assertThat(pipeline.sinkHandlers().get(0).lastError())
                .isEqualTo("APPEND: java.io.IOException: injected append failure");
    }

    @Test
    void drainAndStopEndsEveryThreadAndClosesSinksOnTheirThreads() throws Exception {
        RecordingSink a = new RecordingSink();
        RecordingSink b = new RecordingSink();
        build(binding("a", 1000, a), binding("b", 1000, b));
        pipeline.start();
        publish(0, 50, 3L);
        drain();

        List<Thread> threads = pipeline.threads();
        assertThat(threads).hasSize(4);
        assertThat(threads).allSatisfy(t -> assertThat(t.isAlive()).as(t.getName()).isFalse());
        assertThat(threads).extracting(Thread::getName)
                .containsExactlyInAnyOrder("parse-0", "parse-1", "sink-a", "sink-b");
        assertThat(a.startThread).isEqualTo("sink-a");
        assertThat(a.closeThread).isEqualTo("sink-a");
        assertThat(b.closeThread).isEqualTo("sink-b");
        assertThat(a.closes).isEqualTo(1);
        assertThat(b.closes).isEqualTo(1);
        assertThat(a.messages()).containsExactlyElementsOf(messages(0, 50));
        assertThat(b.messages()).containsExactlyElementsOf(messages(0, 50));
        assertThat(metrics.require("Sink", "a").textValue("state")).isEqualTo("STOPPED");
        assertThat(sinkMetric("a", "pending")).isZero();
    }

    @Test
    void theFlushOperationWritesThePendingBatchOnTheSinkThread() throws Exception {
        RecordingSink sink = new RecordingSink();
        // never flushed by count, age or an empty ring: only the operator's flush writes the batch
        build(new SinkBinding("out", new FlushPolicy(1000, Long.MAX_VALUE, Long.MAX_VALUE, false), sink));
        pipeline.start();
        publish(0, 5, 1L);
        assertThat(dev.logrouter.core.testing.Conditions.await(() -> sinkMetric("out", "pending") == 5,
                java.time.Duration.ofSeconds(10))).isTrue();
        assertThat(sink.messages()).isEmpty();
        long durableBefore = pipeline.sinkHandlers().get(0).durableSequence();

        var flush = metrics.require("Sink", "out").operations().stream()
                .filter(op -> op.name().equals("flush")).findFirst().orElseThrow();
        assertThat(flush.action().get()).isEqualTo("sink out: flushed (5 events were pending)");
        assertThat(sink.messages()).containsExactlyElementsOf(messages(0, 5));
        assertThat(sinkMetric("out", "written")).isEqualTo(5);
        assertThat(sinkMetric("out", "pending")).isZero();
        assertThat(pipeline.sinkHandlers().get(0).durableSequence()).as("flushed events are durable")
                .isGreaterThan(durableBefore).isEqualTo(4);
        assertThat(flush.action().get()).isEqualTo("sink out: flushed (0 events were pending)");
        assertThat(sink.batchSizes()).containsExactly(5);
        drain();
        assertThat(flush.action().get()).startsWith("sink out is stopped");
    }

    @Test
    void drainAndStopWithNothingPublished() throws Exception {
        RecordingSink sink = new RecordingSink();
        build(binding("out", 10, sink));
        pipeline.start();
        drain();
        assertThat(pipeline.threads()).hasSize(3).allSatisfy(t -> assertThat(t.isAlive()).isFalse());
        assertThat(sink.batchSizes()).isEmpty();
        assertThat(sink.closes).isEqualTo(1);
        assertThat(sink.closeThread).isEqualTo("sink-out");
    }
}
