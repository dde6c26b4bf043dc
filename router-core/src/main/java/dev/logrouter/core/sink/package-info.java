/**
 * The sink SPI and its batching: {@link dev.logrouter.core.sink.Sink} (append, flush, tick, close on the
 * sink's own thread) and the pure flush decision {@link dev.logrouter.core.sink.FlushPolicy} with an
 * injected {@link dev.logrouter.core.util.Clock}.
 *
 * <pre>
 *  SinkHandler ─append─▶ Sink batch ─(full | too old | ring empty)─▶ flush
 * </pre>
 */
package dev.logrouter.core.sink;

import dev.logrouter.core.util.Clock;
