package dev.logrouter.bench.loadgen;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A reusable buffer of fixed-size syslog frames for one connection.
 *
 * <p>All frames are built once from one template; {@link #fill(long, int, long)} then only patches the
 * timestamp (when it changed) and the 10-digit sequence number of each frame in place, so a batch of hundreds
 * of messages costs a few dozen byte stores per message and goes out in one write. Frame layout (body =
 * {@code seq=NNNNNNNNNN conn=NNNN PADD...}):
 * <ul>
 *   <li>{@code LF}: {@code <13>Mmm dd hh:mm:ss host prog[pid]: body\n} (RFC 3164, TCP)</li>
 *   <li>{@code OCTET_COUNTED}: {@code LEN <13>1 2026-..Z host prog pid - - body} (RFC 5424 + RFC 6587, TCP)</li>
 *   <li>{@code DATAGRAM}: the same messages without any framing (UDP, one per datagram)</li>
 * </ul>
 *
 * <p>Confined to its sender thread; the buffer it returns stays owned by this batch.
 */
final class MessageBatch {

    /** How frames are delimited on the wire. */
    enum Framing { LF, OCTET_COUNTED, DATAGRAM }

    static final int SEQ_DIGITS = 10;
    private static final String PAD = "PADD";

    private final SyslogFormat format;
    private final int frameSize;
    private final int capacity;
    private final int timestampOffset;
    private final int seqOffset;
    private final ByteBuffer buffer;
    private byte[] lastTimestamp = new byte[0];
    /** Frames (from 0) that carry {@link #lastTimestamp}. */
    private int stampedFrames;

    /**
     * Builds the template and copies it {@code capacity} times.
     *
     * @param frameSize bytes of one frame on the wire, framing included
     * @param capacity  frames per batch (>= 1)
     * @throws IllegalArgumentException when {@code frameSize} is too small for the header and body
     */
    MessageBatch(SyslogFormat format, Framing framing, int frameSize, int capacity, int connection, long pid) {
        this.format = format;
        this.frameSize = frameSize;
        this.capacity = capacity;
        String before = format.beforeTimestamp();
        int tsLen = format.timestamp(0).length;
        String after = format.afterTimestamp("localhost", "loadgen", pid);
        String body = "seq=" + "0".repeat(SEQ_DIGITS) + " conn=" + String.format("%04d", connection);
        int message = before.length() + tsLen + after.length() + body.length();
        int suffix = framing == Framing.LF ? 1 : 0;
        int prefix = framing == Framing.OCTET_COUNTED ? octetPrefixLength(frameSize) : 0;
        int padLen = frameSize - prefix - suffix - message - 1;
        if (padLen < 0) {
            throw new IllegalArgumentException("--size " + frameSize + " is too small: the minimum for "
                    + format.name().toLowerCase() + " is " + (frameSize - padLen - 1) + " bytes");
        }
        StringBuilder frame = new StringBuilder(frameSize);
        if (prefix > 0) {
            frame.append(frameSize - prefix).append(' ');
        }
        frame.append(before);
        timestampOffset = frame.length();
        frame.append("-".repeat(tsLen)).append(after);
        seqOffset = frame.length() + "seq=".length();
        frame.append(body);
        frame.append(' ');
        for (int i = 0; i < padLen; i++) {
            frame.append(PAD.charAt(i % PAD.length()));
        }
        if (suffix > 0) {
            frame.append('\n');
        }
        byte[] template = frame.toString().getBytes(StandardCharsets.US_ASCII);
        if (template.length != frameSize) {
            throw new IllegalStateException("frame is " + template.length + " bytes, wanted " + frameSize);
        }
        buffer = ByteBuffer.allocateDirect(frameSize * capacity);
        for (int i = 0; i < capacity; i++) {
            buffer.put(template);
        }
        buffer.flip();
    }

    /** Length of {@code "LEN "} such that LEN + its prefix add up to {@code frameSize}. */
    static int octetPrefixLength(int frameSize) {
        for (int digits = 1; digits <= 8; digits++) {
            int len = frameSize - digits - 1;
            if (len > 0 && Integer.toString(len).length() == digits) {
                return digits + 1;
            }
        }
        // no exact split exists for a few sizes: 12, 103, 1004, ... (LEN gains a digit exactly there)
        throw new IllegalArgumentException("--size " + frameSize + " cannot be octet counted exactly");
    }

    /** Frames this batch can hold. */
    int capacity() {
        return capacity;
    }

    /** Bytes of one frame. */
    int frameSize() {
        return frameSize;
    }

    /**
     * Stamps {@code n} frames with sequence numbers {@code firstSeq..firstSeq+n-1} and the timestamp of
     * {@code epochMillis}, and returns the buffer positioned at 0 with limit {@code n * frameSize}.
     */
    ByteBuffer fill(long firstSeq, int n, long epochMillis) {
        byte[] ts = format.timestamp(epochMillis);
        boolean newTs = !Arrays.equals(ts, lastTimestamp);
        buffer.clear();
        for (int i = 0, base = 0; i < n; i++, base += frameSize) {
            if (newTs || i >= stampedFrames) {
                buffer.put(base + timestampOffset, ts);
            }
            long seq = firstSeq + i;
            for (int d = seqOffset + base + SEQ_DIGITS - 1; d >= seqOffset + base; d--) {
                buffer.put(d, (byte) ('0' + (int) (seq % 10)));
                seq /= 10;
            }
        }
        if (newTs) {
            lastTimestamp = ts;
            stampedFrames = n;
        } else {
            stampedFrames = Math.max(stampedFrames, n);
        }
        buffer.limit(n * frameSize).position(0);
        return buffer;
    }
}
