package dev.logrouter.core.parse.kv;

import dev.logrouter.core.template.ByteBuilder;

/**
 * Splits bytes into key-value pairs with syslog-ng's kv-scanner rules, one pair per {@link #next()}, without
 * allocating:
 * <ul>
 *   <li>a key is the run of {@code [A-Za-z0-9_.-]} directly before the value separator (spaces between them are
 *       skipped); a separator with no such run before it is not a pair ({@code *k=v} gives {@code k},
 *       {@code =v} nothing); what precedes the key since the last pair is a stray word;</li>
 *   <li>an unquoted value runs until the pair separator (default {@code ", "}) or until a space followed by
 *       spaces and then either the end or another {@code key=}; other spaces, tabs, quotes, backslashes and
 *       value separators inside it are kept literally ({@code foo=bar baz x=1} gives {@code foo="bar baz"});</li>
 *   <li>a value starting with {@code "} or {@code '} is unquoted with C-like escapes ({@code \b \f \n \r \t \\}
 *       and the quote itself; other escapes keep their backslash) and ends at the closing quote, which must be
 *       followed by a space, the pair separator or the end; words after it are stray words;</li>
 *   <li>an unbalanced quote, or junk right after the closing quote, keeps the value raw (quotes included) up
 *       to the end of the input or to the closing quote, and scanning resumes right after the value separator, so
 *       pairs inside the raw value are found again — as syslog-ng does.</li>
 * </ul>
 * Stray words, when collected, form a syslog-ng list: comma-separated, each word quoted when it holds spaces,
 * commas, quotes, backslashes or control characters.
 *
 * <p>Threads: one instance per parser instance, used by its parse worker only. The key and value positions are
 * valid until the next call.
 */
final class KvScanner {

    private static final boolean[] KEY_CHAR = new boolean[256];

