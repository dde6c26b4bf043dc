package dev.logrouter.core.pipeline;

import dev.logrouter.core.event.LogEvent;

/**
 * A stateful stage that sees every event, in ring order, on one thread, after all parse workers and
 * before the sinks (PatternDB correlation). It may attach generated events to the event it handles
 * ({@link LogEvent#attach}); sinks deliver those first. It never publishes into the ring.
 *
 * <p>Carrier events ({@link LogEvent#FLAG_CARRIER}) bring it a clock tick while the ring is idle, and a
 * final one ({@link LogEvent#FLAG_FINAL}) on a clean stop, after the sources stopped and before the ring
 * drains, so that what it holds can be flushed to the sinks.
 *
 * <p>Threads: every method is called by the stage's own thread, {@code serial-<name>}.
 */
public interface SerialStage {

    /** Name of the stage (thread name and {@code type=Stage,name=<name>}). */
    String name();

    /** Handles one event (a message, or a carrier). Must not throw on bad input. */
    void onEvent(LogEvent event);

    /**
     * A reload reached this stage (its control carrier, between two messages): the messages it generates from now on
     * are routed by {@code routing} (the new routes). The default ignores it.
     */
    default void reroute(dev.logrouter.core.parse.EventParser routing) {
    }

    /** Called once when the stage stops, after the last event. */
    default void onShutdown() {
    }
}
