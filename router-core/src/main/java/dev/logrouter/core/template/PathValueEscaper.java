package dev.logrouter.core.template;

/**
 * Neutralises a value substituted into a file path so that it stays one path component inside the
 * configured base directory: {@code /} and {@code \}, NUL and every other control byte (below 0x20, and
 * 0x7f) become {@code _} (and {@code :} too for {@link #HDFS}, whose names cannot hold it: an IPv6 HOST); a value that is exactly {@code .} or {@code ..} becomes {@code _} or
 * {@code __}; an empty value becomes {@code _}. Other bytes, including UTF-8, pass through. A hostile
 * HOST of {@code ../../etc} therefore renders as {@code .._.._etc}. A value is cut at
 * {@value #MAX_VALUE_BYTES} bytes, the longest file name most file systems accept.
 *
 * <p>Threads: stateless, shared.
 */
public final class PathValueEscaper implements ValueEscaper {

    /** For local file paths. */
    public static final PathValueEscaper INSTANCE = new PathValueEscaper(false);

    /** For HDFS paths: {@code :} becomes {@code _} as well (HDFS refuses it in a name). */
    public static final PathValueEscaper HDFS = new PathValueEscaper(true);

    /** Longest value substituted into a path. */
    public static final int MAX_VALUE_BYTES = 255;

    private final boolean colon;

    private PathValueEscaper(boolean colon) {
        this.colon = colon;
    }

    @Override
    public void append(ByteBuilder out, byte[] src, int off, int len) {
        if (len == 0) {
            out.append((byte) '_');
            return;
        }
        len = Math.min(len, MAX_VALUE_BYTES);
        boolean allDots = len <= 2;
        out.ensure(len);
        for (int i = off; i < off + len; i++) {
            byte b = src[i];
            if (b != '.') {
                allDots = false;
            }
            if (b == '/' || b == '\\' || (b >= 0 && b < 0x20) || b == 0x7f || (colon && b == ':')) {
                out.append((byte) '_');
            } else {
                out.append(b);
            }
        }
        if (allDots) {
            byte[] a = out.array();
            for (int i = out.length() - len; i < out.length(); i++) {
                a[i] = '_';
            }
        }
    }
}
