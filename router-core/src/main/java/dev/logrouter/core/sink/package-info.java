/**
 * The sink SPI and the machinery every sink shares: {@link dev.logrouter.core.sink.SinkConfig} builds a
 * {@link dev.logrouter.core.sink.Sink} from a {@link dev.logrouter.core.sink.SinkContext}; the sink appends, flushes,
 * ticks and closes on its own thread; the flush decision {@link dev.logrouter.core.sink.FlushPolicy} is a pure
 * function of its state and an injected {@link dev.logrouter.core.util.Clock}; items a sink gives up go to its
 * {@link dev.logrouter.core.sink.DeadLetterFile}; path-partitioned sinks (file, HDFS) keep their open files in
 * {@link dev.logrouter.core.sink.OpenFiles}.
 *
 * <pre>
 *  SinkHandler ─append─▶ Sink batch ─(full | too old | ring empty)─▶ flush
 * </pre>
 */
package dev.logrouter.core.sink;
