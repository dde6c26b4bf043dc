package dev.logrouter.core.util;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Resources that several components of one router share, one per type, created by the first that asks (e.g. the
 * Netty event loops every network source runs on) and closed together, last created first, by the owner.
 *
 * <p>Threads: thread-safe; components ask while the router is assembled, the owner closes on stop.
 */
public final class SharedResources implements AutoCloseable {

    private final Map<Class<?>, AutoCloseable> resources = new LinkedHashMap<>();
    private boolean closed;

    /** The resource of {@code type}, made by {@code create} on the first call; refused once closed. */
    public synchronized <T extends AutoCloseable> T get(Class<T> type, Supplier<T> create) {
        if (closed) {
            throw new IllegalStateException("shared resources already closed: no new " + type.getSimpleName());
        }
        return type.cast(resources.computeIfAbsent(type, t -> create.get()));
    }

    /** Closes every resource, last created first; the first failure is thrown after all were tried. Idempotent. */
    @Override
    public synchronized void close() {
        closed = true;
        List<AutoCloseable> all = new ArrayList<>(resources.values());
        resources.clear();
        RuntimeException failure = null;
        for (int i = all.size() - 1; i >= 0; i--) {
            try {
                all.get(i).close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("closing " + all.get(i).getClass().getSimpleName(), e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
