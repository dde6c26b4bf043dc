package dev.logrouter.patterndb.correlate;

import java.time.ZoneId;

/**
 * Limits and settings of a {@link Correlator}.
 *
 * @param maxContexts        live contexts at most (a context flood is bounded by it): when the cap is reached a
 *                           new context is not created (counted as {@code contextsRefused}; the message is then
 *                           processed as if its rule did not correlate); also the bound of rate-limit buckets
 * @param maxContextMessages messages kept per context at most: beyond it the oldest is dropped (counted as
 *                           {@code trimmed}; {@code @N} beyond the kept ones reads as empty and
 *                           {@code $(context-length)} stops growing). 0 = unlimited, as the reference
 * @param zone               zone of receive-time date macros in rule templates
 *
 * <p>Threads: immutable.
 */
public record CorrelatorOptions(int maxContexts, int maxContextMessages, ZoneId zone) {

    public static final int DEFAULT_MAX_CONTEXTS = 100_000;
    public static final int DEFAULT_MAX_CONTEXT_MESSAGES = 10_000;

    public CorrelatorOptions {
        if (maxContexts < 1) {
            throw new IllegalArgumentException("maxContexts must be at least 1, got " + maxContexts);
        }
        if (maxContextMessages < 0) {
            throw new IllegalArgumentException("maxContextMessages cannot be negative, got " + maxContextMessages);
        }
        if (zone == null) {
            throw new IllegalArgumentException("zone is required");
        }
    }

    /** 100,000 contexts, 10,000 messages per context, the system zone. */
    public static CorrelatorOptions defaults() {
        return new CorrelatorOptions(DEFAULT_MAX_CONTEXTS, DEFAULT_MAX_CONTEXT_MESSAGES, ZoneId.systemDefault());
    }
}
