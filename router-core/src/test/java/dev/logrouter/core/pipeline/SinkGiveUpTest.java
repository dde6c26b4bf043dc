package dev.logrouter.core.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.lmax.disruptor.EventTranslatorOneArg;
import dev.logrouter.core.config.PipelineConfig;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.FlushPolicy;
import dev.logrouter.core.sink.Sink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code max-retries} on a real {@link Pipeline}: sinks that fail for real on some events (they throw from append or
 * flush as a full disk would) are given up after their retries, their items go to a real dead-letter file with the
 * reason, the next events flow, and the durable sequence passes only what was written or dead-lettered.
 */
class SinkGiveUpTest {

    private static final byte[] SOURCE = "in".getBytes(StandardCharsets.US_ASCII);
    private static final EventTranslatorOneArg<LogEvent, String> FILL = (event, sequence, msg) -> {
        byte[] frame = ("<13>Oct 11 22:14:15 host app: " + msg).getBytes(StandardCharsets.US_ASCII);
        event.clear();
        event.setRaw(frame, 0, frame.length);
        event.setSource(0, SOURCE, LogEvent.FORMAT_RFC3164, 1L);
    };
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final MetricRegistry metrics = new MetricRegistry();
    private Pipeline pipeline;

    @AfterEach
    void stop() throws InterruptedException {
        if (pipeline != null) {
            pipeline.drainAndStop(20, TimeUnit.SECONDS);
            assertThat(pipeline.threads()).allSatisfy(t -> assertThat(t.isAlive()).as(t.getName()).isFalse());
        }
    }

    /** Keeps what it is given; append or flush fail (with an IOException) while their predicate says so. */
    private static class Recording implements Sink {
        final List<String> batch = new ArrayList<>();
        final List<String> written = Collections.synchronizedList(new ArrayList<>());
        volatile Predicate<String> appendFails = m -> false;
        volatile Predicate<List<String>> flushFails = b -> false;
        volatile int appendCalls;

        @Override
        public long append(LogEvent e) throws IOException {
            appendCalls++;
            String msg = new String(e.fieldArray(LogEvent.MSG), e.fieldOffset(LogEvent.MSG),
                    e.fieldLength(LogEvent.MSG), StandardCharsets.US_ASCII);
            if (appendFails.test(msg)) {
                throw new IOException("cannot append " + msg);
            }
            batch.add(msg);
            return msg.length();
        }

        @Override
        public void flush() throws IOException {
            if (flushFails.test(batch)) {
                throw new IOException("cannot flush " + batch.size());
            }
            written.addAll(batch);
            batch.clear();
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }

    /** Also hands its batch over when given up. */
    private static final class HandsOver extends Recording {
        @Override
        public void deadLetterBatch(DeadLetterFile deadLetters, String reason) {
            for (String m : batch) {
                byte[] b = m.getBytes(StandardCharsets.US_ASCII);
                deadLetters.write("batch", reason, null, b, 0, b.length);
            }
            batch.clear();
        }
    }

    private DeadLetterFile deadLetters(String sink, Path file) {
        return new DeadLetterFile(sink, file.toString(), metrics.group("Sink", sink));
    }

    private void start(SinkBinding... sinks) {
        PipelineConfig cfg = new PipelineConfig(1024, 2, PipelineConfig.WaitStrategyName.blocking, 0, "UTC", 1000,
                null);
        List<EventParser> parsers = List.of(new SyslogHeaderParser(ZoneOffset.UTC),
                new SyslogHeaderParser(ZoneOffset.UTC));
        pipeline = new Pipeline(cfg, parsers, List.of(sinks), metrics, () -> 1_000L);
        pipeline.start();
    }

    /** Batches cut by count only (not at the end of a Disruptor batch): their contents do not depend on timing. */
    private static FlushPolicy batches(int n) {
        return new FlushPolicy(n, Long.MAX_VALUE, Long.MAX_VALUE, false);
    }

    private void publish(String... messages) {
        for (String m : messages) {
            pipeline.ring().publishEvent(FILL, m);
        }
    }

    private long sink(String name, String metric) {
        return metrics.require("Sink", name).value(metric);
    }

    private String sinkState(String name) {
        return metrics.require("Sink", name).textValue("state");
    }

    private static List<JsonNode> letters(Path file) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        if (Files.exists(file)) {
            for (String l : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                out.add(JSON.readTree(l));
            }
        }
        return out;
    }

