package dev.logrouter.core.filter;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.util.Clock;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The token buckets of one {@code rate-limit()} filter, one per key, shared by every parse worker. Each bucket
 * holds at most {@code rate} tokens, starts full and refills continuously at {@code rate} tokens per second (as
 * syslog-ng's {@code rate-limit.c}, which adds whole tokens and so loses fractions; here the credit is kept in
 * token-nanoseconds and nothing is lost); a message takes one token or, when there is none, is rejected.
 *
 * <p>The table holds about {@code maxKeys} keys. A key unseen for a second has a full bucket, which is just
 * what a new bucket is, so such keys can be forgotten without changing any answer: when the table is full, a new
 * key sweeps them out (at most once a second). If the table is still full, the new key shares one overflow bucket
 * (also {@code rate} tokens per second) with every other key that found no room, and {@code overflow} counts the
 * message. So a flood of distinct keys can neither grow memory nor push out the buckets of keys in use.
 *
 * <p>Lookups do not allocate: a per-thread {@link Key} probe wraps the rendered key's bytes; only a new key is
 * copied. A key forgotten by a sweep just as another thread takes its bucket may for that moment have two
 * buckets (at most one extra burst).
 *
 * <p>Threads: thread-safe; built on the configuring thread, used by every parse worker.
 */
final class RateLimitTable {

    private static final long SECOND = 1_000_000_000L;

    private final int rate;
    private final int maxKeys;
    private final Clock clock;
    private final ConcurrentHashMap<Key, Bucket> buckets = new ConcurrentHashMap<>();
    private final Bucket overflowBucket;
    private final ReentrantLock sweeping = new ReentrantLock();
    private volatile long nextSweep;
    private final Counter passed;
    private final Counter rejected;
    private final Counter overflow;

    RateLimitTable(int rate, int maxKeys, Clock clock, Counter passed, Counter rejected, Counter overflow) {
        this.rate = rate;
        this.maxKeys = maxKeys;
        this.clock = clock;
        this.passed = passed;
        this.rejected = rejected;
        this.overflow = overflow;
        long now = clock.nanoTime();
        this.overflowBucket = new Bucket(rate, now);
        this.nextSweep = now;
    }

    /** Takes a token for {@code key} (whose bytes are set); true when there was one. */
    boolean tryAcquire(Key key) {
        long now = clock.nanoTime();
        Bucket b = buckets.get(key);
        if (b == null) {
            b = newBucket(key, now);
        }
        if (b.tryTake(now, rate)) {
            passed.inc();
            return true;
        }
        rejected.inc();
        return false;
    }

    /** Number of keys with their own bucket. */
    int keys() {
        return buckets.size();
    }

    private Bucket newBucket(Key key, long now) {
        if (buckets.size() >= maxKeys) {
            sweep(now);
            if (buckets.size() >= maxKeys) {
                overflow.inc();
                return overflowBucket;
            }
        }
        Bucket fresh = new Bucket(rate, now);
        Bucket raced = buckets.putIfAbsent(key.copy(), fresh);
        return raced != null ? raced : fresh;
    }

    /** Forgets the keys idle for a second (their buckets are full); one thread at a time, at most once a second. */
    private void sweep(long now) {
        if (now - nextSweep < 0 || !sweeping.tryLock()) {
            return;
        }
        try {
            nextSweep = now + SECOND;
            for (Iterator<Map.Entry<Key, Bucket>> it = buckets.entrySet().iterator(); it.hasNext(); ) {
                if (it.next().getValue().idleSince(now)) {
                    it.remove();
                }
            }
        } finally {
            sweeping.unlock();
        }
    }

    /**
     * A key's bytes. A probe ({@link #set}) belongs to one thread and is reused for every lookup; the table keeps
     * {@link #copy()}s, which never change.
     */
    static final class Key {
        private byte[] array = new byte[0];
        private int offset;
        private int length;
        private int hash;

        /** Points this probe at {@code a[off, off + len)} (not copied). */
        Key set(byte[] a, int off, int len) {
            array = a;
            offset = off;
            length = len;
            hash = ByteKeySet.hash(a, off, len);
            return this;
        }

        Key copy() {
            return new Key().set(Arrays.copyOfRange(array, offset, offset + length), 0, length);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.hash == hash
                    && Arrays.equals(array, offset, offset + length, k.array, k.offset, k.offset + k.length);
        }
    }

    /** One token bucket. Threads: any; its state is guarded by its monitor. */
    static final class Bucket {
        /** Token-nanoseconds: one token is {@link #SECOND}; at most {@code rate * SECOND}. */
        private long credit;
        private long last;

        Bucket(int rate, long now) {
            credit = rate * SECOND;
            last = now;
        }

        synchronized boolean tryTake(long now, int rate) {
            long elapsed = now - last;
            if (elapsed > 0) {
                long full = rate * SECOND;
                credit = elapsed >= SECOND ? full : Math.min(full, credit + elapsed * rate);
                last = now;
            }
            if (credit >= SECOND) {
                credit -= SECOND;
                return true;
            }
            return false;
        }

        /** True when a second has passed since the last use: the bucket is full, like a new one. */
        synchronized boolean idleSince(long now) {
            return now - last >= SECOND;
        }
    }
}
