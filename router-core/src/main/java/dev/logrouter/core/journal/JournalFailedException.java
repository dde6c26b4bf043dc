package dev.logrouter.core.journal;

import java.io.IOException;

/**
 * The journal failed: a write or a force of one of its files threw, and the journal will not write again (a
 * failed fsync is never retried on the same file: the kernel may have dropped the dirty pages and a second fsync
 * would report success). The cause is the first error. Committed records can still be polled; appending,
 * committing and acknowledging throw this. The owner decides what comes next (the sink turns DEGRADED and may
 * reopen the journal, whose recovery then reads what really is on disk).
 *
 * <p>Threads: thrown on the writer's or the reader's thread. No stack trace of its own: the cause has it.
 */
public final class JournalFailedException extends IOException {

    private static final long serialVersionUID = 1L;

    JournalFailedException(String message, IOException cause) {
        super(message, cause);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
