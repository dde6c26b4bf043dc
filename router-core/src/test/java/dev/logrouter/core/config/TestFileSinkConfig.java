package dev.logrouter.core.config;

import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.sink.FlushPolicy;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.sink.SinkConfig;
import dev.logrouter.core.sink.SinkContext;

/**
 * A test-only sink type ({@code type: file}) with a required path and the batching and failure options every
 * sink has. The real sink configs live in router-sinks.
 *
 * <p>Threads: immutable.
 */
public record TestFileSinkConfig(
        @Option(doc = "Unique sink name.", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "Path template of the output file.", defaultValue = Option.REQUIRED)
        String path,
        @Option(doc = "Most events in one batch.", defaultValue = "1000")
        Integer batchSize,
        @Option(doc = "Most bytes in one batch.", defaultValue = "1MiB")
        ByteSize batchBytes,
        @Option(doc = "Longest an event waits in a batch.", defaultValue = "250ms")
        TimeSpan flushTimeout,
        @Option(doc = SinkConfig.MAX_RETRIES_DOC, defaultValue = "-1")
        Integer maxRetries,
        @Option(doc = SinkConfig.DEAD_LETTER_DOC, defaultValue = Option.NONE)
        String deadLetter) implements SinkConfig {

    public TestFileSinkConfig {
        SinkConfig.checkMaxRetries(maxRetries);
    }

    @Override
    public FlushPolicy flushPolicy() {
        return new FlushPolicy(batchSize, batchBytes.bytes(), flushTimeout.nanos());
    }

    /** A fixture for loading configurations only: core has no sink to build. */
    @Override
    public Sink create(SinkContext ctx) {
        throw new UnsupportedOperationException("test fixture: configuration loading only");
    }
}
