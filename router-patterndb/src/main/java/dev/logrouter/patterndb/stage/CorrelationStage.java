package dev.logrouter.patterndb.stage;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.pipeline.SerialStage;
import dev.logrouter.core.route.RouteEvaluator;
import dev.logrouter.patterndb.classify.CompiledRule;
import dev.logrouter.patterndb.correlate.Correlator;

/**
 * The PatternDB correlation stage: the one thread that owns every correlation context. It sees each event
 * after the parse workers classified it, moves the message clock, expires contexts, adds the message to
 * its context, evaluates a correlating rule's values over the context and runs the rules' actions. Messages
 * the actions generate are routed here (the routes' patterndb steps skip them) and attached to the event
 * being handled, so the sinks deliver them before it — the order syslog-ng's daemon delivers them in
 * (expired contexts' output, the match actions' output, then the message). Nothing is published back into
 * the ring.
 *
 * <p>Clock ticks arrive as carrier events while the ring is idle; the final carrier of a clean stop expires
 * every open context when {@code patterndb.expire-on-stop} is set.
 *
 * <p>Threads: the serial stage thread only.
 */
public final class CorrelationStage implements SerialStage {

    /** Replaced by a reload, on this stage's thread. */
    private dev.logrouter.core.parse.EventParser routes;
    private final Correlator correlator;
    private final boolean expireOnStop;
    private final Counter generated;
    private LogEvent carrier;
    private final Correlator.Emitter emitter = this::deliver;

    public CorrelationStage(PatternDbService service, RouteEvaluator routes, PatternDbConfig cfg,
                            MetricGroup metrics) {
        this.routes = routes;
        service.correlationStageRunning();
        this.correlator = new Correlator(cfg.maxContexts(), metrics);
        this.expireOnStop = cfg.expireOnStop();
        this.generated = metrics.counter("delivered",
                "Generated messages handed to the routes (their sinks count what they write).");
    }

    @Override
    public void reroute(dev.logrouter.core.parse.EventParser routing) {
        routes = routing;
    }

    @Override
    public String name() {
        return "correlation";
    }

    @Override
    public void onEvent(LogEvent event) {
        carrier = event;
        if (event.hasFlag(LogEvent.FLAG_CARRIER)) {
            if (event.hasFlag(LogEvent.FLAG_FINAL)) {
                if (expireOnStop) {
                    correlator.expireAll(emitter);
                }
            } else {
                correlator.tick(emitter);
            }
            return;
        }
        Object work = event.serialWork();
        if (work == null) {
            return; // no patterndb step saw it
        }
        correlator.process(event, work instanceof CompiledRule r ? r : null, emitter);
    }

    /** Routes a generated message and attaches it to the event being handled. */
    private void deliver(LogEvent g) {
        LogEvent from = carrier;
        routes.parse(g); // g carries the source of the message it was generated for
        from.attach(g);
        generated.inc();
    }
}
