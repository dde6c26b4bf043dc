package dev.logrouter.core.filter;

import dev.logrouter.core.event.LogEvent;

/**
 * A compiled filter expression, evaluated once per message by a route.
 *
 * <p>Threads: an instance keeps scratch state (regex matchers) and belongs to one parse worker; get
 * one per worker from {@link FilterExpression#newFilter()}.
 */
@FunctionalInterface
public interface Filter {

    /** True when the message matches. Never throws on any message content. */
    boolean test(LogEvent event);
}