    static {
        for (int c = 0; c < 256; c++) {
            KEY_CHAR[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '.' || c == '-';
        }
    }

    private final byte valueSeparator;
    private final byte[] pairSeparator;
    private final boolean collectStrayWords;
    private final ByteBuilder unquoted = new ByteBuilder(128);
    private final ByteBuilder strayWords = new ByteBuilder(64);

    private byte[] in;
    private int pos;
    private int end;
    private boolean valueWasQuoted;

    private int keyStart;
    private int keyEnd;
    private byte[] valueArray;
    private int valueOffset;
    private int valueLength;

    // The key that ended the last value (found by keyFollows while looking for the value's end), so that
    // extractKey need not scan it again: valid when pos == aheadFrom. Only kept when the value separator is neither
    // a key character nor a space, so that the key found then is exactly the one extractKey would find.
    private final boolean canLookAhead;
    private int aheadFrom = -1;
    private int aheadKeyEnd;
    private int aheadSeparator;

    KvScanner(byte valueSeparator, byte[] pairSeparator, boolean collectStrayWords) {
        this.valueSeparator = valueSeparator;
        this.pairSeparator = pairSeparator.clone();
        this.collectStrayWords = collectStrayWords;
        this.canLookAhead = !isKeyChar(valueSeparator) && valueSeparator != ' ';
    }

    void input(byte[] input, int off, int len) {
        in = input;
        pos = off;
        end = off + len;
        strayWords.reset();
        aheadFrom = -1;
    }

    /** Scans the next pair; false when there is none left. */
    boolean next() {
        if (!extractKey()) {
            return false;
        }
        valueWasQuoted = false;
        skipInitialSpaces();
        decodeValue();
        return true;
    }

    int keyStart() {
        return keyStart;
    }

    int keyLength() {
        return keyEnd - keyStart;
    }

    /** The array holding the current value: the input itself, or a scratch buffer for an unquoted copy. */
    byte[] valueArray() {
        return valueArray;
    }

    int valueOffset() {
        return valueOffset;
    }

    int valueLength() {
        return valueLength;
    }

    /** The stray words collected so far (empty unless collecting); valid until the next {@link #input}. */
    ByteBuilder strayWords() {
        return strayWords;
    }

    static boolean isKeyChar(byte c) {
        return KEY_CHAR[c & 0xFF];
    }

    private boolean extractKey() {
        int from = pos;
        if (from == aheadFrom) {
            keyStart = from;
            keyEnd = aheadKeyEnd;
            pos = aheadSeparator + 1;
            return true;
        }
        int sep = indexOfSeparator(from);
        while (sep >= 0) {
            int keyEndAt = sep;
            while (keyEndAt > from && in[keyEndAt - 1] == ' ') {
                keyEndAt--;
            }
            int keyStartAt = keyEndAt;
            while (keyStartAt > from && isKeyChar(in[keyStartAt - 1])) {
                keyStartAt--;
            }
            if (keyEndAt > keyStartAt) {
                keyStart = keyStartAt;
                keyEnd = keyEndAt;
                strayWord(from, keyStartAt);
                pos = sep + 1;
                return true;
            }
            sep = indexOfSeparator(sep + 1);
        }
        strayWord(from, end);
        pos = end;
        return false;
    }

    private int indexOfSeparator(int from) {
        for (int i = from; i < end; i++) {
            if (in[i] == valueSeparator) {
                return i;
            }
        }
        return -1;
    }

    private void skipInitialSpaces() {
        int c = pos;
        while (c < end && in[c] == ' ' && matchDelimiter(c) < 0) {
            c++;
        }
        pos = c;
    }

    // decoder states, as syslog-ng's str-repr decoder
    private static final int INITIAL = 0;
    private static final int QUOTED = 1;
    private static final int BACKSLASH = 2;
    private static final int EXPECT_DELIMITER = 3;
    private static final int JUNK_AFTER_QUOTE = 4;
    private static final int FINISH_SUCCESS = 5;
    private static final int FINISH_FAILURE = 6;

    private void decodeValue() {
        final int start = pos;
        if (start < end && in[start] != '"' && in[start] != '\'') {
            decodeUnquoted(start);
            return;
        }
        valueWasQuoted = start < end; // past the test above, a value that is there starts with a quote
        unquoted.reset();
        int state = INITIAL;
        byte quote = 0;
        int closingQuoteEnd = -1;
        int unquotedEnd = -1;
        int cur = start;
        for (; cur < end; cur++) {
            byte b = in[cur];
            int d;
            switch (state) {
                case INITIAL:
                    d = matchDelimiter(cur);
                    if (d >= 0) {
                        unquotedEnd = cur;
                        cur = d;
                        state = FINISH_SUCCESS;
                    } else { // the opening quote
                        quote = b;
                        state = QUOTED;
                    }
                    break;
                case QUOTED:
                    if (b == quote) {
                        state = EXPECT_DELIMITER;
                    } else if (b == '\\') {
                        state = BACKSLASH;
                    } else {
                        // the run of plain bytes up to the next quote or backslash, copied at once
                        int last = cur;
                        while (last + 1 < end && in[last + 1] != quote && in[last + 1] != '\\') {
                            last++;
                        }
                        unquoted.append(in, cur, last + 1 - cur);
                        cur = last;
                    }
                    break;
                case BACKSLASH:
                    unescape(quote, b);
                    state = QUOTED;
                    break;
                case EXPECT_DELIMITER:
                    closingQuoteEnd = cur;
                    d = matchDelimiter(cur);
                    if (d >= 0) {
                        cur = d;
                        state = FINISH_SUCCESS;
                    } else {
                        state = JUNK_AFTER_QUOTE;
                    }
                    break;
                default: // JUNK_AFTER_QUOTE
                    d = matchDelimiter(cur);
                    if (d >= 0) {
                        cur = d;
                        state = FINISH_FAILURE;
                    }
                    break;
            }
            if (state >= FINISH_SUCCESS) {
                break;
            }
        }
        boolean quotedValue = quote != 0;
        boolean ok = state == INITIAL || state == EXPECT_DELIMITER || state == FINISH_SUCCESS;
        if (ok) {
            pos = cur;
            if (quotedValue) {
                setValue(unquoted.array(), 0, unquoted.length());
            } else {
                setValue(in, start, (unquotedEnd >= 0 ? unquotedEnd : end) - start);
            }
        } else {
            // unbalanced quote or junk after the closing quote: the raw text, and rescan from the value's start
            valueWasQuoted = false;
            int rawEnd = closingQuoteEnd >= 0 ? closingQuoteEnd : cur;
            setValue(in, start, rawEnd - start);
        }
    }

    /**
     * The common case of {@link #decodeValue}, a value not starting with a quote (syslog-ng's unquoted state): it
     * ends at the first delimiter, and only a space or the pair separator's first byte can start one.
     */
    private void decodeUnquoted(int start) {
        valueWasQuoted = false;
        byte[] b = in;
        int e = end;
        byte pair0 = pairSeparator[0];
        for (int cur = start; cur < e; cur++) {
            byte c = b[cur];
            if (c == ' ' || c == pair0) {
                int d = matchDelimiter(cur);
                if (d >= 0) {
                    setValue(b, start, cur - start);
                    pos = d;
                    return;
                }
            }
        }
        setValue(b, start, e - start);
        pos = e;
    }

    private void setValue(byte[] a, int off, int len) {
        valueArray = a;
        valueOffset = off;
        valueLength = len;
    }

    private void unescape(byte quote, byte b) {
        byte control;
        switch (b) {
            case 'b':
                control = '\b';
                break;
            case 'f':
                control = '\f';
                break;
            case 'n':
                control = '\n';
                break;
            case 'r':
                control = '\r';
                break;
            case 't':
                control = '\t';
                break;
            case '\\':
                control = '\\';
                break;
            default:
                if (b != quote) {
                    unquoted.append((byte) '\\');
                }
                control = b;
                break;
        }
        unquoted.append(control);
    }

    /** Where the value ends at {@code cur}: the position after the delimiter, or -1 when none is at {@code cur}. */
    private int matchDelimiter(int cur) {
        byte b = in[cur];
        if (b == ' ') {
            if (valueWasQuoted) {
                return cur + 1;
            }
            if (pairSeparator[0] == ' ' && pairSeparatorAt(cur)) {
                return cur + pairSeparator.length;
            }
            int c = cur;
            while (c < end && in[c] == ' ') {
                c++;
            }
            if (c == end || keyFollows(c)) {
                return c;
            }
            return pairSeparatorAt(c) ? c + pairSeparator.length : -1;
        }
        return b == pairSeparator[0] && pairSeparatorAt(cur) ? cur + pairSeparator.length : -1;
    }

    private boolean pairSeparatorAt(int cur) {
        int n = pairSeparator.length;
        if (cur + n > end) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (in[cur + i] != pairSeparator[i]) {
                return false;
            }
        }
        return true;
    }

