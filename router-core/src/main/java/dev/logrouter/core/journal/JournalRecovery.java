package dev.logrouter.core.journal;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * What {@link Journal#open} finds in a journal directory. Every {@code *.seg} file but the newest must be sealed:
 * only its footer is read (count and last sequence, never its frames), so start-up time depends on the tail, not
 * on the backlog. The newest one is sealed too when its last 20 bytes are a valid footer; otherwise it is the
 * tail, scanned frame by frame and truncated at the first bad frame (short header, implausible length, CRC or
 * record mismatch, a firstSeq other than the next expected). A segment that cannot be used — a sealed one whose
 * footer is bad, a zero-length one that is not the newest, one that overlaps the segment before it, or one that
 * cannot be read — is renamed to {@code <name>.seg.corrupt} and counted, never a reason not to start.
 *
 * <p>Threads: {@link Journal#open}'s thread.
 */
final class JournalRecovery {

    private static final Logger LOG = System.getLogger(JournalRecovery.class.getName());
    private static final Set<StandardOpenOption> READ = Set.of(StandardOpenOption.READ);
    private static final Set<StandardOpenOption> READ_WRITE = Set.of(StandardOpenOption.READ,
            StandardOpenOption.WRITE);

    /** A segment found on disk. */
    record Found(long firstSeq, Path path, long dataBytes, long lastSeq) {
    }

    private final Path dir;
    private final JournalFiles files;
    private final CRC32C crc = new CRC32C();

    /** The sealed segments, oldest first. */
    final List<Found> sealed = new ArrayList<>();
    /** The unsealed newest segment (frames verified, truncated after the last good one), or null. */
    Found tail;
    /** Open on the tail, positioned nowhere in particular; the journal's to close. */
    FileChannel tailChannel;
    /** The sequence after the tail's last good frame. */
    long tailNextSeq;
    long recoveredBytes;
    long corruptFrames;
    long quarantined;
    /** A file was renamed or truncated. */
    boolean changed;

    JournalRecovery(Path dir, JournalFiles files) {
        this.dir = dir;
        this.files = files;
    }

    void run() throws IOException {
        List<Found> names = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*" + JournalFormat.SEGMENT_SUFFIX)) {
            for (Path p : ds) {
                long seq = JournalFormat.parseSegmentName(p.getFileName().toString());
                if (seq >= 0) {
                    names.add(new Found(seq, p, 0, -1));
                }
            }
        }
        names.sort(Comparator.comparingLong(Found::firstSeq));
        long nextExpected = 0; // the first sequence a segment may have without overlapping the one before
        for (int i = 0; i < names.size(); i++) {
            Found f = names.get(i);
            boolean newest = i == names.size() - 1;
            if (f.firstSeq() < nextExpected) {
                quarantine(f.path(), "its first sequence " + f.firstSeq() + " overlaps the segment before it");
                continue;
            }
            try {
                if (newest) {
                    nextExpected = newest(f);
                } else {
                    long size = Files.size(f.path());
                    if (size == 0) {
                        quarantine(f.path(), "zero length");
                        continue;
                    }
                    long lastSeq = footer(f, size);
                    if (lastSeq < 0) {
                        quarantine(f.path(), "sealed segment without a valid footer");
                        continue;
                    }
                    sealed.add(new Found(f.firstSeq(), f.path(), size - JournalFormat.FOOTER, lastSeq));
                    nextExpected = lastSeq + 1;
                }
            } catch (IOException e) {
                closeTail();
                quarantine(f.path(), "unreadable (" + e + ")");
            }
        }
    }

    /** Takes the newest segment: sealed when it has a valid footer, else the tail. Returns the next sequence. */
    private long newest(Found f) throws IOException {
        FileChannel ch = files.open(f.path(), READ_WRITE);
        tailChannel = ch;
        long size = ch.size();
        if (size > 0) {
            long lastSeq = footer(ch, f.firstSeq(), size);
            if (lastSeq >= 0) {
                closeTail();
                sealed.add(new Found(f.firstSeq(), f.path(), size - JournalFormat.FOOTER, lastSeq));
                return lastSeq + 1;
            }
        }
        ReadBuffer buffer = new ReadBuffer();
        long pos = 0;
        long expected = f.firstSeq();
        String problem = null;
        while (pos < size) {
            if (size - pos < JournalFormat.FRAME_HEADER) {
                problem = "short frame header";
                break;
            }
            int off = buffer.fill(ch, pos, JournalFormat.FRAME_HEADER, size);
            if (off < 0) {
                problem = "file shorter than its size";
                break;
            }
            int len = JournalFormat.getInt(buffer.array(), off);
            if (!JournalFormat.lenPlausible(len, size - pos)) {
                problem = "bad frame length " + Integer.toUnsignedString(len);
                break;
            }
            off = buffer.fill(ch, pos, JournalFormat.LEN_CRC + len, size);
            if (off < 0) {
                problem = "file shorter than its size";
                break;
            }
            byte[] b = buffer.array();
            if (!JournalFormat.frameValid(b, off, len, crc)) {
                problem = "CRC mismatch or bad records";
                break;
            }
            long firstSeq = JournalFormat.getLong(b, off + 8);
            if (firstSeq != expected) {
                problem = "frame of sequence " + firstSeq + " where " + expected + " was expected";
                break;
            }
            expected += JournalFormat.getInt(b, off + 16);
            pos += JournalFormat.LEN_CRC + len;
        }
        if (problem != null) {
            corruptFrames++;
            recoveredBytes += size - pos;
            changed = true;
            LOG.log(Level.WARNING, "journal " + dir + ": segment " + f.path().getFileName() + ": " + problem
                    + " at byte " + pos + "; cut " + (size - pos) + " bytes, kept " + (expected - f.firstSeq())
                    + " records");
            ch.truncate(pos);
        }
        tail = new Found(f.firstSeq(), f.path(), pos, -1);
        tailNextSeq = expected;
        return expected;
    }

    private long footer(Found f, long size) throws IOException {
        try (FileChannel ch = files.open(f.path(), READ)) {
            return footer(ch, f.firstSeq(), size);
        }
    }

    /** The last sequence of the segment's valid footer, or -1. */
    private long footer(FileChannel ch, long firstSeq, long size) throws IOException {
        if (size < JournalFormat.FOOTER + JournalFormat.LEN_CRC + JournalFormat.MIN_LEN) {
            return -1;
        }
        ByteBuffer b = ByteBuffer.allocate(JournalFormat.FOOTER);
        long at = size - JournalFormat.FOOTER;
        while (b.hasRemaining()) {
            if (ch.read(b, at + b.position()) < 0) {
                return -1;
            }
        }
        return JournalFormat.decodeFooter(b.array(), firstSeq, crc);
    }

    private void closeTail() {
        if (tailChannel != null) {
            try {
                tailChannel.close();
            } catch (IOException ignored) {
                // only read from
            }
            tailChannel = null;
        }
    }

    /** Renames {@code path} to {@code <name>.corrupt} (or {@code .corrupt.N} when taken) and counts it. */
    private void quarantine(Path path, String why) throws IOException {
        String name = path.getFileName().toString() + JournalFormat.CORRUPT_SUFFIX;
        Path target = path.resolveSibling(name);
        for (int i = 1; Files.exists(target, LinkOption.NOFOLLOW_LINKS); i++) {
            target = path.resolveSibling(name + "." + i);
        }
        Files.move(path, target);
        quarantined++;
        changed = true;
        LOG.log(Level.WARNING, "journal " + dir + ": segment " + path.getFileName() + " quarantined as "
                + target.getFileName() + ": " + why);
    }
}
