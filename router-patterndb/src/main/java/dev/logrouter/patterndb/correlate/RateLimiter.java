package dev.logrouter.patterndb.correlate;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Token buckets of action rate limits (spec 8.6, syslog-ng {@code _is_action_within_rate_limit}): a bucket per key
 * starts full (N tokens) at its first use; on a later use it gains
 * {@code ((now - last) << 8) / ((Q << 8) / N)} tokens (8-bit fixed point, whole clock seconds), capped at N, and
 * {@code last} moves only when at least one token was gained; a use passes iff a token is left (then it is taken).
 *
 * <p>Bounded: when {@code maxBuckets} is reached, buckets that would be full again now are dropped (a full bucket
 * behaves exactly as a new one, so this changes no decision); if that frees nothing, every bucket is dropped and
 * {@link #resets()} counts it.
 *
 * <p>Threads: owned by the correlation thread.
 */
final class RateLimiter {

    private static final class Bucket {
        final int rate;
        final int period;
        int tokens;
        long lastCheck;

        Bucket(int rate, int period, long now) {
            this.rate = rate;
            this.period = period;
            this.tokens = rate;
            this.lastCheck = now;
        }

        long credits(long now) {
            long divisor = Math.max(((long) period << 8) / rate, 1L);
            return ((now - lastCheck) << 8) / divisor;
        }
    }

    private final Map<ContextKey, Bucket> buckets = new HashMap<>();
    private final int maxBuckets;

    RateLimiter(int maxBuckets) {
        this.maxBuckets = Math.max(maxBuckets, 1);
    }

    /** True when a message may be generated under {@code key} at clock {@code now} (rate N per {@code period} s). */
    boolean tryAcquire(ContextKey key, int rate, int period, long now) {
        Bucket b = buckets.get(key);
        if (b == null) {
            if (buckets.size() >= maxBuckets) {
                evict(now);
            }
            b = new Bucket(rate, period, now);
            buckets.put(key, b);
        } else {
            long credits = b.credits(now);
            if (credits > 0) {
                b.tokens = (int) Math.min(b.tokens + credits, b.rate);
                b.lastCheck = now;
            }
        }
        if (b.tokens > 0) {
            b.tokens--;
            return true;
        }
        return false;
    }

    private void evict(long now) {
        for (Iterator<Bucket> it = buckets.values().iterator(); it.hasNext(); ) {
            Bucket b = it.next();
            if (b.tokens + b.credits(now) >= b.rate) {
                it.remove();
            }
        }
        if (buckets.size() >= maxBuckets) {
            buckets.clear();
        }
    }

}
