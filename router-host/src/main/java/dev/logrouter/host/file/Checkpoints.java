package dev.logrouter.host.file;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The checkpoint file of a file source: for each file, its identity (device, inode, fingerprint) and the offset up
 * to which every line was made durable by the sinks. Written whole to a temporary file, forced to disk and renamed
 * over the old one, so a crash leaves either the old or the new checkpoint, never a torn one.
 *
 * <p>Threads: the file source's reader thread.
 */
final class Checkpoints {

    /**
     * One file's position: its identity, the offset after the last durable line, and when the file was last seen
     * (epoch millis; an entry no file matches is kept for a day, for a file system mounted later).
     */
    record Entry(String path, long dev, long ino, int fpLength, long fp, long offset, long lastSeen) {
    }

    private record FileForm(int version, List<Entry> files) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final Path temp;

    Checkpoints(Path dir, String sourceName) {
        this.file = dir.resolve(sourceName + ".checkpoint");
        this.temp = dir.resolve(sourceName + ".checkpoint.tmp");
    }

    Path file() {
        return file;
    }

    /** The entries saved last, or null when there is no checkpoint file (the source's very first start). */
    List<Entry> load() throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        try {
            FileForm f = JSON.readValue(file.toFile(), FileForm.class);
            return f.files() == null ? List.of() : new ArrayList<>(f.files());
        } catch (IOException e) {
            throw new IOException("checkpoint file " + file + " is unreadable (" + e.getMessage() + "); move it "
                    + "away to start over (files are then read per start-at)", e);
        }
    }

    /** Replaces the checkpoint file with {@code entries}, atomically and durably. */
    void save(List<Entry> entries) throws IOException {
        Files.createDirectories(file.getParent());
        byte[] body = JSON.writeValueAsBytes(new FileForm(1, entries));
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(body);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Reads a checkpoint file's entries (tests, tools). */
    static List<Entry> read(Path file) throws IOException {
        return JSON.readValue(file.toFile(), FileForm.class).files();
    }

}
