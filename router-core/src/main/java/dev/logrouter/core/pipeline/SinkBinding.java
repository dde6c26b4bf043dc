package dev.logrouter.core.pipeline;

import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.FlushPolicy;
import dev.logrouter.core.sink.Sink;

/**
 * A sink as the pipeline needs it: its name, its batching, the instance, and what happens when it keeps failing
 * ({@code max-retries}: -1 retries forever; the dead-letter file for the items given up, shared with the sink).
 *
 * <p>Threads: immutable.
 *
 * @param deadLetters the sink's dead-letter file, or null for {@code data/dead-letter/<name>.jsonl}
 */
public record SinkBinding(String name, FlushPolicy policy, Sink sink, int maxRetries, DeadLetterFile deadLetters) {

    /** A sink that retries forever (lossless). */
    public SinkBinding(String name, FlushPolicy policy, Sink sink) {
        this(name, policy, sink, -1, null);
    }
}
