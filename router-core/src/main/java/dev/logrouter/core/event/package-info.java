/**
 * The message as it travels the ring: {@link dev.logrouter.core.event.LogEvent}, one per slot, created
 * once and mutated in place; header fields are spans of the event's own buffers, parsed fields live in its
 * {@link dev.logrouter.core.event.FieldTable}.
 *
 * <pre>
 *  source thread: clear, copy frame bytes, peer, receive time ─▶ parse worker: header fields, SD ─▶ sinks read
 * </pre>
 */
package dev.logrouter.core.event;