    private static boolean await(java.util.function.BooleanSupplier c) {
        return dev.logrouter.core.testing.Conditions.await(c, java.time.Duration.ofSeconds(20));
    }

    @Test
    void aFailedAppendIsRetriedThenDeadLetteredAndLaterFailuresAtOnceUntilASuccess() throws Exception {
        Recording sink = new Recording();
        sink.appendFails = m -> m.startsWith("bad");
        Path dl = dir.resolve("dl/out.jsonl");
        start(new SinkBinding("out", batches(1), sink, 2, deadLetters("out", dl)));
        publish("bad-1");
        assertThat(await(() -> sink("out", "givenUp") == 1)).isTrue();
        // the first failure waited for its 2 retries; the sink is giving up now
        assertThat(sink("out", "retries")).isEqualTo(2);
        assertThat(sink("out", "failures")).isEqualTo(3);
        assertThat(sinkState("out")).isEqualTo("GIVING_UP");
        publish("bad-2", "bad-3");
        assertThat(await(() -> sink("out", "givenUp") == 3)).isTrue();
        assertThat(sink("out", "retries")).as("given up at once while giving up").isEqualTo(2);
        publish("good-1");
        assertThat(await(() -> sink.written.contains("good-1"))).isTrue();
        assertThat(await(() -> sinkState("out").equals("RUNNING"))).as("a success ends giving up").isTrue();
        publish("bad-4"); // retried again, then given up
        assertThat(await(() -> sink("out", "givenUp") == 4)).isTrue();
        assertThat(sink("out", "retries")).isEqualTo(4);
        publish("good-2");
        assertThat(await(() -> sink.written.contains("good-2"))).isTrue();
        assertThat(await(() -> pipeline.completedSequence() == 5)).as("dead letters count as out").isTrue();
        assertThat(pipeline.drainAndStop(20, TimeUnit.SECONDS)).isTrue();

        List<JsonNode> letters = letters(dl);
        assertThat(letters).extracting(l -> l.get("event").asText()).containsExactly(
                "<13>Oct 11 22:14:15 host app: bad-1", "<13>Oct 11 22:14:15 host app: bad-2",
                "<13>Oct 11 22:14:15 host app: bad-3", "<13>Oct 11 22:14:15 host app: bad-4");
        assertThat(letters.get(0).get("reason").asText())
                .isEqualTo("append given up after 2 retries: APPEND: java.io.IOException: cannot append bad-1");
        assertThat(letters.get(1).get("reason").asText()).startsWith("append given up at once")
                .endsWith("cannot append bad-2");
        assertThat(letters).allSatisfy(l -> {
            assertThat(l.get("sink").asText()).isEqualTo("out");
            assertThat(l.has("target")).isFalse();
        });
        assertThat(sink("out", "deadLettered")).isEqualTo(4);
        assertThat(sink("out", "written")).isEqualTo(2);
        assertThat(sink.written).containsExactly("good-1", "good-2");
        assertThat(sink("out", "lost")).isZero();
    }

    @Test
    void aFailedFlushHandsItsBatchToTheDeadLetterFileAndTheNextBatchIsWritten() throws Exception {
        HandsOver sink = new HandsOver();
        sink.flushFails = b -> b.contains("poison");
        Path dl = dir.resolve("out.jsonl");
        start(new SinkBinding("out", batches(3), sink, 1, deadLetters("out", dl)));
        publish("a", "poison", "c"); // one batch of 3: its flush fails twice, then the batch is handed over
        publish("d", "e", "f");
        assertThat(await(() -> sink.written.size() == 3)).isTrue();
        assertThat(await(() -> pipeline.completedSequence() == 5)).isTrue();
        assertThat(pipeline.drainAndStop(20, TimeUnit.SECONDS)).isTrue();
        assertThat(sink.written).containsExactly("d", "e", "f");
        assertThat(letters(dl)).extracting(l -> l.get("event").asText()).containsExactly("a", "poison", "c");
        assertThat(letters(dl)).allSatisfy(l -> assertThat(l.get("reason").asText())
                .isEqualTo("flush given up after 1 retries: FLUSH: java.io.IOException: cannot flush 3"));
        assertThat(sink("out", "givenUp")).isEqualTo(3);
        assertThat(sink("out", "written")).isEqualTo(3);
        assertThat(sink("out", "batches")).isEqualTo(1);
        assertThat(sink("out", "retries")).isEqualTo(1);
        assertThat(sinkState("out")).isEqualTo("STOPPED");
    }

