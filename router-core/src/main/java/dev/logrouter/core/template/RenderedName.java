package dev.logrouter.core.template;

import java.nio.charset.StandardCharsets;

/**
 * The String of a rendered name (a topic, an index) that a client API needs per message, made only when the
 * rendered bytes differ from the last ones: names like {@code logs-${YEAR}.${MONTH}.${DAY}} change rarely, so the
 * hot path compares bytes instead of allocating.
 *
 * <p>Threads: one instance per sink, used on the sink's thread.
 */
public final class RenderedName {

    private final ByteBuilder lastBytes = new ByteBuilder(64);
    private String last;

    /** The name of {@code b[off, off + len)} (UTF-8). */
    public String of(byte[] b, int off, int len) {
        if (last == null || !lastBytes.contentEquals(b, off, len)) {
            lastBytes.reset();
            lastBytes.append(b, off, len);
            last = new String(b, off, len, StandardCharsets.UTF_8);
        }
        return last;
    }
}
