package dev.logrouter.core.parse.syslog;

import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.StructuredData;

import java.util.Arrays;

/**
 * Parses RFC 5424 STRUCTURED-DATA into a {@link FieldTable} as {@link StructuredData} describes: one entry
 * {@code .SDATA.<id>.<param>} per parameter with the unescaped value, an entry {@code .SDATA.<id>} with an empty
 * value for an element without parameters, the SD-ID length and the occurrence of the SD-ID in the message as the
 * entry tag ({@link StructuredData#tag}): {@code [meta a="1"][x@1 b="2"][meta c="3"]} puts {@code c} in the second
 * {@code meta} element, so that {@code ${SDATA}} writes the three elements as they came. A parameter repeated in a
 * later element of its SD-ID ({@code [meta a="1"][meta a="2"]}) is one entry, the last value, in its first element.
 * Occurrences are counted for the first {@value #TRACKED_IDS} distinct SD-IDs of a message; the elements of any
 * further SD-ID are all its first (written as one element, as for entries a rewrite adds).
 *
 * <p>Accepted like syslog-ng 3.38: {@code -} (NIL); elements back to back ({@code [a][b]}); a space after an
 * element ends SD; SD-IDs and parameter names of up to {@value #MAX_NAME} printable ASCII bytes other than
 * {@code = ] "} and space; a repeated SD-ID/param (the last value wins). In values {@code \"}, {@code \\} and
 * {@code \]} are unescaped and a backslash before any other byte is kept; a value over
 * {@code max-field-length} is cut by the event's {@link dev.logrouter.core.event.FieldTable}, counted and tagged like
 * any other. Errors: a bad or over-long name, a space right after {@code [}, a missing
 * {@code =} or quote, an unescaped {@code ]} inside a value, an unescaped {@code "} not followed by a space or
 * {@code ]}, input ending inside an element.
 *
 * <p>Threads: a parse worker thread; one instance per worker, not thread-safe (it keeps a scratch name buffer).
 */
final class StructuredDataParser {

    /** Longest SD-ID or PARAM-NAME accepted. */
    static final int MAX_NAME = 255;

    /** Distinct SD-IDs whose elements are counted per message. */
    static final int TRACKED_IDS = 64;

    private final byte[] name = new byte[StructuredData.PREFIX.length + MAX_NAME + 1 + MAX_NAME];
    /** The distinct SD-IDs of the message being parsed: where each is in the frame, and its elements so far. */
    private final int[] seenStart = new int[TRACKED_IDS];
    private final int[] seenLength = new int[TRACKED_IDS];
    private final int[] seenElements = new int[TRACKED_IDS];
    private int seen;

    StructuredDataParser() {
        System.arraycopy(StructuredData.PREFIX, 0, name, 0, StructuredData.PREFIX.length);
    }

