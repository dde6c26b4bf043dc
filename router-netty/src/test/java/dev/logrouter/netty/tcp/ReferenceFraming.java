package dev.logrouter.netty.tcp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The framing rules the decoders document, written as plainly as possible over a whole connection's bytes at
 * once (no reads, no back-pressure, no state): the oracle {@link FrameDecoderFuzzTest} compares the decoders to.
 *
 * <p>Threads: stateless.
 */
final class ReferenceFraming {

    /** What a connection's bytes give: the frames in order and the counters the decoders move. */
    record Result(List<byte[]> frames, long malformed, long truncated, long empty, long partial) {
    }

    private ReferenceFraming() {
    }

    /**
     * LF framing: each line ends at LF; one CR before the LF is dropped; an empty line is skipped (counted); a line
     * longer than max gives max-byte frames, each but the last counted as truncated; the last line, without LF, is
     * delivered at close the same way.
     */
    static Result lines(byte[] in, int max) {
        return lines(in, max, false);
    }

    /** {@link #lines(byte[], int)}; with {@code nulEnds} a NUL ends a line as LF does. */
    static Result lines(byte[] in, int max, boolean nulEnds) {
        List<byte[]> frames = new ArrayList<>();
        long truncated = 0;
        long empty = 0;
        int start = 0;
        while (start < in.length) {
            int lf = start;
            while (lf < in.length && in[lf] != '\n' && !(nulEnds && in[lf] == 0)) {
                lf++;
            }
            int end = lf;
            if (end > start && in[end - 1] == '\r') {
                end--;
            }
            if (end == start) {
                empty++;
            }
            for (int p = start; p < end; p += max) {
                int n = Math.min(max, end - p);
                frames.add(Arrays.copyOfRange(in, p, p + n));
                if (p + n < end) {
                    truncated++;
                }
            }
            start = lf + 1;
        }
        return new Result(frames, 0, truncated, empty, 0);
    }

    /**
     * Octet counting: {@code LEN SP BODY} with 1 to 10 digits and LEN at most max; a zero LEN is skipped (counted
     * as empty); anything else is malformed and ends the connection (nothing after it is read); a connection that
     * ends inside a header or body counts one partial frame.
     */
    static Result octetCounted(byte[] in, int max) {
        List<byte[]> frames = new ArrayList<>();
        long empty = 0;
        int p = 0;
        while (p < in.length) {
            int digits = 0;
            long len = 0;
            while (p + digits < in.length && digits <= 10 && in[p + digits] >= '0' && in[p + digits] <= '9') {
                len = len * 10 + (in[p + digits] - '0');
                digits++;
            }
            if (p + digits == in.length && digits <= 10) {
                return new Result(frames, 0, 0, empty, 1); // closed inside the header
            }
            if (digits == 0 || digits > 10 || in[p + digits] != ' ' || len > max) {
                return new Result(frames, 1, 0, empty, 0);
            }
            int body = p + digits + 1;
            if (in.length - body < len) {
                return new Result(frames, 0, 0, empty, 1); // closed inside the body
            }
            if (len == 0) {
                empty++;
            } else {
                frames.add(Arrays.copyOfRange(in, body, body + (int) len));
            }
            p = body + (int) len;
        }
        return new Result(frames, 0, 0, empty, 0);
    }
}
