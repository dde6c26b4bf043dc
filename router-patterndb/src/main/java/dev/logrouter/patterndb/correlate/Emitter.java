package dev.logrouter.patterndb.correlate;

import dev.logrouter.core.event.LogEvent;

/**
 * Receives the messages the {@link Correlator} generates (action messages, timeout messages). Each event passed is a
 * new object owned by the receiver from then on, flagged {@link LogEvent#FLAG_GENERATED}.
 *
 * <p>Threads: called on the correlation thread, inside the {@link Correlator} call that generated the message.
 */
@FunctionalInterface
public interface Emitter {

    void emit(LogEvent generated);
}
