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

    static void sanitize(ByteBuilder name, int maxBytes) {
        byte[] b = name.array();
        int len = name.length();
        int start = 0;
        while (start < len && (b[start] == '-' || b[start] == '_' || b[start] == '+')) {
            start++;
        }
        int n = 0;
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
        if (n > maxBytes) {
            n = Utf8Encoder.prefixLength(b, 0, maxBytes);
        }
        name.setLength(n);
        if (n == 0 || (n == 1 && b[0] == '.') || (n == 2 && b[0] == '.' && b[1] == '.')) {
            name.reset();
            name.append(UNNAMED);
        }
    }
}
