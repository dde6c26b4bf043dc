package dev.logrouter.core.template;

import dev.logrouter.core.event.LogEvent;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A sink's path template, rendered per event and looked up in the sink's cache of open files without allocating:
 * the rendered bytes are first compared with the last path (consecutive events mostly share one), then looked up
 * with one reused probe key. Only a path that is not in the cache costs a key copy and a String, when the sink opens
 * it.
 *
 * <p>Threads: one sink's thread.
 *
 * @param <V> the sink's open-file type
 */
public final class RenderedPaths<V> {

    private final Template template;
    private final ValueEscaper escaper;
    private final Map<PathKey, V> cache;
    private final ByteBuilder path = new ByteBuilder(256);
    private final ByteBuilder lastPath = new ByteBuilder(256);
    private final PathKey probe = new PathKey(new byte[0], 0);
    private V last;

    /**
     * @param cache the sink's own map of open files; read here ({@code get}), changed only by the sink
     */
    public RenderedPaths(Template template, ValueEscaper escaper, Map<PathKey, V> cache) {
        this.template = template;
        this.escaper = escaper;
        this.cache = cache;
    }

    /**
     * Renders the event's path and returns its entry in the cache, or null when it has none: then {@link #probe()} and
     * {@link #rendered()} name the path, and {@link #remember} makes the new entry the last one.
     */
    public V find(LogEvent event) {
        path.reset();
        template.render(event, path, escaper);
        if (last != null && lastPath.contentEquals(path.array(), 0, path.length())) {
            return last;
        }
        probe.set(path.array(), path.length());
        V v = cache.get(probe);
        if (v != null) {
            remember(v);
        }
        return v;
    }

    /**
     * As {@link #find(LogEvent)} for a path rendered before (a journaled record's): {@code prefix} then
     * {@code b[off, off + len)}, looked up without rendering the template.
     */
    public V find(byte[] prefix, byte[] b, int off, int len) {
        path.reset();
        path.append(prefix, 0, prefix.length);
        path.append(b, off, len);
        if (last != null && lastPath.contentEquals(path.array(), 0, path.length())) {
            return last;
        }
        probe.set(path.array(), path.length());
        V v = cache.get(probe);
        if (v != null) {
            remember(v);
        }
        return v;
    }

    /** The path {@link #find} did not find, as a key valid until the next call ({@code copy()} it to store it). */
    public PathKey probe() {
        return probe;
    }

    /** The path just rendered, as text (cold path: opening a file). */
    public String rendered() {
        return new String(path.array(), 0, path.length(), StandardCharsets.UTF_8);
    }

    /** Makes {@code v} the entry of the path just rendered, returned again while events keep that path. */
    public void remember(V v) {
        lastPath.reset();
        lastPath.append(path.array(), 0, path.length());
        last = v;
    }

    /** {@code v} left the cache: it is no longer returned for the last path. */
    public void forget(V v) {
        if (last == v) {
            last = null;
        }
    }
}
