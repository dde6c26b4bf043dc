package dev.logrouter.core.journal;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a journaled sink does when its journal is full ({@code max-size}, or the free-disk reserve reached):
 * {@code block} holds the ring (the sources pause, as a memory sink whose destination is down does);
 * {@code drop-newest} drops the message that does not fit, counts it ({@code overflowDropped}) and goes on, so the
 * other sinks and the senders are never held by this one.
 *
 * <p>Threads: immutable.
 */
public enum Overflow {
    block,
    @JsonProperty("drop-newest") dropNewest
}
