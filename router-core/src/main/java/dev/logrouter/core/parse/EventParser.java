package dev.logrouter.core.parse;

import dev.logrouter.core.event.LogEvent;

/**
 * One parsing step applied to an event in a parse worker. Implementations keep reusable scratch state,
 * so each worker gets its own instance.
 *
 * <p>Threads: called by exactly one parse worker thread.
 */
@FunctionalInterface
public interface EventParser {

    /** Parses in place. Must not throw on bad input: record the failure on the event and count it. */
    void parse(LogEvent event);
}
