package dev.logrouter.sinks.elasticsearch;

import dev.logrouter.core.template.ByteBuilder;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

/**
 * Generated document ids: 20 characters of URL-safe base64 over 15 bytes, 9 random per sink instance and a 48-bit
 * counter, so that ids never repeat across restarts or routers and those of one sink share a prefix. An id is given
 * to an event when it is encoded (and with {@code buffer: journal} it is kept in the journal with the document), so
 * that sending its document again after a lost response cannot index it twice.
 *
 * <p>Threads: the encoder's, i.e. the sink's thread.
 */
final class DocumentIds {

    private static final byte[] BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
            .getBytes(StandardCharsets.US_ASCII);
    /** Length of an id, in characters (ASCII: as many bytes). */
    static final int LENGTH = 20;

    private final byte[] bytes = new byte[15];
    private final byte[] chars = new byte[LENGTH];
    private long counter;

    DocumentIds() {
        byte[] prefix = new byte[9];
        new SecureRandom().nextBytes(prefix);
        System.arraycopy(prefix, 0, bytes, 0, 9);
        encode(0, 0, 12); // the prefix's 12 characters never change
    }

    /** Appends the next id to {@code out} ({@link #LENGTH} ASCII bytes). */
    void next(ByteBuilder out) {
        long c = counter++;
        for (int i = 14; i >= 9; i--) {
            bytes[i] = (byte) c;
            c >>>= 8;
        }
        encode(9, 12, 8);
        out.append(chars, 0, LENGTH);
    }

    /**
     * Whether {@code b[off, off+len)} is an id this instance gave: {@link #LENGTH} characters starting with its
     * prefix (12 characters of 9 random bytes: a rendered id that looks so is as likely as a guessed key).
     */
    boolean generated(byte[] b, int off, int len) {
        return len == LENGTH && java.util.Arrays.equals(b, off, off + 12, chars, 0, 12);
    }

    /** The next id as a String (tests). */
    String next() {
        ByteBuilder b = new ByteBuilder(LENGTH);
        next(b);
        return b.toString();
    }

    /** Encodes 3-byte groups from {@code byteOff} into {@code n} characters from {@code charOff}. */
    private void encode(int byteOff, int charOff, int n) {
        for (int i = 0; i < n; i += 4) {
            int v = (bytes[byteOff] & 0xff) << 16 | (bytes[byteOff + 1] & 0xff) << 8 | (bytes[byteOff + 2] & 0xff);
            chars[charOff + i] = BASE64URL[v >>> 18];
            chars[charOff + i + 1] = BASE64URL[(v >>> 12) & 63];
            chars[charOff + i + 2] = BASE64URL[(v >>> 6) & 63];
            chars[charOff + i + 3] = BASE64URL[v & 63];
            byteOff += 3;
        }
    }
}
