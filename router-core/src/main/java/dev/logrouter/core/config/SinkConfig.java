package dev.logrouter.core.config;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.logrouter.core.sink.FlushPolicy;

/**
 * Configuration of one sink. The YAML {@code type} key selects the implementing record; sink modules
 * register their types with {@link ConfigLoader}. Every sink has the batching options.
 *
 * <p>Threads: immutable, any thread.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
public interface SinkConfig {

    /** Unique name: names the sink's counters and is used in routes' {@code to}. */
    String name();

    /** The sink's batching: count, bytes and age limits of a batch. */
    FlushPolicy flushPolicy();
}
