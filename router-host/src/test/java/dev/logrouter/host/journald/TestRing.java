package dev.logrouter.host.journald;

import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.LiteTimeoutBlockingWaitStrategy;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import com.lmax.disruptor.util.DaemonThreadFactory;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A real Disruptor ring as the router builds it, cut down: the real header parser ({@link SyslogHeaderParser}, as a
 * parse worker runs it), then a last stage that keeps a copy of each event. The completed sequence the source sees
 * is what that stage consumed, held back by {@link #ackUpTo} (a sink that has not made events durable yet), and the
 * stage can be {@link #pause}d (a slow sink: the ring fills).
 *
 * <p>Threads: the ring's two stage threads; the test thread reads {@link #events()} and sets the knobs.
 */
final class TestRing implements AutoCloseable {

    private final Disruptor<LogEvent> disruptor;
    private final List<LogEvent> events = new ArrayList<>();
    private volatile long consumed = -1;
    /** The highest sequence the "sinks" made durable (Long.MAX_VALUE: all consumed). */
    volatile long ackUpTo = Long.MAX_VALUE;
    volatile boolean pause;

    TestRing(int size, ZoneId zone) {
        disruptor = new Disruptor<>(LogEvent.FACTORY, size, DaemonThreadFactory.INSTANCE, ProducerType.MULTI,
                new LiteTimeoutBlockingWaitStrategy(10, TimeUnit.MILLISECONDS));
        SyslogHeaderParser parser = new SyslogHeaderParser(zone);
        EventHandler<LogEvent> parse = (e, seq, end) -> {
            if (!e.hasFlag(LogEvent.FLAG_DISCARD)) {
                parser.parse(e);
            }
        };
        EventHandler<LogEvent> keep = (e, seq, end) -> {
            while (pause) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            if (!e.hasFlag(LogEvent.FLAG_DISCARD)) {
                LogEvent copy = LogEvent.copyOf(e);
                synchronized (events) {
                    events.add(copy);
                }
            }
            consumed = seq;
        };
        disruptor.handleEventsWith(parse).then(keep);
        disruptor.start();
    }

    RingBuffer<LogEvent> ring() {
        return disruptor.getRingBuffer();
    }

    /** The completed sequence: consumed by the last stage and acknowledged. */
    long completed() {
        return Math.min(consumed, ackUpTo);
    }

    long consumed() {
        return consumed;
    }

    List<LogEvent> events() {
        synchronized (events) {
            return new ArrayList<>(events);
        }
    }

    int count() {
        synchronized (events) {
            return events.size();
        }
    }

    @Override
    public void close() {
        pause = false;
        disruptor.halt();
    }
}
