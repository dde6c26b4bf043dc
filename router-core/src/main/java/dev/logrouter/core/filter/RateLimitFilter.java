package dev.logrouter.core.filter;

import dev.logrouter.core.event.LogEvent;

/**
 * {@code rate-limit(key("$HOST") rate(1000))} (alias {@code throttle()}, and {@code template()} for
 * {@code key()}, as in syslog-ng 4): matches while the bucket of the message's rendered key has a token; each
 * key gets {@code rate} messages per second with a burst of {@code rate} (see {@link RateLimitTable}). Without
 * {@code key()} every message shares one bucket. A logrouter extension, {@code max-keys(N)} (default
 * {@value #DEFAULT_MAX_KEYS}), bounds the number of keys with their own bucket.
 *
 * <p>The buckets are shared by every parse worker: {@link #newFilter()} gives each worker its own key reader and
 * probe over the one table of this node. Since {@code and}/{@code or} stop early, a token is taken only when the
 * rate limit is evaluated: write it last, as in syslog-ng ({@code program("app") and rate-limit(...)}).
 *
 * <p>Threads: the node and its table are shared and thread-safe; each {@link Filter} belongs to one thread.
 */
final class RateLimitFilter implements FilterNode {

    static final int DEFAULT_MAX_KEYS = 10_000;

    /** Name and description of the counters, in the metric group of the route. */
    static final String PASSED = "rateLimitPassed";
    static final String PASSED_DOC = "Messages that found a token in their key's bucket of a rate-limit() in "
            + "this route's filter.";
    static final String REJECTED = "rateLimitRejected";
    static final String REJECTED_DOC = "Messages that found their key's bucket of a rate-limit() in this route's "
            + "filter empty (rate-limit() did not match).";
    static final String OVERFLOW = "rateLimitOverflow";
    static final String OVERFLOW_DOC = "Messages whose rate-limit() key found the key table full (max-keys) and "
            + "shared the overflow bucket.";

    private final ValueRef key;
    private final String keyText;
    private final int rate;
    private final int maxKeys;
    private final RateLimitTable table;

    /**
     * @param key     the key template, or null for one bucket for every message
     * @param keyText the key template as written
     */
    RateLimitFilter(ValueRef key, String keyText, int rate, int maxKeys, RateLimitTable table) {
        this.key = key;
        this.keyText = keyText;
        this.rate = rate;
        this.maxKeys = maxKeys;
        this.table = table;
    }

    RateLimitTable table() {
        return table;
    }

    @Override
    public Filter newFilter() {
        return new Instance(key == null ? null : key.newReader(), table);
    }

    @Override
    public String describe() {
        return "rate-limit(" + (key == null ? "" : "key(\"" + keyText + "\") ") + "rate(" + rate + ")"
                + (maxKeys == DEFAULT_MAX_KEYS ? "" : " max-keys(" + maxKeys + ")") + ")";
    }

    private static final class Instance implements Filter {
        private static final byte[] NO_KEY = new byte[0];

        private final ValueRef.Reader reader;
        private final RateLimitTable table;
        private final RateLimitTable.Key probe = new RateLimitTable.Key();

        Instance(ValueRef.Reader reader, RateLimitTable table) {
            this.reader = reader;
            this.table = table;
        }

        @Override
        public boolean test(LogEvent event) {
            ValueRef.Reader r = reader;
            if (r == null) {
                probe.set(NO_KEY, 0, 0);
            } else {
                r.read(event);
                probe.set(r.array, r.offset, r.length);
            }
            return table.tryAcquire(probe);
        }
    }
}
