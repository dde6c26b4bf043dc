package dev.logrouter.core.parse.syslog;

import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.StructuredData;

/**
 * Parses RFC 5424 STRUCTURED-DATA into a {@link FieldTable} as {@link StructuredData} describes: one entry
 * {@code .SDATA.<id>.<param>} per parameter with the unescaped value, an entry {@code .SDATA.<id>} with an empty
 * value for an element without parameters, the SD-ID length as the entry tag.
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

    private final byte[] name = new byte[StructuredData.PREFIX.length + MAX_NAME + 1 + MAX_NAME];

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
            if (p < end && b[p] == ']') {
                table.set(name, 0, idNameLen, b, p, 0, idLen);
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
                int r = value(table, nameLen, idLen, b, p, end);
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
    private int value(FieldTable table, int nameLen, int idLen, byte[] b, int p, int end) {
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
            table.set(name, 0, nameLen, b, start, valueEnd - start, idLen);
        } else {
            int entry = table.begin(name, 0, nameLen, idLen);
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

    private static boolean isNameStart(byte c) {
        return c >= 0 && c != '=' && c != ' ' && c != ']' && c != '"';
    }
}
