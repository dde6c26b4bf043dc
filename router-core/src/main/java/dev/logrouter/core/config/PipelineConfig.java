package dev.logrouter.core.config;

import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;

/**
 * The {@code pipeline:} section: the size of the ring, the parse workers, how the stages wait, the network I/O
 * threads, the receiver's time zone and the limits on each event's name-value pairs.
 *
 * <p>Threads: immutable, any thread.
 */
public record PipelineConfig(
        @Option(doc = "Slots in the ring (a power of two). Each slot keeps its buffers, so memory is about "
                + "ring-size × typical message size. Small rings stay in the CPU caches (4096 measured fastest on "
                + "2 cores); TCP senders are paused when it fills, so a bigger ring only absorbs longer bursts.",
                defaultValue = "4096")
        Integer ringSize,
        @Option(doc = "Parse worker threads; worker k parses the events whose sequence % parse-workers == k. "
                + "Header parsing alone is cheap: on 2 cores one worker measured faster than two.",
                defaultValue = "1")
        Integer parseWorkers,
        @Option(doc = "How a stage waits for events: backoff (spin, yield, then park up to 10 ms, or park at once "
                + "after an idle spell: see idle-park; no lock on publish), blocking (lock and condition, idle stages woken every 100 ms; stage-to-stage waits spin), yielding or busy-spin "
                + "(lowest latency, a core per stage).", defaultValue = "backoff")
        WaitStrategyName waitStrategy,
        @Option(doc = "Netty I/O threads shared by all network sources; 0 = number of cores. One thread reads "
                + "and frames well over half a million messages per second.", defaultValue = "1")
        Integer ioThreads,
        @Option(doc = "Zone for timestamps that carry no offset and for R_ date macros; empty = the system zone.",
                defaultValue = "''")
        String timeZone,
        @Option(doc = "Most name-value pairs one event keeps (structured data, parser output, rewrites and PatternDB "
                + "values together). A new name beyond it is dropped: counted in fieldsDropped of the stage, the "
                + "event tagged .limit.max-fields. 1000 is far more than real logs carry and is Elasticsearch's "
                + "default field limit per index; it bounds memory, since each ring slot keeps its table at the "
                + "largest size it carried (about 40 bytes per pair: 160 MiB for 4096 slots at the limit), where "
                + "a hostile 64 KiB JSON array of digits would make 32,000 pairs.", defaultValue = "1000")
        Integer maxFields,
        @Option(doc = "Longest value of a name-value pair in bytes. A longer value is cut to it at a UTF-8 character "
                + "boundary: counted in valuesTruncated of the stage, the event tagged .limit.max-field-length. "
                + "0 = the larger of 64KiB and the largest max-message-size of the sources: a value parsed out of a "
                + "message is never longer than the message, so then only values composed by templates (rewrite "
                + "set, PatternDB) can be cut, and raising max-message-size never cuts parsed values. Set it lower "
                + "to cap values for a store downstream (Lucene refuses terms over 32766 bytes).",
                defaultValue = "0")
        ByteSize maxFieldLength,
        @Option(doc = "With wait-strategy backoff: once a stage has had to park (traffic below what keeps it "
                + "busy), its next waits park this long at once, without spinning and yielding first, so that it "
                + "wakes to a batch of events instead of once per event; it spins first again when a wait finds 64 "
                + "or more events waiting. Adds up to about twice this much latency per stage (the park doubles "
                + "while nothing comes). 0 = always spin and yield first, as before 2026-11-27; at most 10ms. The "
                + "default 200us measured half the CPU per message of 0 at 100,000 msg/s into a file, and 7–11 % "
                + "more with a Kafka sink at full speed (see docs/performance.md).", defaultValue = "200us")
        TimeSpan idlePark,
        @Option(doc = "How long a clean stop (SIGTERM) may take in all: open connections are read dry (a connection "
                + "that flow control holds back waits for the sinks to make room; the sources read until a sixth of "
                + "this is left), the ring drains and the sinks flush, for as long as the sinks make progress, up "
                + "to this. What is left then is abandoned, counted "
                + "(Source abandonedConnections, abandonedBytes, abandoned; Ring abandoned; Sink lost), named in the "
                + "last log line, and the exit status is 1. The default is systemd's default TimeoutStopSec; give the "
                + "service manager a few seconds more (the shipped unit says 100s, the Docker docs --stop-timeout "
                + "100).", defaultValue = "90s")
        TimeSpan stopTimeout) {

    /** The backoff wait strategy's longest single park while idle, and so the largest {@code idle-park}. */
    public static final TimeSpan MAX_PARK = new TimeSpan(10_000_000L);

    /** {@code idle-park} when unset. */
    public static final TimeSpan DEFAULT_IDLE_PARK = new TimeSpan(200_000L);

    /** {@code stop-timeout} when unset: systemd's default {@code TimeoutStopSec}. */
    public static final TimeSpan DEFAULT_STOP_TIMEOUT = new TimeSpan(90_000_000_000L);

    /** All but {@code idle-park} and {@code stop-timeout}, which take their defaults. */
    public PipelineConfig(Integer ringSize, Integer parseWorkers, WaitStrategyName waitStrategy, Integer ioThreads,
            String timeZone, Integer maxFields, ByteSize maxFieldLength) {
        this(ringSize, parseWorkers, waitStrategy, ioThreads, timeZone, maxFields, maxFieldLength, null, null);
    }

    /** {@code stop-timeout}, or its default when unset. */
    public TimeSpan stopTimeoutOrDefault() {
        return stopTimeout == null ? DEFAULT_STOP_TIMEOUT : stopTimeout;
    }

    /** The value limit {@code max-field-length: 0} stands for when no source accepts longer messages. */
    public static final int DEFAULT_FIELD_LENGTH = 64 * 1024;

    public PipelineConfig {
        if (ringSize != null && (ringSize < 64 || Integer.bitCount(ringSize) != 1)) {
            throw new IllegalArgumentException("ring-size must be a power of two >= 64, got " + ringSize);
        }
        if (parseWorkers != null && (parseWorkers < 1 || parseWorkers > 64)) {
            throw new IllegalArgumentException("parse-workers must be 1..64, got " + parseWorkers);
        }
        if (ioThreads != null && ioThreads < 0) {
            throw new IllegalArgumentException("io-threads must be >= 0, got " + ioThreads);
        }
        if (idlePark != null && idlePark.nanos() > MAX_PARK.nanos()) {
            throw new IllegalArgumentException("idle-park must be at most " + MAX_PARK + ", got " + idlePark);
        }
        if (stopTimeout != null && stopTimeout.nanos() < 1_000_000_000L) {
            throw new IllegalArgumentException("stop-timeout must be at least 1s, got " + stopTimeout);
        }
        if (maxFields != null && (maxFields < 1 || maxFields > 1_000_000)) {
            throw new IllegalArgumentException("max-fields must be 1..1000000, got " + maxFields);
        }
        if (maxFieldLength != null && maxFieldLength.bytes() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("max-field-length must be below 2GiB, got " + maxFieldLength);
        }
        if (timeZone != null && !timeZone.isEmpty()) {
            try {
                java.time.ZoneId.of(timeZone);
            } catch (java.time.DateTimeException e) {
                throw new IllegalArgumentException("unknown time-zone '" + timeZone + "' (use e.g. UTC, Europe/Budapest)");
            }
        }
    }

    /** How long a backoff stage that had to park last time parks first ({@code idle-park}). */
    public TimeSpan idleParkOrDefault() {
        return idlePark == null ? DEFAULT_IDLE_PARK : idlePark;
    }

    /** The configured zone or the system default. */
    public java.time.ZoneId zone() {
        return timeZone == null || timeZone.isEmpty() ? java.time.ZoneId.systemDefault() : java.time.ZoneId.of(timeZone);
    }

    /**
     * The longest value in bytes an event's name-value pair keeps: {@code max-field-length}, or when that is 0 (or
     * unset) {@link #DEFAULT_FIELD_LENGTH}; {@link #resolveFieldLength} replaces 0 by what the sources accept.
     */
    public int fieldLengthLimit() {
        return resolveFieldLength(0).maxFieldLength().intBytes();
    }

    /**
     * This configuration with {@code max-field-length: 0} resolved: the larger of {@link #DEFAULT_FIELD_LENGTH} and
     * {@code largestMessage} (the largest max-message-size of the sources). A configured length is kept.
     */
    public PipelineConfig resolveFieldLength(long largestMessage) {
        if (maxFieldLength != null && maxFieldLength.bytes() > 0) {
            return this;
        }
        long bytes = Math.min(Integer.MAX_VALUE, Math.max(DEFAULT_FIELD_LENGTH, largestMessage));
        return new PipelineConfig(ringSize, parseWorkers, waitStrategy, ioThreads, timeZone, maxFields,
                new ByteSize(bytes), idlePark, stopTimeout);
    }

    /** The most name-value pairs an event keeps ({@code max-fields}; unlimited when unset). */
    public int fieldCountLimit() {
        return maxFields == null ? Integer.MAX_VALUE : maxFields;
    }

    /** Wait strategies. */
    public enum WaitStrategyName {
        backoff, blocking, yielding, @com.fasterxml.jackson.annotation.JsonProperty("busy-spin") busySpin
    }
}
