package dev.logrouter.sinks.hdfs;

import dev.logrouter.core.config.ComponentProvider;
import dev.logrouter.core.config.ComponentRegistry;

/**
 * The {@code type: hdfs} sink. Listed in {@code META-INF/services/dev.logrouter.core.config.ComponentProvider}.
 *
 * <p>Threads: stateless.
 */
public final class HdfsComponents implements ComponentProvider {

    @Override
    public int order() {
        return 60;
    }

    @Override
    public void register(ComponentRegistry registry) {
        registry.sink("hdfs", HdfsSinkConfig.class);
    }
}