    /**
     * Parses SD at {@code p}. Input that is neither {@code -} nor {@code [} is left alone (the caller decides).
     *
     * @return the position after SD, or {@code ~errorPosition} (negative) where errorPosition is where the scan
     *     stopped, as syslog-ng reports it
     */
    int parse(FieldTable table, byte[] b, int p, int end) {
        if (p < end && b[p] == '-') {
            return p + 1;
        }
        if (p >= end || b[p] != '[') {
            return p;
        }
        p++;
        seen = 0;
        int open = 1;
        do {
            if (p >= end || !isNameStart(b[p])) {
                return ~p;
            }
            int idStart = p;
            while (p < end && b[p] != ' ' && b[p] != ']') {
                if (p - idStart >= MAX_NAME || b[p] < 0 || b[p] == '=' || b[p] == '"') {
                    return ~p;
                }
                p++;
            }
            int idLen = p - idStart;
            int prefixLen = StructuredData.PREFIX.length;
            System.arraycopy(b, idStart, name, prefixLen, idLen);
            int idNameLen = prefixLen + idLen;
            int elementTag = StructuredData.tag(idLen, occurrence(b, idStart, idLen));
            if (p < end && b[p] == ']') {
                table.set(name, 0, idNameLen, b, p, 0, tagFor(table, idNameLen, elementTag));
            }
            name[idNameLen] = '.';
            while (p < end && b[p] != ']') {
                if (b[p] != ' ') {
                    return ~p;
                }
                p++;
                if (p >= end || !isNameStart(b[p])) {
                    return ~p;
                }
                int nameStart = p;
                while (p < end && b[p] != '=') {
                    if (p - nameStart >= MAX_NAME || b[p] < 0 || b[p] == ' ' || b[p] == ']' || b[p] == '"') {
                        return ~p;
                    }
                    p++;
                }
                int paramLen = p - nameStart;
                if (p >= end) {
                    return ~p;
                }
                p++;
                if (p >= end || b[p] != '"') {
                    return ~p;
                }
                p++;
                System.arraycopy(b, nameStart, name, idNameLen + 1, paramLen);
                int nameLen = idNameLen + 1 + paramLen;
                int r = value(table, nameLen, tagFor(table, nameLen, elementTag), b, p, end);
                if (r < 0) {
                    return r;
                }
                p = r;
            }
            if (p >= end) {
                return ~p;
            }
            p++;
            open--;
            if (p < end && b[p] == '[') {
                p++;
                open++;
            }
        } while (p < end && open != 0);
        return p;
    }

    /** The quoted value starting at p (after the opening quote); returns the position after the closing quote. */
    private int value(FieldTable table, int nameLen, int tag, byte[] b, int p, int end) {
        int start = p;
        boolean escaped = false;
        boolean hasBackslash = false;
        while (p < end && (b[p] != '"' || escaped)) {
            if (!escaped && b[p] == '\\') {
                escaped = true;
                hasBackslash = true;
            } else {
                if (!escaped && b[p] == ']') {
                    return ~(p + 1);
                }
                escaped = false;
            }
            p++;
        }
        if (p >= end) {
            return ~p;
        }
        int valueEnd = p;
        if (!hasBackslash) {
            table.set(name, 0, nameLen, b, start, valueEnd - start, tag);
        } else {
            int entry = table.begin(name, 0, nameLen, tag);
            escaped = false;
            for (int i = start; i < valueEnd; i++) {
                byte c = b[i];
                if (!escaped && c == '\\') {
                    escaped = true;
                    continue;
                }
                if (escaped && c != '"' && c != ']' && c != '\\') {
                    table.appendToValue(entry, (byte) '\\');
                }
                table.appendToValue(entry, c);
                escaped = false;
            }
        }
        return valueEnd + 1;
    }

    /**
     * The occurrence of the SD-ID {@code b[start, start + len)} in the message so far (0 for its first element), and
     * counts this element. An SD-ID past the {@value #TRACKED_IDS} tracked ones is always at its first.
     */
    private int occurrence(byte[] b, int start, int len) {
        for (int i = 0; i < seen; i++) {
            int s = seenStart[i];
            if (seenLength[i] == len && Arrays.equals(b, s, s + len, b, start, start + len)) {
                return seenElements[i]++;
            }
        }
        if (seen < TRACKED_IDS) {
            seenStart[seen] = start;
            seenLength[seen] = len;
            seenElements[seen] = 1;
            seen++;
        }
        return 0;
    }

    /**
     * The tag for the entry {@code name[0, nameLen)} of an element tagged {@code elementTag}: that one, except that
     * in a repeated element an entry that is already there (the parameter was in an earlier element of the SD-ID)
     * keeps its tag, so that it stays in the element it was first seen in.
     */
    private int tagFor(FieldTable table, int nameLen, int elementTag) {
        if (StructuredData.occurrence(elementTag) == 0) {
            return elementTag;
        }
        int i = table.indexOf(name, 0, nameLen);
        return i < 0 ? elementTag : table.tag(i);
    }

    private static boolean isNameStart(byte c) {
        return c >= 0 && c != '=' && c != ' ' && c != ']' && c != '"';
    }
}
