/**
 * TCP source: per connection {@code ConnectionLimiter → FramingDetector | OctetCountingFrameDecoder |
 * LineFrameDecoder → TcpPublishHandler}.
 *
 * <pre>
 *  socket ─▶ frames (retained slices) ─▶ TcpPublishHandler: publish a read's frames as one batch;
 *            ring nearly full ─▶ autoRead off, queue, retry every 200 µs, resume at half free
 * </pre>
 */
package dev.logrouter.netty.tcp;
