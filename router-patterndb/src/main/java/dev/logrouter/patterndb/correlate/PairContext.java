package dev.logrouter.patterndb.correlate;

import dev.logrouter.core.event.EventContext;
import dev.logrouter.core.event.LogEvent;

/**
 * The pseudo context an action message of a rule without context is evaluated over (spec 8.7 step 3): the
 * triggering message then the generated message, no context id. Reused.
 *
 * <p>Threads: owned by the correlation thread.
 */
final class PairContext implements EventContext {

    private static final byte[] EMPTY = new byte[0];

    private LogEvent first;
    private LogEvent second;

    PairContext reset(LogEvent first, LogEvent second) {
        this.first = first;
        this.second = second;
        return this;
    }

    @Override
    public int size() {
        return 2;
    }

    @Override
    public LogEvent back(int n) {
        return n == 0 ? second : n == 1 ? first : null;
    }

    @Override
    public byte[] idArray() {
        return EMPTY;
    }

    @Override
    public int idOffset() {
        return 0;
    }

    @Override
    public int idLength() {
        return 0;
    }
}