    private boolean keyFollows(int cur) {
        int k = cur;
        while (k < end && isKeyChar(in[k])) {
            k++;
        }
        if (k == cur) {
            return false;
        }
        int keyEndAt = k;
        while (k < end && in[k] == ' ') {
            k++;
        }
        if (k < end && in[k] == valueSeparator) {
            if (canLookAhead) {
                aheadFrom = cur;
                aheadKeyEnd = keyEndAt;
                aheadSeparator = k;
            }
            return true;
        }
        return false;
    }

    private void strayWord(int from, int to) {
        if (!collectStrayWords) {
            return;
        }
        while (to > from && in[to - 1] == ' ') {
            to--;
        }
        while (from < to && in[from] == ' ') {
            from++;
        }
        if (from == to) {
            return;
        }
        if (strayWords.length() > 0) {
            strayWords.append((byte) ',');
        }
        appendListElement(from, to);
    }

    /** Appends one list element as syslog-ng's str-repr encoder does, with ',' as an extra character to quote. */
    private void appendListElement(int from, int to) {
        boolean apostrophe = false;
        boolean quote = false;
        boolean special = false;
        for (int i = from; i < to; i++) {
            byte b = in[i];
            if (b == '\'') {
                apostrophe = true;
            } else if (b == '"') {
                quote = true;
            } else if (b == ' ' || b == ',' || b == '\\' || b == '\b' || b == '\f' || b == '\n' || b == '\r'
                    || b == '\t') {
                special = true;
            }
        }
        if (!apostrophe && !quote && !special) {
            strayWords.append(in, from, to - from);
            return;
        }
        byte q = quote && !apostrophe ? (byte) '\'' : (byte) '"';
        strayWords.append(q);
        for (int i = from; i < to; i++) {
            byte b = in[i];
            switch (b) {
                case '\\':
                    strayWords.append((byte) '\\').append((byte) '\\');
                    break;
                case '\b':
                    strayWords.append((byte) '\\').append((byte) 'b');
                    break;
                case '\f':
                    strayWords.append((byte) '\\').append((byte) 'f');
                    break;
                case '\n':
                    strayWords.append((byte) '\\').append((byte) 'n');
                    break;
                case '\r':
                    strayWords.append((byte) '\\').append((byte) 'r');
                    break;
                case '\t':
                    strayWords.append((byte) '\\').append((byte) 't');
                    break;
                default:
                    if (b == '"' && q == '"') {
                        strayWords.append((byte) '\\');
                    }
                    strayWords.append(b);
                    break;
            }
        }
        strayWords.append(q);
    }
}
