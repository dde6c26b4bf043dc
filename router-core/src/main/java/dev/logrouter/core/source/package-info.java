/**
 * The source SPI: {@link dev.logrouter.core.source.SourceConfig} builds a {@link dev.logrouter.core.source.Source}
 * from a {@link dev.logrouter.core.source.SourceContext} (its ring, index, counters and the resources sources share);
 * the source starts, stops accepting, lets connections finish until what it read is in the ring, and closes. Every
 * source publishes through {@link dev.logrouter.core.source.RingClaim}: claim a range of slots, fill them, publish
 * them, or discard the unfilled ones.
 *
 * <pre>
 *  source thread ─claim─▶ RingBuffer slots ─fill (raw bytes, peer, source)─▶ publish
 * </pre>
 */
package dev.logrouter.core.source;
