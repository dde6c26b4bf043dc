/**
 * TCP source: per connection {@code ConnectionLimiter → FramingDetector | OctetCountingFrameDecoder |
 * LineFrameDecoder → TcpPublishHandler}, built and stopped by {@code StreamConnections}, which the unix-stream source
 * shares (its LF framing also ends a frame at NUL).
 *
 * <pre>
 *  socket ─▶ decoder finds frames (positions, no ByteBuf per frame) ─▶ TcpPublishHandler (FrameConsumer):
 *            copy them into ring slots in batches; ring nearly full ─▶ autoRead off, the rest stays in the
 *            decoder's buffer, retry every 200 µs, resume at half free
 * </pre>
 */
package dev.logrouter.netty.tcp;
