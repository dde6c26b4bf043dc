package dev.logrouter.core.sink;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.template.PathKey;
import dev.logrouter.core.template.RenderedPaths;
import dev.logrouter.core.template.Template;
import dev.logrouter.core.template.ValueEscaper;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The open files of a sink whose path template partitions its events (the file and HDFS sinks): rendered path → the
 * sink's file, least recently used first. An event's file is found without allocating ({@link RenderedPaths}); the
 * sink opens a path that is not here and {@link #put}s it. One key is reserved for the file that takes the lines
 * whose path the sink refuses ({@code invalid-path.log}).
 *
 * <p>Closing is the sink's: {@link #evictBeyond} and {@link #sweep} hand each file to the sink's completion and drop
 * it only once that returned, so a completion that fails leaves the file here to be tried again.
 *
 * <p>Threads: one sink's thread.
 *
 * @param <F> the sink's open-file type
 */
public final class OpenFiles<F> {

    /** Writes out and closes (or completes) one file; may fail, and is then tried again later. */
    @FunctionalInterface
    public interface Completion<F> {
        void complete(F file) throws IOException;
    }

    private final LinkedHashMap<PathKey, F> files = new LinkedHashMap<>(16, 0.75f, true);
    private final RenderedPaths<F> paths;
    private final PathKey invalidKey;

    /**
     * @param pathTemplate the sink's path template
     * @param escaper      how values are escaped into the path (they must stay one name)
     * @param invalidPath  the key of the file for refused paths (a rendered path equal to it shares that file)
     */
    public OpenFiles(Template pathTemplate, ValueEscaper escaper, byte[] invalidPath) {
        this.paths = new RenderedPaths<>(pathTemplate, escaper, files);
        this.invalidKey = new PathKey(invalidPath, invalidPath.length);
    }

    /**
     * The open file of the event's path, or null when it has none: then {@link #probe()} and {@link #rendered()}
     * name the path, and {@link #remember} makes the sink's new file the one returned for it.
     */
    public F find(LogEvent event) {
        return paths.find(event);
    }

    /**
     * As {@link #find(LogEvent)} for a path already rendered ({@code prefix} then {@code b[off, off + len)}), as a
     * journaled record holds it: no template is rendered.
     */
    public F find(byte[] prefix, byte[] b, int off, int len) {
        return paths.find(prefix, b, off, len);
    }

    /** The path {@link #find} did not find, valid until the next call ({@code copy()} it to keep it). */
    public PathKey probe() {
        return paths.probe();
    }

    /** The path {@link #find} just rendered, as text (cold path: opening a file). */
    public String rendered() {
        return paths.rendered();
    }

    /** Makes {@code file} the one returned while events keep the path just rendered. */
    public void remember(F file) {
        paths.remember(file);
    }

    /** The key of the file for refused paths. */
    public PathKey invalidKey() {
        return invalidKey;
    }

    /** The file for refused paths, or null while it is not open. */
    public F invalid() {
        return files.get(invalidKey);
    }

    /** Adds an opened file (the newest). */
    public void put(PathKey key, F file) {
        files.put(key, file);
    }

    /** Drops {@code file}, kept under {@code key}, without closing it. */
    public void remove(PathKey key, F file) {
        files.remove(key, file);
        paths.forget(file);
    }

    public int size() {
        return files.size();
    }

    /** The open files, least recently used first (a live view: remove nothing while iterating). */
    public Collection<F> values() {
        return files.values();
    }

    /**
     * Completes and drops the least recently used files while more than {@code limit} are open. A completion that
     * throws leaves its file open (one over the limit); the next call tries again.
     */
    public void evictBeyond(int limit, Completion<F> completion) throws IOException {
        while (files.size() > limit) {
            Map.Entry<PathKey, F> eldest = files.entrySet().iterator().next();
            completion.complete(eldest.getValue());
            remove(eldest.getKey(), eldest.getValue());
        }
    }

    /** Completes and drops every file {@code idle} selects; the first failing completion stops the sweep. */
    public void sweep(Predicate<F> idle, Completion<F> completion) throws IOException {
        List<Map.Entry<PathKey, F>> entries = new ArrayList<>(files.entrySet());
        for (Map.Entry<PathKey, F> e : entries) {
            if (idle.test(e.getValue())) {
                completion.complete(e.getValue());
                remove(e.getKey(), e.getValue());
            }
        }
    }

    /** Drops every file without closing it (after the sink closed them all). */
    public void clear() {
        for (F f : files.values()) {
            paths.forget(f);
        }
        files.clear();
    }
}
