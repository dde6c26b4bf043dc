package dev.logrouter.core.parse.json;

import com.fasterxml.jackson.core.io.NumberInput;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.parse.FieldWriter;
import dev.logrouter.core.template.ByteBuilder;

/**
 * The common case of the {@code json} parser, read straight from the input bytes: one object of ASCII text with
 * double-quoted strings, the standard escapes, numbers, {@code true}/{@code false}/{@code null}, nested objects
 * and arrays within the depth and length limits. Member names and unescaped string values are copied from the
 * input as they are, so nothing is decoded to chars and encoded back, and names are never Strings.
 *
 * <p>It writes exactly the fields {@link JsonFieldParser}'s Jackson path writes for the same input, and accepts
 * only a strict subset of what that path accepts. Anything else — a non-ASCII byte, a single quote, a
 * {@code \\u} surrogate, an unknown escape, any syntax error, a limit reached — makes it answer
 * {@link #UNSUPPORTED} without judging: the caller rolls back what was written and lets Jackson decide, so the
 * parser's behaviour (and every failure) stays Jackson's.
 *
 * <p>Threads: one instance per {@link JsonFieldParser}, used by its parse worker only.
 */
final class JsonFastPath {

    /** The input was parsed and its fields written. */
    static final int DONE = 0;
    /** The input is outside the subset read here; what was written must be rolled back. */
    static final int UNSUPPORTED = 1;

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] ZERO = {'0'};
    /** Longest integer literal copied as written: 18 digits always fit in a long, so it needs no clamping. */
    private static final int PLAIN_DIGITS = 18;

    private final FieldWriter out;
    private final byte[] keyDelimiter;
    private final int maxDepth;
    private final int maxStringLength;
    /** Per open container (index = depth): the name length to return to, and the next array index (-1: object). */
    private final int[] nameMark;
    private final int[] nextIndex;
    private final char[] numberChars = new char[64];

    private byte[] in;
    private int end;

    JsonFastPath(FieldWriter out, byte[] keyDelimiter, int maxDepth, int maxStringLength) {
        this.out = out;
        this.keyDelimiter = keyDelimiter;
        this.maxDepth = maxDepth;
        this.maxStringLength = maxStringLength;
        this.nameMark = new int[maxDepth + 2];
        this.nextIndex = new int[maxDepth + 2];
    }

    /** Parses {@code in[start, end)}: {@link #DONE} or {@link #UNSUPPORTED}. */
    int parse(byte[] input, int start, int inputEnd) {
        in = input;
        end = inputEnd;
        try {
            return object(start) ? DONE : UNSUPPORTED;
        } finally {
            in = null;
        }
    }

    private boolean object(int start) {
        byte[] b = in;
        int p = skipWs(start);
        if (p >= end || b[p] != '{') {
            return false;
        }
        p++;
        ByteBuilder name = out.name();
        int depth = 0; // index of the innermost open container; its count of open containers is depth + 1
        nameMark[0] = name.length();
        nextIndex[0] = -1;
        boolean first = true; // no member or element yet in the innermost container
        while (true) {
            p = skipWs(p);
            if (p >= end) {
                return false;
            }
            byte c = b[p];
            boolean inArray = nextIndex[depth] >= 0;
            if (c == (inArray ? ']' : '}')) {
                p++;
                if (depth == 0) {
                    return skipWs(p) == end;
                }
                depth--;
                first = false;
                continue;
            }
            if (!first) {
                if (c != ',') {
                    return false;
                }
                p = skipWs(p + 1);
                if (p >= end) {
                    return false;
                }
                c = b[p];
            }
            first = false;
            if (inArray) {
                out.truncateName(nameMark[depth]);
                name.append((byte) '[').appendDecimal(nextIndex[depth]).append((byte) ']');
                nextIndex[depth]++;
            } else {
                // a member name, then a colon
                if (c != '"') {
                    return false;
                }
                int keyStart = p + 1;
                int q = keyStart;
                while (q < end && isPlainStringByte(b[q])) {
                    q++;
                }
                if (q >= end || b[q] != '"' || q - keyStart > maxStringLength) {
                    return false; // an escape, a non-ASCII or control byte, or the end: Jackson's case
                }
                out.truncateName(nameMark[depth]);
                name.append(b, keyStart, q - keyStart);
                p = skipWs(q + 1);
                if (p >= end || b[p] != ':') {
                    return false;
                }
                p = skipWs(p + 1);
                if (p >= end) {
                    return false;
                }
                c = b[p];
            }
            // a value
            switch (c) {
                case '{':
                case '[':
                    if (depth + 2 > maxDepth) {
                        return false;
                    }
                    if (c == '{') {
                        name.append(keyDelimiter);
                    }
                    depth++;
                    nameMark[depth] = name.length();
                    nextIndex[depth] = c == '{' ? -1 : 0;
                    first = true;
                    p++;
                    break;
                case '"':
                    p = string(p + 1);
                    break;
                case 't':
                    p = literal(p, TRUE, true);
                    break;
                case 'f':
                    p = literal(p, FALSE, true);
                    break;
                case 'n':
                    p = literal(p, null, false);
                    break;
                default:
                    p = number(p);
                    break;
            }
            if (p < 0) {
                return false;
            }
        }
    }

    /** A string value from just after its opening quote; the position after the closing quote, or -1. */
    private int string(int from) {
        byte[] b = in;
        int q = from;
        while (q < end && isPlainStringByte(b[q])) {
            q++;
        }
        if (q >= end) {
            return -1;
        }
        if (b[q] == '"') {
            if (q - from > maxStringLength) {
                return -1;
            }
            out.set(b, from, q - from);
            return q + 1;
        }
        if (b[q] != '\\') {
            return -1;
        }
        // escapes: the value is composed in the table, plain runs copied, escapes decoded
        FieldTable t = out.table();
        int i = t.begin(out.name().array(), 0, out.name().length(), 0);
        int run = from;
        int chars = 0;
        while (true) {
            t.appendToValue(i, b, run, q - run);
            chars += q - run;
            if (q >= end) {
                return -1;
            }
            byte c = b[q];
            if (c == '"') {
                return chars > maxStringLength ? -1 : q + 1;
            }
            if (c != '\\' || q + 1 >= end) {
                return -1;
            }
            byte e = b[q + 1];
            q += 2;
            switch (e) {
                case '"':
                case '\\':
                case '/':
                    t.appendToValue(i, e);
                    break;
                case 'b':
                    t.appendToValue(i, (byte) '\b');
                    break;
                case 'f':
                    t.appendToValue(i, (byte) '\f');
                    break;
                case 'n':
                    t.appendToValue(i, (byte) '\n');
                    break;
                case 'r':
                    t.appendToValue(i, (byte) '\r');
                    break;
                case 't':
                    t.appendToValue(i, (byte) '\t');
                    break;
                case 'u': {
                    int u = hex4(q);
                    if (u < 0 || (u >= 0xD800 && u <= 0xDFFF)) {
                        return -1; // surrogates (pairs or lone) are left to Jackson
                    }
                    t.appendUtf8ToValue(i, (char) u);
                    q += 4;
                    break;
                }
                default:
                    return -1;
            }
            chars++;
            run = q;
            while (q < end && isPlainStringByte(b[q])) {
                q++;
            }
        }
    }

    private int hex4(int at) {
        if (at + 4 > end) {
            return -1;
        }
        int v = 0;
        for (int k = at; k < at + 4; k++) {
            int d = Character.digit(in[k], 16);
            if (d < 0) {
                return -1;
            }
            v = (v << 4) | d;
        }
        return v;
    }

    /** {@code true}, {@code false} or {@code null} at {@code p}; stores {@code value} unless null. */
    private int literal(int p, byte[] value, boolean store) {
        byte[] word = value != null ? value : NULL_WORD;
        int n = word.length;
        if (p + n > end) {
            return -1;
        }
        for (int k = 0; k < n; k++) {
            if (in[p + k] != word[k]) {
                return -1;
            }
        }
        if (!endsValue(p + n)) {
            return -1;
        }
        if (store) {
            out.set(value, 0, n);
        }
        return p + n;
    }

    private static final byte[] NULL_WORD = {'n', 'u', 'l', 'l'};

    /**
     * A JSON number at {@code p} (RFC 8259 grammar, no leading zeros): an integer of up to 18 digits is written as
     * written (its decimal form), one with a fraction or exponent as {@code %f}; longer integers are Jackson's.
     */
    private int number(int p) {
        byte[] b = in;
        int q = p;
        boolean negative = q < end && b[q] == '-';
        if (negative) {
            q++;
        }
        int intStart = q;
        if (q >= end || b[q] < '0' || b[q] > '9') {
            return -1;
        }
        if (b[q] == '0') {
            q++;
        } else {
            while (q < end && b[q] >= '0' && b[q] <= '9') {
                q++;
            }
        }
        int intEnd = q;
        boolean fraction = false;
        if (q < end && b[q] == '.') {
            fraction = true;
            q++;
            int digits = q;
            while (q < end && b[q] >= '0' && b[q] <= '9') {
                q++;
            }
            if (q == digits) {
                return -1;
            }
        }
        if (q < end && (b[q] == 'e' || b[q] == 'E')) {
            fraction = true;
            q++;
            if (q < end && (b[q] == '+' || b[q] == '-')) {
                q++;
            }
            int digits = q;
            while (q < end && b[q] >= '0' && b[q] <= '9') {
                q++;
            }
            if (q == digits) {
                return -1;
            }
        }
        if (!endsValue(q)) {
            return -1;
        }
        if (fraction) {
            int n = q - p;
            if (n > numberChars.length) {
                return -1;
            }
            for (int k = 0; k < n; k++) {
                numberChars[k] = (char) b[p + k];
            }
            double d = NumberInput.parseDouble(numberChars, 0, n, true);
            ByteBuilder v = out.scratchValue();
            FixedDecimal.appendFixed6(v, d);
            out.set(v.array(), 0, v.length());
        } else if (intEnd - intStart > PLAIN_DIGITS) {
            return -1; // may need clamping, or be past Jackson's number length limit: Jackson's case
        } else if (negative && intEnd - intStart == 1 && b[intStart] == '0') {
            out.set(ZERO, 0, 1); // -0 is 0
        } else {
            out.set(b, p, q - p);
        }
        return q;
    }

    /** Whether a scalar may end at {@code p}: the input continues with whitespace, a comma or a closing bracket. */
    private boolean endsValue(int p) {
        if (p >= end) {
            return false;
        }
        byte c = in[p];
        return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    private int skipWs(int p) {
        byte[] b = in;
        while (p < end) {
            byte c = b[p];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                break;
            }
            p++;
        }
        return p;
    }

    /** An ASCII byte that stands for itself inside a double-quoted string (not a control, quote or backslash). */
    private static boolean isPlainStringByte(byte c) {
        return c >= 0x20 && c != '"' && c != '\\'; // negative (non-ASCII) bytes fail the first test
    }
}
