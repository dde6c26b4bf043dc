package dev.logrouter.core.pipeline;

import dev.logrouter.core.config.PipelineConfig;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.sink.Clock;
import dev.logrouter.core.sink.FlushPolicy;
import dev.logrouter.core.sink.Sink;
import org.junit.jupiter.api.Test;

import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the default backoff wait strategy an idle sink is ticked periodically on its own thread, which is
 * how files close after idle-close and interval fsyncs happen when traffic stops.
 */
class IdleTickTest {

    @Test
    void anIdleSinkIsTickedOnItsOwnThread() throws Exception {
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
        PipelineConfig cfg = new PipelineConfig(64, 1, PipelineConfig.WaitStrategyName.backoff, 1, "UTC");
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
