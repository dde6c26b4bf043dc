package dev.logrouter.core.template;

/**
 * Writes one element of a syslog-ng style list (comma separated, {@code str_repr_encode} with {@code ,}
 * forbidden): an empty value is {@code ""}; a value without quotes, blanks, backslashes, control characters
 * {@code \b \f \n \r \t} or commas is written as is; otherwise it is quoted, in single quotes when it contains a
 * double quote but no single quote, else in double quotes (escaping {@code "}), with {@code \b \f \n \r \t \\}
 * escaped and other control bytes written as {@code \xHH}. Bytes from 0x80 up are copied unchanged (the reference
 * also escapes invalid UTF-8; logrouter does not validate here).
 *
 * <p>Threads: stateless.
 */
final class ListEncoding {


    private ListEncoding() {
    }

    static void appendElement(ByteBuilder out, byte[] v, int off, int len) {
        if (len == 0) {
            out.append((byte) '"').append((byte) '"');
            return;
        }
        boolean apostrophe = false;
        boolean quote = false;
        boolean special = false;
        for (int i = off; i < off + len; i++) {
            byte b = v[i];
            if (b == '\'') {
                apostrophe = true;
            } else if (b == '"') {
                quote = true;
            } else if (b == ',' || b == ' ' || b == '\\' || (b >= 0 && b < 0x20)) {
                special = true;
            }
        }
        if (!apostrophe && !quote && !special) {
            out.append(v, off, len);
            return;
        }
        byte q = quote && !apostrophe ? (byte) '\'' : (byte) '"';
        out.append(q);
        for (int i = off; i < off + len; i++) {
            byte b = v[i];
            switch (b) {
                case '\b' -> out.append((byte) '\\').append((byte) 'b');
                case '\f' -> out.append((byte) '\\').append((byte) 'f');
                case '\n' -> out.append((byte) '\\').append((byte) 'n');
                case '\r' -> out.append((byte) '\\').append((byte) 'r');
                case '\t' -> out.append((byte) '\\').append((byte) 't');
                case '\\' -> out.append((byte) '\\').append((byte) '\\');
                default -> {
                    if (b == '"' && q == '"') {
                        out.append((byte) '\\').append(b);
                    } else if (b >= 0 && b < 0x20) {
                        out.append((byte) '\\').append((byte) 'x').appendHexByte(b);
                    } else {
                        out.append(b);
                    }
                }
            }
        }
        out.append(q);
    }
}
