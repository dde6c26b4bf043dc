package dev.logrouter.core.config;

/**
 * The ring and its stages.
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
        @Option(doc = "How a stage waits for events: backoff (spin, yield, then park up to 10 ms; no lock on "
                + "publish), blocking (lock and condition, idle stages woken every 100 ms; stage-to-stage waits spin), yielding or busy-spin "
                + "(lowest latency, a core per stage).", defaultValue = "backoff")
        WaitStrategyName waitStrategy,
        @Option(doc = "Netty I/O threads shared by all network sources; 0 = number of cores. One thread reads "
                + "and frames well over half a million messages per second.", defaultValue = "1")
        Integer ioThreads,
        @Option(doc = "Zone for timestamps that carry no offset and for R_ date macros; empty = the system zone.",
                defaultValue = "''")
        String timeZone) {

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
        if (timeZone != null && !timeZone.isEmpty()) {
            try {
                java.time.ZoneId.of(timeZone);
            } catch (java.time.DateTimeException e) {
                throw new IllegalArgumentException("unknown time-zone '" + timeZone + "' (use e.g. UTC, Europe/Budapest)");
            }
        }
    }

    /** The configured zone or the system default. */
    public java.time.ZoneId zone() {
        return timeZone == null || timeZone.isEmpty() ? java.time.ZoneId.systemDefault() : java.time.ZoneId.of(timeZone);
    }

    /** Wait strategies. */
    public enum WaitStrategyName {
        backoff, blocking, yielding, @com.fasterxml.jackson.annotation.JsonProperty("busy-spin") busySpin
    }
}
