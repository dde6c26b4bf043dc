package dev.logrouter.core.pipeline;

import com.lmax.disruptor.EventTranslatorOneArg;
import dev.logrouter.core.config.PipelineConfig;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.MessageParserFixture;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.sink.FlushPolicy;
import dev.logrouter.core.sink.Sink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The field limits in a real {@link Pipeline}: the configured limits reach every ring slot, the two parse workers
 * count the hits of the events they parsed in {@code fieldsDropped} and {@code valuesTruncated}, and an event that
 * hit a limit reaches the sink limited and tagged.
 */
class FieldLimitsPipelineTest {

    private static final byte[] SOURCE = "in".getBytes(StandardCharsets.US_ASCII);
    private static final EventTranslatorOneArg<LogEvent, byte[]> FILL = (event, sequence, frame) -> {
        event.clear();
        event.setRaw(frame, 0, frame.length);
        event.setSource(0, SOURCE, LogEvent.FORMAT_RFC3164, 1L);
    };

    private final MetricRegistry metrics = new MetricRegistry();
    private Pipeline pipeline;

    @AfterEach
    void stop() throws InterruptedException {
        if (pipeline != null) {
            drain();
        }
    }

    /** Drains and stops the pipeline (every thread ended); it is stopped once. */
    private void drain() throws InterruptedException {
        Pipeline p = pipeline;
        pipeline = null;
        assertThat(p.drainAndStop(20, TimeUnit.SECONDS)).as("drained in time").isTrue();
        assertThat(p.threads()).allSatisfy(t -> assertThat(t.isAlive()).as(t.getName()).isFalse());
    }

    /** What a sink saw of each event: its kv fields and its tags. */
    private static final class RecordingSink implements Sink {
        final List<String> seen = Collections.synchronizedList(new ArrayList<>());

        @Override
        public long append(LogEvent e) {
            StringBuilder b = new StringBuilder();
            b.append(MessageParserFixture.fields(e)).append(" tags=[");
            for (int i = 0; i < e.tagCount(); i++) {
                b.append(i == 0 ? "" : ",").append(Tags.nameString(e.tagAt(i)));
            }
            seen.add(b.append(']').toString());
            return 1;
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    private RecordingSink start(int maxFields, long maxFieldLength) throws Exception {
        return start(maxFields, maxFieldLength, null);
    }

    private RecordingSink start(int maxFields, long maxFieldLength, SerialStage serial) throws Exception {
        PipelineConfig cfg = new PipelineConfig(64, 2, PipelineConfig.WaitStrategyName.blocking, 0, "UTC", maxFields,
                new ByteSize(maxFieldLength));
        List<EventParser> workers = new ArrayList<>();
        for (int k = 0; k < 2; k++) {
            SyslogHeaderParser header = new SyslogHeaderParser(ZoneOffset.UTC);
            EventParser kv = MessageParserFixture.parserFromYaml("kv",
                    metrics.group("Parser", "kv-" + k));
            workers.add(e -> {
                header.parse(e);
                kv.parse(e);
            });
        }
        RecordingSink sink = new RecordingSink();
        pipeline = new Pipeline(cfg, workers, serial, 0, List.of(new SinkBinding("out",
                new FlushPolicy(16, Long.MAX_VALUE, Long.MAX_VALUE), sink)), metrics, () -> 1_000L);
        pipeline.start();
        return sink;
    }

    private void publish(String msg) {
        pipeline.ring().publishEvent(FILL, ("<13>Oct 11 22:14:15 host app: " + msg).getBytes(StandardCharsets.UTF_8));
    }

    private long counted(String metric) {
        return metrics.require("Stage", "parse-0").value(metric) + metrics.require("Stage", "parse-1").value(metric);
    }

    @Test
    void eventsAreLimitedTaggedAndTheHitsCountedByTheParseWorkers() throws Exception {
        RecordingSink sink = start(3, 4);
        publish("a=1 b=2 c=3 d=4 e=5"); // two pairs over
        publish("a=1 long=123456"); // one value over
        publish("a=1 b=2 c=1234"); // exactly at both limits
        drain();

        assertThat(sink.seen).containsExactly(
                "{a=1, b=2, c=3} tags=[.limit.max-fields]",
                "{a=1, long=1234} tags=[.limit.max-field-length]",
                "{a=1, b=2, c=1234} tags=[]");
        assertThat(counted("fieldsDropped")).isEqualTo(2);
        assertThat(counted("valuesTruncated")).isEqualTo(1);
    }

    @Test
    void everySlotOfTheRingIsLimited() throws Exception {
        RecordingSink sink = start(1, 1 << 20);
        int n = 200; // three laps of the 64-slot ring
        for (int i = 0; i < n; i++) {
            publish("first=" + i + " second=x");
        }
        drain();
        assertThat(sink.seen).hasSize(n).allSatisfy(s -> assertThat(s).doesNotContain("second")
                .endsWith("tags=[.limit.max-fields]"));
        assertThat(counted("fieldsDropped")).isEqualTo(n);
        assertThat(counted("valuesTruncated")).isZero();
    }

    @Test
    void theSerialStageCountsWhatTheEventsItGeneratesHit() throws Exception {
        // a correlation-like stage: for each message, a copy (limited as the slot is) with two more pairs
        SerialStage generator = new SerialStage() {
            @Override
            public String name() {
                return "gen";
            }

            @Override
            public void onEvent(LogEvent event) {
                if (event.hasFlag(LogEvent.FLAG_CARRIER)) {
                    return;
                }
                LogEvent g = LogEvent.copyOf(event);
                g.fields().set("x", "1");
                g.fields().set("y", "2");
                event.attach(g);
            }
        };
        RecordingSink sink = start(2, 1 << 20, generator);
        publish("a=1"); // the message itself is within the limits
        drain();

        assertThat(sink.seen).containsExactly("{a=1, x=1} tags=[.limit.max-fields]", "{a=1} tags=[]");
        assertThat(metrics.require("Stage", "gen").value("fieldsDropped")).isEqualTo(1);
        assertThat(counted("fieldsDropped")).isZero();
    }
}
