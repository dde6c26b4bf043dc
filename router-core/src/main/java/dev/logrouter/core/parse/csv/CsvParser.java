package dev.logrouter.core.parse.csv;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.parse.FieldParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.template.ByteBuilder;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The {@code csv} parser: a byte scanner with syslog-ng 3.38's csv-scanner semantics. Columns are read in
 * order; a quote character opens a quoted value only at the start of a column, and inside it the dialect's
 * escapes apply; text after the closing quote up to the next delimiter is kept. With {@code strip-whitespace}
 * spaces and tabs are stripped on both sides of each value (inside the quotes too). A value equal to
 * {@code null-value} becomes empty. With {@code greedy} the last column takes the rest of the input verbatim.
 *
 * <p>Column count: the scan stops after the last named column. Input left over (more columns than names) or
 * names left over (fewer columns) make the scan incomplete: with {@code drop-invalid} that is a parse failure
 * (fields rolled back, tag, counter, message discarded); without it the columns that were read are kept and
 * the rest is ignored, as in syslog-ng. A trailing delimiter after the last column counts as complete.
 *
 * <p>Allocation: none per message. Unquoted values are copied straight from the input; quoted ones go through
 * a reused buffer.
 *
 * <p>Threads: one instance per parse worker, called by that worker only.
 */
public final class CsvParser extends FieldParser {

    private static final int ESCAPE_NONE = 0;
    private static final int ESCAPE_BACKSLASH = 1;
    private static final int ESCAPE_BACKSLASH_WITH_SEQUENCES = 2;
    private static final int ESCAPE_DOUBLE_CHAR = 3;

    private final byte[][] columns;
    private final boolean[] delimiter = new boolean[256];
    private final byte[][] stringDelimiters;
    /** Closing quote by opening quote byte, 0 when the byte opens no quote. */
    private final byte[] closingQuote = new byte[256];
    private final int dialect;
    private final boolean greedy;
    private final boolean strip;
    private final boolean dropInvalid;
    private final byte[] nullValue;
    private final ByteBuilder value = new ByteBuilder(256);

    CsvParser(CsvParserConfig cfg, ParseContext ctx) {
        super(cfg.prefix(), cfg.template(), ctx);
        List<String> cols = cfg.columns();
        columns = new byte[cols.size()][];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = cols.get(i).getBytes(StandardCharsets.UTF_8);
        }
        for (int i = 0; i < cfg.delimiters().length(); i++) {
            delimiter[cfg.delimiters().charAt(i)] = true;
        }
        stringDelimiters = new byte[cfg.stringDelimiters().size()][];
        for (int i = 0; i < stringDelimiters.length; i++) {
            stringDelimiters[i] = cfg.stringDelimiters().get(i).getBytes(StandardCharsets.UTF_8);
        }
        String q = cfg.quotePairs();
        for (int i = q.length() - 2; i >= 0; i -= 2) {
            closingQuote[q.charAt(i)] = (byte) q.charAt(i + 1);
        }
        dialect = switch (cfg.effectiveDialect()) {
            case "escape-backslash" -> ESCAPE_BACKSLASH;
            case "escape-backslash-with-sequences" -> ESCAPE_BACKSLASH_WITH_SEQUENCES;
            case "escape-double-char" -> ESCAPE_DOUBLE_CHAR;
            default -> ESCAPE_NONE;
        };
        greedy = cfg.flags().contains("greedy");
        strip = cfg.flags().contains("strip-whitespace");
        dropInvalid = cfg.flags().contains("drop-invalid");
        nullValue = cfg.nullValue() == null || cfg.nullValue().isEmpty()
                ? null : cfg.nullValue().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected boolean parse(byte[] in, int off, int len, LogEvent event) {
        if (scan(in, off, off + len) || !dropInvalid) {
            return true;
        }
        event.addFlag(LogEvent.FLAG_DISCARD);
        return false;
    }

