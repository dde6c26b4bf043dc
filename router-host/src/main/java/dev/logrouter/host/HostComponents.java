package dev.logrouter.host;

import dev.logrouter.core.config.ComponentProvider;
import dev.logrouter.core.config.ComponentRegistry;

/**
 * The host's own logs: {@code type: file} (files tailed through rotation, with checkpoints). Listed in
 * {@code META-INF/services/dev.logrouter.core.config.ComponentProvider}.
 *
 * <p>Threads: stateless.
 */
public final class HostComponents implements ComponentProvider {

    @Override
    public int order() {
        return 15;
    }

    @Override
    public void register(ComponentRegistry registry) {
        // the source types of this module register here
    }
}
