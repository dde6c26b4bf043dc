package dev.logrouter.core.sink;

import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * Configuration of one sink. The YAML {@code type} key selects the implementing record (registered by its module's
 * {@link dev.logrouter.core.config.ComponentProvider}); the record builds the sink ({@link #create}). Every sink has the batching options and the failure options
 * {@code max-retries} and {@code dead-letter} (declared with {@link #MAX_RETRIES_DOC} and {@link #DEAD_LETTER_DOC}).
 *
 * <p>Threads: immutable, any thread.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
public interface SinkConfig {

    /** The documentation of every sink's {@code max-retries} option. */
    String MAX_RETRIES_DOC = "Retries of a failing append or flush (backoff 10 ms doubling to 5 s) before the sink "
            + "gives its item up: -1 retries forever, holding the ring, so the sources pause and nothing is lost "
            + "(syslog-ng flow-control, rsyslog action.resumeRetryCount -1). N >= 0: after N retries the event "
            + "(a failed append) or the pending batch (a failed flush) is written to dead-letter with the reason, "
            + "counted (givenUp, deadLettered), and the sink goes on; until its next successful append or flush "
            + "each failing item is given up at once, without retries, so that one broken sink does not slow the "
            + "others (as rsyslog discards while an action is suspended; syslog-ng would drop from a full "
            + "destination queue). Starting the sink is always retried.";

    /** The common part of every sink's {@code dead-letter} documentation. */
    String DEAD_LETTER_DOC = "JSON-lines file for the items this sink gives up on after max-retries, one per line "
            + "with the reason; default data/dead-letter/<name>.jsonl.";

    /** Unique name: names the sink's counters and is used in routes' {@code to}. */
    String name();

    /** The sink's batching: count, bytes and age limits of a batch. */
    FlushPolicy flushPolicy();

    /** {@code max-retries}: -1 retries forever (lossless), N >= 0 gives an item up after N retries. */
    Integer maxRetries();

    /** {@code dead-letter}: the dead-letter file, or null for {@code data/dead-letter/<name>.jsonl}. */
    String deadLetter();

    /**
     * Builds the sink this record configures. Called once, on the thread that assembles the router; throws
     * {@link IllegalArgumentException} with a message an operator can act on when the options cannot work.
     */
    Sink create(SinkContext ctx);

    /**
     * A new encoder of this sink, the one {@link #create} uses, built without its delivery (no connection, file,
     * journal or client is made), for {@code logrouter test}, which shows what the sink would write
     * ({@link SinkEncoder#describe}). Null when the sink has no encoder to show. The default: null.
     */
    default SinkEncoder encoder(SinkContext ctx) {
        return null;
    }

    /**
     * Checks what loading the file cannot: files the sink will read at start (certificates, keys), so that
     * {@code check-config} reports them. Throws IllegalArgumentException naming the problem. The default has nothing
     * to check.
     */
    default void check() {
    }

    /** Checks a {@code max-retries} value (null: not given yet). */
    static void checkMaxRetries(Integer maxRetries) {
        if (maxRetries != null && maxRetries < -1) {
            throw new IllegalArgumentException("max-retries must be -1 (forever) or >= 0, got " + maxRetries);
        }
    }
}
