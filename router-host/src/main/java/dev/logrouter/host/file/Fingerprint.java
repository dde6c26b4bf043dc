package dev.logrouter.host.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/**
 * The fingerprint of a file's content: the CRC-32C of its first {@code length} bytes (at most {@link #MAX}). Together
 * with device and inode it is a file's identity: a reused inode with other content, or a file truncated and
 * rewritten, has another fingerprint; a copy of a file (copytruncate) has the same one (Vector's approach).
 *
 * <p>Threads: the file source's reader thread.
 */
final class Fingerprint {

    /** Bytes fingerprinted at most. */
    static final int MAX = 256;

    private final ByteBuffer buf = ByteBuffer.allocate(MAX);
    private final CRC32C crc = new CRC32C();

    /** The first bytes of {@code ch}: {@code max} of them, or fewer when the file is shorter. */
    byte[] head(FileChannel ch, int max) throws IOException {
        buf.clear().limit(max);
        long pos = 0;
        while (buf.hasRemaining()) {
            int n = ch.read(buf, pos);
            if (n <= 0) {
                break;
            }
            pos += n;
        }
        return java.util.Arrays.copyOf(buf.array(), buf.position());
    }

    /** CRC-32C of {@code b[0, len)}. */
    long crc(byte[] b, int len) {
        crc.reset();
        crc.update(b, 0, len);
        return crc.getValue();
    }

    /** CRC-32C of the first {@code length} bytes of {@code ch}, or -1 when it has fewer. */
    long of(FileChannel ch, int length) throws IOException {
        buf.clear().limit(length);
        long pos = 0;
        while (buf.hasRemaining()) {
            int n = ch.read(buf, pos);
            if (n < 0) {
                return -1;
            }
            pos += n;
        }
        crc.reset();
        crc.update(buf.array(), 0, length);
        return crc.getValue();
    }
}
