package dev.logrouter.core.event;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;

/**
 * The offset of a zone at an instant, cached per hour so that a steady stream of messages asks the
 * zone rules (which allocate) about once an hour. Fixed-offset zones (UTC) never ask.
 *
 * <p>Threads: one instance per thread (it caches without synchronisation).
 */
public final class ZoneOffsetCache {

    private final ZoneRules rules;
    private final boolean fixed;
    private final int fixedOffset;
    private long cachedHour = Long.MIN_VALUE;
    private int cachedOffset;

    public ZoneOffsetCache(ZoneId zone) {
        this.rules = zone.getRules();
        this.fixed = rules.isFixedOffset();
        this.fixedOffset = fixed ? rules.getOffset(Instant.EPOCH).getTotalSeconds() : 0;
    }

    public static ZoneOffsetCache utc() {
        return new ZoneOffsetCache(ZoneOffset.UTC);
    }

    /** Offset in seconds east of UTC at {@code epochSecond}. */
    public int offsetAt(long epochSecond) {
        if (fixed) {
            return fixedOffset;
        }
        long hour = Math.floorDiv(epochSecond, 3600L);
        if (hour != cachedHour) {
            cachedOffset = rules.getOffset(Instant.ofEpochSecond(epochSecond)).getTotalSeconds();
            cachedHour = hour;
        }
        return cachedOffset;
    }
}
