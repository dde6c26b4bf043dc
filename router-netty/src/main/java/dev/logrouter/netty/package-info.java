/**
 * Netty sources, the first step of the data flow (the relay sink, the last step of a relay, is in
 * {@link dev.logrouter.netty.relay}):
 *
 * <pre>
 *  socket ─▶ Netty event loop ─▶ frame decoder (tcp: auto | octet-counted | lf) ─▶ {@link dev.logrouter.netty.RingPublisher}
 *                                                                                   │ copies bytes into the slot's LogEvent
 *                                                                                   ▼
 *                                                                             RingBuffer&lt;LogEvent&gt;
 * </pre>
 *
 * No {@code ByteBuf} enters the ring: frames are copied into the event's own buffer (TCP straight from the
 * decoder's buffer, without a {@code ByteBuf} per frame). When
 * the ring is nearly full, TCP channels stop reading ({@code autoRead=false}) until it drains, so the
 * backpressure reaches the senders; UDP cannot push back and counts what it drops.
 */
package dev.logrouter.netty;
