package dev.logrouter.patterndb.correlate;

import dev.logrouter.core.event.EventContext;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.patterndb.classify.CompiledRule;

import java.nio.charset.StandardCharsets;

/**
 * One live correlation context (spec 8.2, 8.4): its key, the messages it collected (copies, oldest first), the rule
 * that touched it last (whose timeout actions run at expiry) and its timer.
 *
 * <p>Threads: owned by the correlation thread.
 */
final class Context implements EventContext {

    final ContextKey key;
    private final byte[] id;
    final ContextMessages messages = new ContextMessages();
    CompiledRule rule;
    /** The timer target: the context expires when the clock moves past it. */
    long expiresAt;
    /** Order among contexts with the same target: when their timers were (re)set. */
    long timerSeq;

    Context(ContextKey key) {
        this.key = key;
        this.id = key.id().getBytes(StandardCharsets.ISO_8859_1);
    }

    @Override
    public int size() {
        return messages.size();
    }

    @Override
    public LogEvent back(int n) {
        return messages.get(messages.size() - 1 - n);
    }

    LogEvent last() {
        return messages.get(messages.size() - 1);
    }

    @Override
    public byte[] idArray() {
        return id;
    }

    @Override
    public int idOffset() {
        return 0;
    }

    @Override
    public int idLength() {
        return id.length;
    }
}
