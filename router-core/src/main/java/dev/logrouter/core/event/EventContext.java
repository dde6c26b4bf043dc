package dev.logrouter.core.event;

/**
 * The ordered list of messages a template or filter is evaluated over when it runs "over a context" (a
 * PatternDB correlation context, syslog-ng's {@code LogMessage **messages}): {@code ${NAME}@N} reads message
 * {@link #back(int) back(N)}, {@code $(context-length)} prints {@link #size()}, {@code $CONTEXT_ID} prints
 * {@link #idArray()}. The correlator attaches it to the event being evaluated with
 * {@link LogEvent#setContext(EventContext)}; by convention that event is the last message of the list
 * ({@code back(0)}).
 *
 * <p>Threads: owned by the one thread that evaluates over it (the correlation stage); not shared.
 */
public interface EventContext {

    /** Number of messages in the list (at least 1). */
    int size();

    /** The message {@code n} places back from the last: 0 = the last, {@code size() - 1} = the oldest. */
    LogEvent back(int n);

    /** The bytes of the context id ({@code $CONTEXT_ID}); with {@link #idLength()} 0 when there is none. */
    byte[] idArray();

    int idOffset();

    int idLength();
}
