package dev.logrouter.core.pipeline;

import dev.logrouter.core.sink.FlushPolicy;
import dev.logrouter.core.sink.Sink;

/**
 * A sink as the pipeline needs it: its name, its batching and the instance.
 *
 * <p>Threads: immutable.
 */
public record SinkBinding(String name, FlushPolicy policy, Sink sink) {
}
