/**
 * A sink's crash-safe journal (durable buffer, issue 21): segment files of CRC32C-checked frames, one writer
 * (the sink's thread: {@link dev.logrouter.core.journal.JournalWriter} appends records and commits them as one
 * frame, forced as {@link dev.logrouter.core.journal.JournalSync} says), one reader with a two-slot cursor file
 * (the delivery thread: {@link dev.logrouter.core.journal.JournalReader} polls committed records and acknowledges
 * what the destination took, which deletes whole segments), and a recovery at
 * {@link dev.logrouter.core.journal.Journal#open} that reads only the tail. Not yet wired into the sinks.
 * Format, sync modes and recovery rules: docs/journal.md.
 *
 * <pre>
 *  sink thread ─append/commit─▶ [seg 0][seg 1]…[active seg] ─poll─▶ delivery thread ─send─▶ destination
 *                                    ▲ deleted once acknowledged        │
 *                                    └──────── cursor (acknowledge) ◀───┘ (its answer)
 * </pre>
 */
package dev.logrouter.core.journal;
