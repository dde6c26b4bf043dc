/**
 * Kafka both ways. The sink is {@link dev.logrouter.sinks.kafka.KafkaEncoder} (event → record bytes) and
 * {@link dev.logrouter.sinks.kafka.KafkaDelivery} (records → producer), with the sink's batch or its journal between
 * them; a record counts as written only when the broker acknowledged it (or, journaled, once in the journal); {@link dev.logrouter.sinks.kafka.KafkaSource} reads topics in a consumer
 * group and commits offsets only for records every selected sink has flushed, which is how several routers share
 * the work behind Kafka (edge routers write, a group of routers reads and indexes onward).
 */
package dev.logrouter.sinks.kafka;
