package dev.logrouter.core.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;

/**
 * How a journal opens its files and asks for free space: every segment, the cursor, the lock and the directory
 * (opened {@code READ} and forced to sync the directory) go through {@link #open}. The default opens real
 * channels; tests wrap them to fail a {@code force}, or to model a power loss.
 *
 * <p>Threads: called from the journal's writer and reader threads and from {@link Journal#open}; implementations
 * must be thread-safe. The journal owns, and closes, every channel returned.
 */
@FunctionalInterface
public interface JournalFiles {

    /** Real files: {@link FileChannel#open(Path, Set, java.nio.file.attribute.FileAttribute[])}. */
    JournalFiles DEFAULT = FileChannel::open;

    FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException;

    /** Bytes a new file could still take on the file store holding {@code dir}. */
    default long usableSpace(Path dir) throws IOException {
        return Files.getFileStore(dir).getUsableSpace();
    }
}
