package dev.logrouter.core.journal;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * A reader's cursor file ({@code <name>.cursor}): two slots, each {@code generation u64 | ackedSeq u64 | crc32c u32}
 * (the CRC of the first 16 bytes), slot {@code generation % 2} at offset {@code (generation % 2) * 4096}, so that a
 * torn write of one sector never damages both. Writes alternate: the newest valid slot is never overwritten. On
 * open the valid slot with the highest generation wins; a slot is valid when its CRC matches and it sits where its
 * generation puts it.
 *
 * <p>Threads: {@link #open} during {@link Journal#open}; then the reader's thread.
 */
final class CursorFile implements Closeable {

    static final int SLOT_BYTES = 20;
    static final int SLOT_STRIDE = 4096;
    static final String SUFFIX = ".cursor";

    private static final Set<StandardOpenOption> OPTIONS = Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE,
            StandardOpenOption.CREATE);

    private final FileChannel channel;
    private final ByteBuffer slot = ByteBuffer.allocate(SLOT_BYTES);
    private final CRC32C crc = new CRC32C();
    /** Generation of the newest slot written or read; -1 when none is valid. */
    private long generation;
    private final long ackedSeq;

    private CursorFile(FileChannel channel, long generation, long ackedSeq) {
        this.channel = channel;
        this.generation = generation;
        this.ackedSeq = ackedSeq;
    }

    /** Opens (creating it when absent) and reads the cursor file. */
    static CursorFile open(JournalFiles files, Path path) throws IOException {
        FileChannel ch = files.open(path, OPTIONS);
        try {
            long bestGen = -1;
            long bestAcked = -1;
            CRC32C crc = new CRC32C();
            ByteBuffer b = ByteBuffer.allocate(SLOT_BYTES);
            for (int i = 0; i < 2; i++) {
                b.clear();
                long at = (long) i * SLOT_STRIDE;
                while (b.hasRemaining()) {
                    if (ch.read(b, at + b.position()) < 0) {
                        break;
                    }
                }
                if (b.hasRemaining()) {
                    continue;
                }
                byte[] a = b.array();
                crc.reset();
                crc.update(a, 0, 16);
                long gen = JournalFormat.getLong(a, 0);
                long acked = JournalFormat.getLong(a, 8);
                if ((int) crc.getValue() == JournalFormat.getInt(a, 16) && gen >= 0 && gen % 2 == i && acked >= -1
                        && gen > bestGen) {
                    bestGen = gen;
                    bestAcked = acked;
                }
            }
            // both slots take their disk space now: an acknowledgement on a full disk must still be writable.
            // Best effort: on a disk already full the journal still opens (and drains what it holds)
            ByteBuffer zeros = ByteBuffer.allocate(SLOT_BYTES);
            try {
                for (int i = 0; i < 2; i++) {
                    long at = (long) i * SLOT_STRIDE;
                    if (ch.size() < at + SLOT_BYTES) {
                        zeros.clear();
                        long from = Math.max(at, ch.size());
                        zeros.position((int) (from - at));
                        while (zeros.hasRemaining()) {
                            ch.write(zeros, at + zeros.position());
                        }
                    }
                }
            } catch (IOException e) {
                System.getLogger(CursorFile.class.getName()).log(System.Logger.Level.WARNING, "cursor " + path
                        + ": cannot reserve its second slot (" + e + "); acknowledgements may fail while the disk "
                        + "is full");
            }
            return new CursorFile(ch, bestGen, bestAcked);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** Whether a valid slot was found at open. */
    boolean valid() {
        return generation >= 0;
    }

    /** The acknowledged sequence read at open (-1: nothing, or no valid slot). */
    long loadedAckedSeq() {
        return ackedSeq;
    }

    long generation() {
        return generation;
    }

    /** Writes {@code ackedSeq} into the next slot, and forces the file when asked. */
    void write(long acked, boolean force) throws IOException {
        long gen = generation + 1;
        byte[] a = slot.array();
        JournalFormat.putLong(a, 0, gen);
        JournalFormat.putLong(a, 8, acked);
        crc.reset();
        crc.update(a, 0, 16);
        JournalFormat.putInt(a, 16, (int) crc.getValue());
        slot.clear();
        long at = (gen % 2) * SLOT_STRIDE;
        while (slot.hasRemaining()) {
            channel.write(slot, at + slot.position());
        }
        generation = gen;
        if (force) {
            channel.force(false);
        }
    }

    void force() throws IOException {
        channel.force(false);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
