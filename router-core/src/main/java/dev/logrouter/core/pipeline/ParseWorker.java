package dev.logrouter.core.pipeline;

import com.lmax.disruptor.EventHandler;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.parse.EventParser;

/**
 * Parse stage, one of {@code n} sharded workers: worker {@code k} parses the events whose sequence
 * {@code % n == k} and skips the rest, so the stateless parsing runs in parallel without any
 * coordination between workers. It counts the field limits each event hit ({@link FieldLimitCounters}). Every worker
 * sees every slot, so each takes a reload's new parser at the same carrier ({@link Reconfiguration}).
 *
 * <p>Threads: runs on its own thread, {@code parse-<k>}.
 */
public final class ParseWorker implements EventHandler<LogEvent> {

    private final int ordinal;
    private final int count;
    /** Replaced at a reload's carrier, on this thread. */
    private EventParser parser;
    private final Counter parsed;
    private final Counter errors;
    private final FieldLimitCounters limits;

    public ParseWorker(int ordinal, int count, EventParser parser, MetricGroup metrics) {
        this.ordinal = ordinal;
        this.count = count;
        this.parser = parser;
        this.parsed = metrics.counter("parsed", "Events whose syslog header this worker parsed.");
        this.errors = metrics.counter("parseErrors",
                "Events whose header could not be parsed (kept, with a replacement message as syslog-ng does).");
        this.limits = new FieldLimitCounters(metrics);
    }

    @Override
    public void onStart() {
        Thread.currentThread().setName("parse-" + ordinal);
    }

    @Override
    public void onEvent(LogEvent event, long sequence, boolean endOfBatch) {
        if (sequence % count != ordinal || event.hasFlag(LogEvent.FLAG_DISCARD)) { // carriers, unfilled slots
            if (event.hasFlag(LogEvent.FLAG_CARRIER) && event.control() instanceof Reconfiguration r) {
                parser = r.parsers().get(ordinal);
            }
            return;
        }
        parser.parse(event);
        parsed.inc();
        if (event.hasFlag(LogEvent.FLAG_PARSE_ERROR)) {
            errors.inc();
        }
        limits.count(event);
    }
}
