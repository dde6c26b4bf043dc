package dev.logrouter.core.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Real files for journal tests, with faults a test turns on (an open, a write or a force that throws; a usable
 * space it chooses) and a model of a machine that dies.
 *
 * <p>The model, as simple as it can be: a file's <em>durable</em> content is what it held at its last
 * {@code force()} (or when this object first opened it, for a file that existed before; empty for a file created
 * through it); a file created through it has a <em>durable entry</em> once its directory was forced after the
 * creation. {@link #crash()} is {@code kill -9}: every channel handed out is closed, the files stay as written (the
 * page cache survives). {@link #powerLoss(Random)} also loses what was not durable: every file whose entry is not
 * durable disappears, every other one reverts to its durable content — except that, when a random source is given,
 * a file that only grew since (an appended segment) keeps a random prefix of what was appended (the kernel wrote
 * back part of it). {@link #writeback()} is the kernel writing everything back on its own. Deletions and renames
 * are not undone (a deleted file never comes back): the journal deletes only what its cursor passed, after forcing
 * the cursor, and renames only at open.
 *
 * <p>Threads: thread-safe (the writer and reader threads of a journal open and force through it).
 */
final class TestFiles implements JournalFiles {

    private final Map<Path, byte[]> durable = new HashMap<>();
    private final Set<Path> newEntries = new HashSet<>();
    private final List<FileChannel> handedOut = new ArrayList<>();
    volatile Predicate<Path> failOpen = p -> false;
    volatile Predicate<Path> failWrite = p -> false;
    volatile Predicate<Path> failForce = p -> false;
    /** The usable space reported; -1: the file store's. */
    volatile long usableSpace = -1;
    private int forces;
    private int directoryForces;

    @Override
    public synchronized FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
        if (failOpen.test(path)) {
            throw new IOException("injected: cannot open " + path);
        }
        boolean existed = Files.exists(path);
        FileChannel ch = FileChannel.open(path, options);
        FileChannel wrapped;
        if (Files.isDirectory(path)) {
            wrapped = new ForwardingFileChannel(ch) {
                @Override
                public void force(boolean metaData) throws IOException {
                    if (failForce.test(path)) {
                        throw new IOException("injected: directory fsync failed");
                    }
                    in.force(metaData);
                    directoryForced(path);
                }
            };
        } else {
            if (!existed) {
                newEntries.add(path);
                durable.put(path, new byte[0]);
            } else if (!durable.containsKey(path)) {
                durable.put(path, Files.readAllBytes(path));
            }
            wrapped = new ForwardingFileChannel(ch) {
                @Override
                public int write(ByteBuffer src, long position) throws IOException {
                    if (failWrite.test(path)) {
                        throw new IOException("injected: write failed (No space left on device)");
                    }
                    return in.write(src, position);
                }

                @Override
                public int write(ByteBuffer src) throws IOException {
                    if (failWrite.test(path)) {
                        throw new IOException("injected: write failed (No space left on device)");
                    }
                    return in.write(src);
                }

                @Override
                public void force(boolean metaData) throws IOException {
                    if (failForce.test(path)) {
                        throw new IOException("injected: fsync failed (EIO)");
                    }
                    in.force(metaData);
                    forced(path);
                }
            };
        }
        handedOut.add(wrapped);
        return wrapped;
    }

    @Override
    public long usableSpace(Path dir) throws IOException {
        long u = usableSpace;
        return u >= 0 ? u : JournalFiles.super.usableSpace(dir);
    }

    private synchronized void forced(Path path) throws IOException {
        forces++;
        durable.put(path, Files.readAllBytes(path));
    }

    private synchronized void directoryForced(Path dir) {
        directoryForces++;
        newEntries.removeIf(p -> dir.equals(p.getParent()));
    }

    synchronized int forces() {
        return forces;
    }

    synchronized int directoryForces() {
        return directoryForces;
    }

    /** {@code kill -9}: every channel handed out is closed; the files keep what was written. */
    synchronized void crash() throws IOException {
        for (FileChannel ch : handedOut) {
            ch.close();
        }
        handedOut.clear();
    }

    /** The kernel writes everything back: every file's content and every entry become durable. */
    synchronized void writeback() throws IOException {
        newEntries.clear();
        for (Map.Entry<Path, byte[]> e : durable.entrySet()) {
            if (Files.exists(e.getKey())) {
                e.setValue(Files.readAllBytes(e.getKey()));
            }
        }
    }

    /**
     * The machine loses power: {@link #crash()}, then what was not durable is lost (see the class comment).
     *
     * @param tornTail null: every file reverts to its durable content; else the source of the prefix of appended
     *                 bytes a grown file keeps
     */
    synchronized void powerLoss(Random tornTail) throws IOException {
        crash();
        for (Path p : newEntries) {
            Files.deleteIfExists(p);
            durable.remove(p);
        }
        newEntries.clear();
        for (Map.Entry<Path, byte[]> e : durable.entrySet()) {
            Path p = e.getKey();
            if (!Files.exists(p)) {
                continue;
            }
            byte[] now = Files.readAllBytes(p);
            byte[] keep = e.getValue();
            if (tornTail != null && now.length > keep.length
                    && Arrays.equals(now, 0, keep.length, keep, 0, keep.length)) {
                keep = Arrays.copyOf(now, keep.length + tornTail.nextInt(now.length - keep.length + 1));
            }
            Files.write(p, keep);
            e.setValue(keep);
        }
    }
}