    @Test
    void aSinkThatCannotHandItsBatchOverKeepsRetryingItsFlushLosingNothing() throws Exception {
        Recording sink = new Recording(); // the default deadLetterBatch: unsupported
        int[] failuresLeft = {3};
        sink.flushFails = b -> failuresLeft[0]-- > 0; // the sink thread is the only caller
        Path dl = dir.resolve("out.jsonl");
        start(new SinkBinding("out", batches(2), sink, 0, deadLetters("out", dl)));
        publish("a", "b");
        assertThat(await(() -> sink.written.size() == 2)).isTrue();
        assertThat(pipeline.drainAndStop(20, TimeUnit.SECONDS)).isTrue();
        assertThat(sink.written).containsExactly("a", "b");
        assertThat(sink("out", "givenUp")).isZero();
        assertThat(sink("out", "failures")).isEqualTo(3);
        assertThat(letters(dl)).isEmpty();
    }

    @Test
    void aDeadLetterTheFileCannotTakeHoldsTheDurableSequenceBack() throws Exception {
        Recording sink = new Recording();
        sink.appendFails = m -> m.startsWith("bad");
        Path blocker = dir.resolve("not-a-dir");
        Files.writeString(blocker, "x");
        start(new SinkBinding("out", batches(1), sink, 0, deadLetters("out", blocker.resolve("dl.jsonl"))));
        publish("good-1");
        assertThat(await(() -> pipeline.completedSequence() == 0)).isTrue();
        publish("bad-1", "good-2", "good-3");
        assertThat(await(() -> sink.written.size() == 3)).isTrue();
        MetricGroup g = metrics.require("Sink", "out");
        assertThat(g.value("givenUp")).isEqualTo(1);
        assertThat(g.value("deadLetterFailures")).isEqualTo(1);
        assertThat(g.value("deadLettered")).isZero();
        // bad-1 (sequence 1) is neither written nor dead-lettered: nothing from it on counts as durable
        assertThat(pipeline.completedSequence()).isEqualTo(0);
    }

    @Test
    void withoutMaxRetriesAFailingAppendIsRetriedUntilItSucceeds() throws Exception {
        Recording sink = new Recording();
        int[] failuresLeft = {4};
        sink.appendFails = m -> failuresLeft[0]-- > 0;
        Path dl = dir.resolve("out.jsonl");
        start(new SinkBinding("out", batches(1), sink, -1, deadLetters("out", dl)));
        publish("a");
        assertThat(await(() -> sink.written.size() == 1)).isTrue();
        assertThat(sink("out", "retries")).isEqualTo(4);
        assertThat(sink("out", "givenUp")).isZero();
        assertThat(letters(dl)).isEmpty();
    }

    /**
     * A forced stop while the sink waits out a long retry backoff (5 s after 9 retries, longer than the stop waits for
     * a sink thread): abort wakes it, its last try fails, and it ends before the stop returns, its batch (and what
     * else it took on its way out) counted {@code lost}, the rest {@code abandoned} in the ring. Before, the thread slept on, the stop returned with it
     * alive and the batch was counted nowhere but the ring.
     */
    @Test
    void aForcedStopWakesASinkFromItsRetryBackoffAndCountsItsBatchLost() throws Exception {
        Recording sink = new Recording();
        sink.flushFails = b -> true; // a destination that never comes back
        start(new SinkBinding("out", batches(3), sink, -1, deadLetters("out", dir.resolve("out.jsonl"))));
        publish("a", "b", "c", "d", "e");
        assertThat(await(() -> sink("out", "retries") >= 9)).as("in its 5 s backoff").isTrue();
        assertThat(pipeline.drainAndStop(100, TimeUnit.MILLISECONDS)).as("not drained").isFalse();
        assertThat(pipeline.threads()).allSatisfy(t -> assertThat(t.isAlive()).as(t.getName()).isFalse());
        assertThat(sink("out", "written")).isZero();
        // the batch being retried, and the events after it that the sink took on its way out
        assertThat(sink("out", "lost")).isBetween(3L, 5L);
        assertThat(sink("out", "lost") + metrics.require("Ring", "main").value("abandoned")).isEqualTo(5);
        assertThat(sinkState("out")).isEqualTo("STOPPED");
    }
}
