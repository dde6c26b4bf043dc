package dev.logrouter.sinks.kafka;

/**
 * Records of a Kafka sink's batch were not acknowledged and are kept to be sent again: thrown from
 * {@link KafkaDelivery#flush()} so that the sink handler backs off and retries.
 *
 * <p>Threads: the sink's thread.
 */
final class KafkaDeliveryException extends Exception {

    KafkaDeliveryException(String message, Throwable cause) {
        super(message, cause);
    }
}
