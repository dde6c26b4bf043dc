package dev.logrouter.sinks.kafka;

import dev.logrouter.core.config.ComponentProvider;
import dev.logrouter.core.config.ComponentRegistry;

/**
 * Kafka: the {@code type: kafka} source (a consumer group) and sink. Listed in {@code META-INF/services/dev.logrouter.core.config.ComponentProvider}.
 *
 * <p>Threads: stateless.
 */
public final class KafkaComponents implements ComponentProvider {

    @Override
    public int order() {
        return 40;
    }

    @Override
    public void register(ComponentRegistry registry) {
        registry.source("kafka", KafkaSourceConfig.class)
                .sink("kafka", KafkaSinkConfig.class);
    }
}
