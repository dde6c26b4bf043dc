package dev.logrouter.core.parse.syslog;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;

/**
 * UTC offsets of the receiver's time zone, for zone-less timestamps and for the receive-time stamp.
 *
 * <p>Cost: for a fixed-offset zone ({@code UTC}, {@code +02:00}) the offset is a constant. For a region zone
 * ({@code Europe/Budapest}) each lookup is cached for the hour it falls in (one entry for instants, one for local
 * date-times); a miss costs one {@code Instant} or {@code LocalDateTime} allocation and a {@link ZoneRules} search,
 * i.e. about once per hour of wall clock for a live stream, more only when senders' clocks disagree by hours. A
 * transition that does not fall on a full hour (rare, e.g. Lord Howe's half hour) can be off by the cached hour.
 * For a local time inside a DST gap or overlap the offset before the transition is used, as {@link ZoneRules}
 * does.
 *
 * <p>Threads: a parse worker thread; one instance per worker, not thread-safe.
 */
final class ReceiverZoneOffsets {

    private final ZoneRules rules;
    private final boolean fixed;
    private final int fixedOffset;

    private long instantHour = Long.MIN_VALUE;
    private int instantHourOffset;
    private long localHour = Long.MIN_VALUE;
    private int localHourOffset;

    ReceiverZoneOffsets(ZoneId zone) {
        this.rules = zone.getRules();
        this.fixed = rules.isFixedOffset();
        this.fixedOffset = fixed ? rules.getOffset(Instant.EPOCH).getTotalSeconds() : 0;
    }

    /** Offset in seconds at the instant {@code epochSecond}. */
    int atInstant(long epochSecond) {
        if (fixed) {
            return fixedOffset;
        }
        long hour = Math.floorDiv(epochSecond, 3600L);
        if (hour != instantHour) {
            instantHourOffset = rules.getOffset(Instant.ofEpochSecond(hour * 3600L)).getTotalSeconds();
            instantHour = hour;
        }
        return instantHourOffset;
    }

    /** Offset in seconds for a wall-clock time given as seconds since 1970-01-01T00:00 local. */
    int atLocal(long localEpochSecond) {
        if (fixed) {
            return fixedOffset;
        }
        long hour = Math.floorDiv(localEpochSecond, 3600L);
        if (hour != localHour) {
            LocalDateTime local = LocalDateTime.ofEpochSecond(hour * 3600L, 0, ZoneOffset.UTC);
            localHourOffset = rules.getOffset(local).getTotalSeconds();
            localHour = hour;
        }
        return localHourOffset;
    }
}
