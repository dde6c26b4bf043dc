package dev.logrouter.core.journal;

import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.sink.JournalSpace;

import java.nio.file.Path;

/**
 * The top-level {@code journal:} section: what every journaled sink shares. A sink's own {@code journal:} map holds
 * the options of its journal ({@link JournalConfig}).
 *
 * <p>Threads: immutable, any thread.
 */
public record JournalsConfig(
        @Option(doc = "Directory under which each journaled sink without a journal.dir of its own keeps its journal, "
                + "in a directory named after the sink.", defaultValue = "data/journal")
        String dir,
        @Option(doc = "Most bytes all journals together keep on disk; an append that would pass it is refused as "
                + "when a sink's own journal is full (its overflow policy acts). 0: no limit beyond each sink's.",
                defaultValue = "0")
        ByteSize maxSize) {

    /** The top-level key of this section. */
    public static final String KEY = "journal";

    /** Checks the options; null means "not given yet" (the loader fills the defaults). */
    public JournalsConfig {
        if (dir != null && dir.isBlank()) {
            throw new IllegalArgumentException("dir must not be empty");
        }
        if (maxSize != null && maxSize.bytes() < 0) {
            throw new IllegalArgumentException("max-size must be >= 0 (0: no limit)");
        }
    }

    /** The shared space the router's journaled sinks count against. */
    public JournalSpace space() {
        return new JournalSpace(Path.of(dir), maxSize.bytes());
    }
}
