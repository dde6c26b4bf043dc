package dev.logrouter.core.pipeline;

import com.lmax.disruptor.EventHandler;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;

/**
 * Runs a {@link SerialStage} as a Disruptor stage between the parse workers and the sinks.
 *
 * <p>Threads: its own stage thread, {@code serial-<name>}.
 */
final class SerialStageHandler implements EventHandler<LogEvent> {

    private final SerialStage stage;
    private final Counter carriers;
    private final FieldLimitCounters limits;

    SerialStageHandler(SerialStage stage, MetricGroup metrics) {
        this.stage = stage;
        this.carriers = metrics.counter("carriers", "Carrier events (clock ticks, the final flush) it handled.");
        this.limits = new FieldLimitCounters(metrics);
    }

    @Override
    public void onStart() {
        Thread.currentThread().setName("serial-" + stage.name());
    }

    @Override
    public void onEvent(LogEvent event, long sequence, boolean endOfBatch) {
        if (event.hasFlag(LogEvent.FLAG_CARRIER)) {
            carriers.inc();
            if (event.control() instanceof Reconfiguration r && r.serialRouting() != null) {
                stage.reroute(r.serialRouting());
            }
        }
        stage.onEvent(event);
        // the field limits the events it generated hit (the event itself was counted by its parse worker)
        for (int k = 0, n = event.attachedCount(); k < n; k++) {
            limits.count(event.attachedAt(k));
        }
    }

    @Override
    public void onShutdown() {
        stage.onShutdown();
    }
}
