package dev.logrouter.host.file;

import com.lmax.disruptor.BatchEventProcessor;
import com.lmax.disruptor.BatchEventProcessorBuilder;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.YieldingWaitStrategy;
import dev.logrouter.core.config.ConfigLoader;
import dev.logrouter.core.config.TestFileSinkConfig;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.source.Source;
import dev.logrouter.core.source.SourceContext;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A real ring for a file source under test: one consumer thread parses each event with the router's header parser
 * and records what a sink would see (MSG, HOST, PROGRAM, PRI, FILE_NAME); its sequence is the completed sequence the
 * source checkpoints against. {@link #hold} stops the consumer (the ring fills: flow control).
 *
 * <p>Threads: the consumer thread records; the test thread reads {@link #messages()} (synchronized).
 */
final class RingHarness implements AutoCloseable {

    /** One delivered message. */
    record Msg(String msg, String host, String program, int pri, String file) {
    }

    final RingBuffer<LogEvent> ring;
    final MetricGroup metrics = new MetricGroup("Source", "files");
    private final BatchEventProcessor<LogEvent> processor;
    private final Thread thread;
    private final List<Msg> messages = new ArrayList<>();
    private volatile boolean hold;
    /** When set, gets each MSG instead of the message being recorded (large tests). */
    volatile java.util.function.Consumer<String> onMessage;
    private Source source;
    private boolean stopped;

    RingHarness(int size) {
        ring = RingBuffer.createMultiProducer(LogEvent.FACTORY, size, new YieldingWaitStrategy());
        SyslogHeaderParser parser = new SyslogHeaderParser(ZoneOffset.UTC);
        EventHandler<LogEvent> handler = (e, seq, end) -> {
            while (hold) {
                LockSupport.parkNanos(1_000_000);
            }
            if (e.hasFlag(LogEvent.FLAG_DISCARD)) {
                return;
            }
            parser.parse(e);
            int f = e.fields().indexOf("FILE_NAME".getBytes(StandardCharsets.UTF_8));
            java.util.function.Consumer<String> sink = onMessage;
            if (sink != null) {
                sink.accept(field(e, LogEvent.MSG));
                return;
            }
            Msg m = new Msg(field(e, LogEvent.MSG), field(e, LogEvent.HOST), field(e, LogEvent.PROGRAM), e.pri(),
                    f < 0 ? null : e.fields().get("FILE_NAME"));
            synchronized (messages) {
                messages.add(m);
            }
        };
        processor = new BatchEventProcessorBuilder().build(ring, ring.newBarrier(), handler);
        ring.addGatingSequences(processor.getSequence());
        thread = new Thread(processor, "consumer");
        thread.setDaemon(true);
        thread.start();
    }

    private static String field(LogEvent e, int field) {
        return new String(e.fieldArray(field), e.fieldOffset(field), e.fieldLength(field), StandardCharsets.UTF_8);
    }

    static FileSourceConfig config(String... yamlLines) throws Exception {
        StringBuilder y = new StringBuilder("sources:\n  - type: file\n    name: files\n");
        for (String l : yamlLines) {
            y.append("    ").append(l).append('\n');
        }
        y.append("sinks:\n  - type: file\n    name: out\n    path: /x\n");
        return (FileSourceConfig) new ConfigLoader(Map.of("file", FileSourceConfig.class),
                Map.of("file", TestFileSinkConfig.class)).load(y.toString(), "test").sources().get(0);
    }

    /** Builds and starts the source {@code cfg} configures on this ring. */
    Source start(FileSourceConfig cfg) throws Exception {
        source = cfg.create(new SourceContext(cfg.name(), 0, ZoneOffset.UTC, metrics, ring,
                () -> processor.getSequence().get(), 1, null));
        source.start();
        return source;
    }

    /** Stops the source the way the router does: stop reading, let the ring drain, then close (final checkpoint). */
    void stop() throws InterruptedException {
        if (stopped) {
            return;
        }
        stopped = true;
        source.stopAccepting();
        source.awaitPublished(10, TimeUnit.SECONDS);
        long published = ring.getCursor();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (processor.getSequence().get() < published && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000);
        }
        source.close();
    }

    void hold(boolean h) {
        hold = h;
    }

    List<Msg> messages() {
        synchronized (messages) {
            return new ArrayList<>(messages);
        }
    }

    int count() {
        synchronized (messages) {
            return messages.size();
        }
    }

    /** A counter's or gauge's value. */
    long value(String name) {
        return metrics.value(name);
    }

    @Override
    public void close() {
        hold = false;
        processor.halt();
    }
}