    /** Writes the columns; returns whether every name got a column and all the input was used. */
    private boolean scan(byte[] in, int pos, int end) {
        int last = columns.length - 1;
        for (int col = 0; col <= last; col++) {
            if (col == last && greedy) {
                if (strip) {
                    pos = skipBlanks(in, pos, end);
                }
                write(col, in, pos, end);
                return true;
            }
            if (pos >= end) {
                return false;
            }
            byte close = closingQuote[in[pos] & 0xFF];
            if (close != 0) {
                pos++;
            }
            if (strip) {
                pos = skipBlanks(in, pos, end);
            }
            if (close == 0) {
                int start = pos;
                int dlen = 0;
                while (pos < end && (dlen = delimiterAt(in, pos, end)) == 0) {
                    pos++;
                }
                write(col, in, start, pos);
                pos += dlen;
            } else {
                pos = quoted(in, pos, end, close);
                write(col, value.array(), 0, value.length());
            }
        }
        return pos == end;
    }

    /** Reads a value after its opening quote into {@link #value}; returns the position after its delimiter. */
    private int quoted(byte[] in, int pos, int end, byte quote) {
        ByteBuilder v = value;
        v.reset();
        boolean backslash = dialect == ESCAPE_BACKSLASH || dialect == ESCAPE_BACKSLASH_WITH_SEQUENCES;
        while (pos < end) {
            if (quote != 0) {
                int run = pos;
                while (run < end && in[run] != quote && (!backslash || in[run] != '\\')) {
                    run++;
                }
                if (run > pos) {
                    v.append(in, pos, run - pos);
                    pos = run;
                    continue;
                }
            }
            byte b = in[pos];
            if (quote != 0) {
                if (b == '\\' && pos + 1 < end && dialect == ESCAPE_BACKSLASH) {
                    v.append(in[pos + 1]);
                    pos += 2;
                } else if (b == '\\' && pos + 1 < end && dialect == ESCAPE_BACKSLASH_WITH_SEQUENCES) {
                    pos = sequence(in, pos + 1, end, quote, v);
                } else if (b == quote && pos + 1 < end && in[pos + 1] == quote && dialect == ESCAPE_DOUBLE_CHAR) {
                    v.append(quote);
                    pos += 2;
                } else if (b == quote) {
                    quote = 0;
                    pos++;
                } else {
                    v.append(b);
                    pos++;
                }
            } else {
                int dlen = delimiterAt(in, pos, end);
                if (dlen > 0) {
                    return pos + dlen;
                }
                v.append(b);
                pos++;
            }
        }
        return pos;
    }

    /** One backslash sequence at {@code pos} (the byte after the backslash); returns the position after it. */
    private static int sequence(byte[] in, int pos, int end, byte quote, ByteBuilder v) {
        byte ch = in[pos];
        if (ch == quote) {
            v.append(ch);
            return pos + 1;
        }
        switch (ch) {
            case 'a' -> v.append((byte) 7);
            case 'n' -> v.append((byte) '\n');
            case 'r' -> v.append((byte) '\r');
            case 't' -> v.append((byte) '\t');
            case 'v' -> v.append((byte) 11);
            case 'x' -> {
                int hi = pos + 2 < end ? hex(in[pos + 1]) : -1;
                int lo = pos + 2 < end ? hex(in[pos + 2]) : -1;
                if (hi >= 0 && lo >= 0) {
                    v.append((byte) ((hi << 4) | lo));
                    return pos + 3;
                }
                v.append((byte) 'x');
            }
            default -> v.append(ch);
        }
        return pos + 1;
    }

    private static int hex(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    /** The length of the delimiter at {@code pos}, 0 if there is none; string delimiters first. */
    private int delimiterAt(byte[] in, int pos, int end) {
        for (byte[] d : stringDelimiters) {
            if (end - pos >= d.length && java.util.Arrays.equals(in, pos, pos + d.length, d, 0, d.length)) {
                return d.length;
            }
        }
        return delimiter[in[pos] & 0xFF] ? 1 : 0;
    }

    /** Sets column {@code col} to bytes {@code [from, to)} of {@code v}, after stripping and the null check. */
    private void write(int col, byte[] v, int from, int to) {
        if (strip) {
            while (to > from && (v[to - 1] == ' ' || v[to - 1] == '\t')) {
                to--;
            }
        }
        if (nullValue != null && to - from == nullValue.length
                && java.util.Arrays.equals(v, from, to, nullValue, 0, nullValue.length)) {
            to = from;
        }
        out.set(columns[col], 0, columns[col].length, v, from, to - from);
    }

    private static int skipBlanks(byte[] in, int pos, int end) {
        while (pos < end && (in[pos] == ' ' || in[pos] == '\t')) {
            pos++;
        }
        return pos;
    }
}
