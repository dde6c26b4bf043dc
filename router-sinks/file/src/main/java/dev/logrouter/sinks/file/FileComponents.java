package dev.logrouter.sinks.file;

import dev.logrouter.core.config.ComponentProvider;
import dev.logrouter.core.config.ComponentRegistry;

/**
 * The {@code type: file} sink. Listed in {@code META-INF/services/dev.logrouter.core.config.ComponentProvider}.
 *
 * <p>Threads: stateless.
 */
public final class FileComponents implements ComponentProvider {

    @Override
    public int order() {
        return 30;
    }

    @Override
    public void register(ComponentRegistry registry) {
        registry.sink("file", FileSinkConfig.class);
    }
}
