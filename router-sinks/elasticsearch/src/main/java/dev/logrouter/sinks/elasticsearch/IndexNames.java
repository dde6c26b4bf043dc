package dev.logrouter.sinks.elasticsearch;

import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.util.Utf8Encoder;

/**
 * Makes a rendered index name one Elasticsearch accepts, in place: ASCII letters lowercased; {@code \ / * ? " < > | ,
 * # :}, space and control bytes become {@code _}; leading {@code - _ +} are dropped; cut at a byte limit (without
 * splitting a UTF-8 sequence); an empty name, {@code .} or {@code ..} becomes {@code logrouter-unnamed}. A host name
 * in {@code logs-${HOST}} thus cannot make every document fail or name another index pattern.
 *
 * <p>Threads: stateless.
 */
final class IndexNames {

    private static final byte[] UNNAMED = "logrouter-unnamed".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private IndexNames() {
    }

    /** Makes the name {@code name[from, length)} valid in place; the bytes before {@code from} are left alone. */
    static void sanitize(ByteBuilder name, int from, int maxBytes) {
        byte[] b = name.array();
        int len = name.length();
        int start = from;
        while (start < len && (b[start] == '-' || b[start] == '_' || b[start] == '+')) {
            start++;
        }
        int n = from;
        for (int i = start; i < len; i++) {
            byte c = b[i];
            if (c >= 'A' && c <= 'Z') {
                c = (byte) (c + ('a' - 'A'));
            } else if ((c >= 0 && c <= ' ') || c == 0x7f || c == '\\' || c == '/' || c == '*' || c == '?' || c == '"'
                    || c == '<' || c == '>' || c == '|' || c == ',' || c == '#' || c == ':') {
                c = '_';
            }
            b[n++] = c;
        }
        n -= from;
        if (n > maxBytes) {
            n = Utf8Encoder.prefixLength(b, from, maxBytes);
        }
        name.setLength(from + n);
        if (n == 0 || (n == 1 && b[from] == '.') || (n == 2 && b[from] == '.' && b[from + 1] == '.')) {
            name.setLength(from);
            name.append(UNNAMED);
        }
    }
}
