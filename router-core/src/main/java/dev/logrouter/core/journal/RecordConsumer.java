package dev.logrouter.core.journal;

/**
 * Takes the records {@link JournalReader#poll} hands out, one call per record, in sequence order. The bytes are
 * the reader's buffer: valid only during the call (copy what must be kept); never write to them.
 *
 * <p>Threads: called on the reader's (delivery) thread, inside {@code poll}.
 */
@FunctionalInterface
public interface RecordConsumer {

    /**
     * @param buf the reader's buffer, holding the record at {@code [off, off + len)}
     * @param seq the record's sequence number
     */
    void accept(byte[] buf, int off, int len, long seq);
}
