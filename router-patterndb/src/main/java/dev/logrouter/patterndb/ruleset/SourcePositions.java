package dev.logrouter.patterndb.ruleset;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Translates positions in one ruleset file's text into the line and column numbers that syslog-ng 3.38
 * prints, so our error messages and pattern locations match the reference's ({@code FILE:LINE:COLUMN}).
 *
 * <p>Two numbering schemes meet here:
 * <ul>
 *   <li>the StAX reader's (Xerces): a line ends at LF, CR LF or a lone CR, and the column is 1 + the
 *       number of UTF-16 units already read on the line. {@link #offsetOf} turns such a pair into an
 *       offset in the text;</li>
 *   <li>GLib's {@code GMarkup} (the reference's parser): only LF ends a line, columns count bytes of
 *       UTF-8, the first line's first byte is column 1, and on every later line the LF that opened it is
 *       column 1 (so its first byte is column 2); a position sitting on an LF is reported as column 1 of
 *       the next line. {@link #line} and {@link #column} apply these rules to an offset.</li>
 * </ul>
 * A lone CR (old Mac line ends) makes the Xerces column one off; the reference does not treat CR as a
 * line end at all, so such files report slightly different columns.
 *
 * <p>Threads: built and used by the loading thread only.
 */
final class SourcePositions {

    private final String text;
    /** Offsets where the StAX reader's lines start (index 0 = line 1). */
    private final int[] readerLineStarts;
    /** Offsets of every LF, ascending. */
    private final int[] newlines;

    SourcePositions(String text) {
        this.text = text;
        int[] starts = new int[16];
        int[] lfs = new int[16];
        int startCount = 1;
        int lfCount = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean lineEnd = false;
            if (c == '\n') {
                if (lfCount == lfs.length) {
                    lfs = Arrays.copyOf(lfs, lfCount * 2);
                }
                lfs[lfCount++] = i;
                lineEnd = true;
            } else if (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n')) {
                lineEnd = true;
            }
            if (lineEnd) {
                if (startCount == starts.length) {
                    starts = Arrays.copyOf(starts, startCount * 2);
                }
                starts[startCount++] = i + 1;
            }
        }
        this.readerLineStarts = Arrays.copyOf(starts, startCount);
        this.newlines = Arrays.copyOf(lfs, lfCount);
    }

    /** Offset in the text of a StAX (line, column) pair, clamped to the text; -1 when unknown. */
    int offsetOf(int readerLine, int readerColumn) {
        if (readerLine < 1 || readerColumn < 1) {
            return -1;
        }
        int line = Math.min(readerLine, readerLineStarts.length);
        long offset = (long) readerLineStarts[line - 1] + readerColumn - 1;
        return (int) Math.min(offset, text.length());
    }

    /** The reference's line number of an offset (0 when the offset is unknown). */
    int line(int offset) {
        if (offset < 0) {
            return 0;
        }
        int before = newlinesBefore(offset);
        return 1 + before + (onNewline(offset) ? 1 : 0);
    }

    /** The reference's column number of an offset (0 when the offset is unknown). */
    int column(int offset) {
        if (offset < 0) {
            return 0;
        }
        if (onNewline(offset)) {
            return 1;
        }
        int before = newlinesBefore(offset);
        int from = before == 0 ? 0 : newlines[before - 1];
        return utf8Length(text, from, offset) + 1;
    }

    private boolean onNewline(int offset) {
        return offset < text.length() && text.charAt(offset) == '\n';
    }

    /** Number of LFs at offsets strictly below {@code offset}. */
    private int newlinesBefore(int offset) {
        int i = Arrays.binarySearch(newlines, offset);
        return i >= 0 ? i : -i - 1;
    }

    /** Bytes that {@code s[from, to)} takes in UTF-8 (a surrogate pair counts 4). */
    static int utf8Length(String s, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800 || Character.isSurrogate(c)) {
                n += 2;
            } else {
                n += 3;
            }
        }
        return n;
    }

    /** Position of an undecodable byte: the reference's line and column of byte {@code badByte}. */
    static int[] bytePosition(byte[] bytes, int badByte) {
        String prefix = new String(bytes, 0, badByte, StandardCharsets.UTF_8);
        SourcePositions p = new SourcePositions(prefix);
        return new int[] {p.line(prefix.length()), p.column(prefix.length())};
    }
}
