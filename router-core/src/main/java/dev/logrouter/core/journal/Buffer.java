package dev.logrouter.core.journal;

/**
 * Where a sink's messages wait for the destination: {@code memory} (the sink's batch; a destination that is down
 * holds the ring) or {@code journal} (the sink's crash-safe {@link Journal}; see {@link JournaledSink}).
 *
 * <p>Threads: immutable.
 */
public enum Buffer { memory, journal }
