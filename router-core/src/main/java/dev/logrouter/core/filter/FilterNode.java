package dev.logrouter.core.filter;

/**
 * One compiled, immutable node of a filter expression tree. {@link #newFilter()} builds the runnable
 * {@link Filter} for one thread; nodes without scratch state may return one shared instance.
 *
 * <p>Threads: built on the configuring thread; {@link #newFilter()} may be called from any thread.
 */
interface FilterNode {

    /** A filter for one thread: it may hold matchers and buffers that no other thread touches. */
    Filter newFilter();

    /** The node in syslog-ng syntax, for diagnostics. */
    String describe();
}
