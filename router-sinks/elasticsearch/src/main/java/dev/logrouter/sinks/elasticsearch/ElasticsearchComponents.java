package dev.logrouter.sinks.elasticsearch;

import dev.logrouter.core.config.ComponentProvider;
import dev.logrouter.core.config.ComponentRegistry;

/**
 * The {@code type: elasticsearch} sink. Listed in {@code META-INF/services/dev.logrouter.core.config.ComponentProvider}.
 *
 * <p>Threads: stateless.
 */
public final class ElasticsearchComponents implements ComponentProvider {

    @Override
    public int order() {
        return 50;
    }

    @Override
    public void register(ComponentRegistry registry) {
        registry.sink("elasticsearch", ElasticsearchSinkConfig.class);
    }
}
