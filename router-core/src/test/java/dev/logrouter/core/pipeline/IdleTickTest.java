package dev.logrouter.core.pipeline;

import dev.logrouter.core.config.PipelineConfig;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.sink.FlushPolicy;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.util.Clock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the backoff (default) and blocking wait strategies an idle sink is ticked periodically on its own thread,
 * which is how a partial batch is flushed at flush-timeout, files close after idle-close and interval fsyncs happen
 * when traffic stops.
 */
class IdleTickTest {

    @ParameterizedTest
    @EnumSource(value = PipelineConfig.WaitStrategyName.class, names = {"backoff", "blocking"})
    void anIdleSinkIsTickedOnItsOwnThread(PipelineConfig.WaitStrategyName strategy) throws Exception {
        List<String> tickThreads = new CopyOnWriteArrayList<>();
        CountDownLatch twoTicks = new CountDownLatch(2);
        Sink sink = new Sink() {
            @Override
            public long append(LogEvent event) {
                return 1;
            }

            @Override
            public void flush() {
            }

            @Override
            public void tick() {
                tickThreads.add(Thread.currentThread().getName());
                twoTicks.countDown();
            }

            @Override
            public void close() {
            }
        };
        PipelineConfig cfg = new PipelineConfig(64, 1, strategy, 1, "UTC", 1000, null);
        Pipeline pipeline = new Pipeline(cfg, List.of(new SyslogHeaderParser(ZoneOffset.UTC)),
                List.of(new SinkBinding("idle", new FlushPolicy(10, 1 << 20, TimeUnit.SECONDS.toNanos(1)), sink)),
                new MetricRegistry(), Clock.SYSTEM);
        pipeline.start();
        try {
            assertThat(twoTicks.await(10, TimeUnit.SECONDS)).as("two idle ticks").isTrue();
            assertThat(tickThreads).hasSizeGreaterThanOrEqualTo(2).allMatch("sink-idle"::equals);
        } finally {
            assertThat(pipeline.drainAndStop(10, TimeUnit.SECONDS)).isTrue();
        }
    }
}
