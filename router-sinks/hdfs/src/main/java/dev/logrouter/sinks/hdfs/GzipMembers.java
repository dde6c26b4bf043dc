package dev.logrouter.sinks.hdfs;

import dev.logrouter.core.template.ByteBuilder;

import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Encodes a batch as one complete gzip member (RFC 1952): header, raw deflate, CRC-32 and length. A file of such
 * members is a valid gzip file after every batch (gzip readers read concatenated members), so a part stays readable
 * at every hflush, and a part cut back to its last acknowledged length after a failure is still complete. The
 * {@link Deflater} and the output buffer are reused from batch to batch.
 *
 * <p>Threads: owned by one sink's thread; {@link #close()} frees the native deflater.
 */
final class GzipMembers implements AutoCloseable {

    private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};

    private final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    private final CRC32 crc = new CRC32();
    private final ByteBuilder out = new ByteBuilder(64 * 1024);

    /** The member for {@code src[0, len)}; the returned builder is valid until the next call. */
    ByteBuilder encode(byte[] src, int len) {
        out.reset();
        out.append(HEADER);
        deflater.reset();
        deflater.setInput(src, 0, len);
        deflater.finish();
        while (!deflater.finished()) {
            out.ensure(Math.max(4096, len / 4));
            int n = deflater.deflate(out.array(), out.length(), out.array().length - out.length());
            out.setLength(out.length() + n);
        }
        crc.reset();
        crc.update(src, 0, len);
        intLe((int) crc.getValue());
        intLe(len);
        return out;
    }

    private void intLe(int v) {
        out.append((byte) v).append((byte) (v >>> 8)).append((byte) (v >>> 16)).append((byte) (v >>> 24));
    }

    @Override
    public void close() {
        deflater.end();
    }
}
