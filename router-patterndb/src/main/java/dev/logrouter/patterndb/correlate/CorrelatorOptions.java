package dev.logrouter.patterndb.correlate;

/**
 * Limits and settings of a {@link Correlator}.
 *
 * <p>Threads: immutable.
 *
 * @param maxContexts        live contexts at most (a context flood is bounded by it): when the cap is reached a
 *                           new context is not created (counted as {@code contextsRefused}; the message is then
 *                           processed as if its rule did not correlate); also the bound of rate-limit buckets
 * @param maxContextMessages messages kept per context at most: beyond it the oldest is dropped (counted as
 *                           {@code trimmed}; {@code @N} beyond the kept ones reads as empty and
 *                           {@code $(context-length)} stops growing). 0 = unlimited, as the reference
 */
public record CorrelatorOptions(int maxContexts, int maxContextMessages) {

    public static final int DEFAULT_MAX_CONTEXTS = 100_000;
    public static final int DEFAULT_MAX_CONTEXT_MESSAGES = 10_000;

    public CorrelatorOptions {
        if (maxContexts < 1) {
            throw new IllegalArgumentException("maxContexts must be at least 1, got " + maxContexts);
        }
        if (maxContextMessages < 0) {
            throw new IllegalArgumentException("maxContextMessages cannot be negative, got " + maxContextMessages);
        }
    }

    /** 100,000 contexts, 10,000 messages per context. */
    public static CorrelatorOptions defaults() {
        return new CorrelatorOptions(DEFAULT_MAX_CONTEXTS, DEFAULT_MAX_CONTEXT_MESSAGES);
    }
}
