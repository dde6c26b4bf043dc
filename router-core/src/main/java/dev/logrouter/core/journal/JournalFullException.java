package dev.logrouter.core.journal;

/**
 * An append refused because the journal reached a limit: its {@code max-size} (bytes of segments on disk), or
 * the free-disk reserve of its file store. Nothing was appended; the records appended before stay pending. The
 * owner applies its overflow policy (block, drop, ...) and may append again once acknowledgements deleted
 * segments or space was freed. The exception carries no stack trace: a full journal may refuse every event.
 *
 * <p>Threads: thrown on the writer's thread; immutable.
 */
public final class JournalFullException extends Exception {

    private static final long serialVersionUID = 1L;

    /** Which limit was reached. */
    public enum Limit {
        /** {@code max-size}: the journal's segments would pass it. */
        MAX_SIZE,
        /** The file store has less usable space than {@code free-disk-reserve}. */
        DISK_RESERVE,
        /** The router-wide {@code journal.max-size}, across every sink's journal. */
        TOTAL_SIZE
    }

    private final Limit limit;

    JournalFullException(Limit limit, String message) {
        super(message, null, false, false);
        this.limit = limit;
    }

    public Limit limit() {
        return limit;
    }
}
