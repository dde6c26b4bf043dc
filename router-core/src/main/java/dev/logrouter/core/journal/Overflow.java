package dev.logrouter.core.journal;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a journaled sink does when its journal is full ({@code max-size}, or the free-disk reserve reached):
 * {@code block} holds the ring (the sources pause, as a memory sink whose destination is down does);
 * {@code drop-newest} drops the message that does not fit, counts it ({@code overflowDropped}) and goes on, so the
 * other sinks and the senders are never held by this one; {@code drop-oldest} drops the oldest segment's records
 * not yet delivered (counted {@code overflowDropped}; the batch being sent goes to the dead-letter file) to make
 * room for the new ones, holding the ring only until that segment is deleted.
 *
 * <p>Threads: immutable.
 */
public enum Overflow {
    block,
    @JsonProperty("drop-newest") dropNewest,
    @JsonProperty("drop-oldest") dropOldest
}
