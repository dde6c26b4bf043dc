/**
 * {@code type: journald}: the systemd journal, followed through {@code journalctl -o json --all --follow} (no
 * native library: see docs/sources/journald.md). One thread per source runs journalctl, reads its JSON with
 * Jackson's non-blocking parser and publishes entries as {@code FORMAT_RAW} events whose header fields it set
 * itself; the journal cursor of the last entry every sink made durable is kept in a cursor file.
 *
 * <pre>
 *  journalctl ─stdout (JSON lines)─▶ JournalJsonReader ─JournalEntry×256─▶ claim/publish ─▶ ring ─▶ parse ─▶ sinks
 *      ▲ --after-cursor                                                        │ (seq, cursor)              │
 *      └──────────── CursorFile (&lt;name&gt;.cursor) ◀── save every cursor-interval ◀─ completed sequence ◀─┘
 * </pre>
 */
package dev.logrouter.host.journald;
