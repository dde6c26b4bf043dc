package dev.logrouter.core.event;

/**
 * A reusable one-message {@link EventContext}: what syslog-ng passes to a template when it evaluates it on a single
 * message of a larger context ({@code $(grep)} and {@code $(context-values)} on each message,
 * {@code $(func)@N}). The context id is the enclosing context's, as in syslog-ng.
 *
 * <p>Threads: scratch state of one template function or template; belongs to its thread.
 */
public final class SingleEventContext implements EventContext {

    private static final byte[] EMPTY = new byte[0];

    private LogEvent event;
    private EventContext parent;
    private EventContext saved;

    /**
     * Makes this the context of {@code e} — {@code e} alone, with the id of {@code parent} (may be null) — until
     * {@link #exit()}, which gives {@code e} back the context it had. Not re-entrant: one evaluation at a time.
     */
    public void enter(LogEvent e, EventContext parent) {
        this.event = e;
        this.parent = parent;
        this.saved = e.context();
        e.setContext(this);
    }

    /** Ends what {@link #enter} began. */
    public void exit() {
        event.setContext(saved);
        saved = null;
    }

    @Override
    public int size() {
        return 1;
    }

    @Override
    public LogEvent back(int n) {
        return n == 0 ? event : null;
    }

    @Override
    public byte[] idArray() {
        return parent == null ? EMPTY : parent.idArray();
    }

    @Override
    public int idOffset() {
        return parent == null ? 0 : parent.idOffset();
    }

    @Override
    public int idLength() {
        return parent == null ? 0 : parent.idLength();
    }
}
