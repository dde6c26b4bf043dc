package dev.logrouter.host.journald;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;

/**
 * The journal cursor of a source, advanced only as far as the sinks made the entries durable. The reader records,
 * per publish batch, the highest ring sequence and the cursor of the batch's last entry ({@link #published}); a
 * {@link #save} takes the newest batch whose sequence the completed sequence has passed and writes its cursor to
 * {@code <name>.cursor} atomically: a temporary file, written and forced to disk, renamed over the old one, and
 * the directory forced so the rename survives a power loss. So the file names an entry every sink has, and a
 * restart after it neither loses an entry nor repeats one (after a crash, at most the entries published since the
 * last save come again).
 *
 * <p>Threads: {@link #published} from the source's reader thread; {@link #save} from its cursor thread and, at
 * close, from the thread that stops the router; the methods are synchronized (a few calls a second per batch).
 */
final class CursorFile {

    private final Path file;
    private final Path temp;
    private final ArrayDeque<Batch> batches = new ArrayDeque<>();
    /** The cursor in the file (read at start or written last); null when there is none. */
    private String saved;
    private long publishedEntries;
    private long savedEntries;
    /** The newest completed batch whose cursor is not in the file yet (its write failed, or comes next). */
    private Batch unsaved;

    private record Batch(long seq, String cursor, long entriesUpTo) {
    }

    CursorFile(Path file) {
        this.file = file;
        this.temp = file.resolveSibling(file.getFileName() + ".tmp");
    }

    /** Reads the cursor file (null when there is none or it is empty); creates its directory. */
    synchronized String load() throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try {
            String s = Files.readString(file, StandardCharsets.UTF_8).strip();
            saved = s.isEmpty() ? null : s;
        } catch (NoSuchFileException e) {
            saved = null;
        }
        return saved;
    }

    /** Writes the position of a very first start (before anything was published). */
    synchronized void saveFirst(String cursor) throws IOException {
        write(cursor);
        saved = cursor;
    }

    /** {@code n} entries were published up to ring sequence {@code seq}; the last one has {@code cursor}. */
    synchronized void published(long seq, String cursor, int n) {
        publishedEntries += n;
        if (cursor != null) {
            batches.add(new Batch(seq, cursor, publishedEntries));
        }
    }

    /** Entries published whose cursor is not in the file yet. */
    synchronized long lag() {
        return publishedEntries - savedEntries;
    }

    /**
     * Writes the cursor of the newest batch at or below {@code completed} when it differs from the file's; returns
     * true when it wrote. The batches up to there are forgotten at once (a failed write keeps only the newest
     * completed cursor, tried again at the next save: a full or read-only disk does not make the queue grow).
     */
    synchronized boolean save(long completed) throws IOException {
        Batch done = null;
        while (!batches.isEmpty() && batches.peekFirst().seq <= completed) {
            done = batches.pollFirst();
        }
        if (done != null) {
            unsaved = done;
        }
        if (unsaved == null) {
            return false;
        }
        boolean wrote = false;
        if (!unsaved.cursor.equals(saved)) {
            write(unsaved.cursor);
            saved = unsaved.cursor;
            wrote = true;
        }
        savedEntries = unsaved.entriesUpTo;
        unsaved = null;
        return wrote;
    }

    private void write(String cursor) throws IOException {
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer b = ByteBuffer.wrap((cursor + "\n").getBytes(StandardCharsets.UTF_8));
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
        try {
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
        }
        try (FileChannel dir = FileChannel.open(file.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // some file systems cannot open or force a directory: the rename is then as durable as they make it
        }
    }
}
