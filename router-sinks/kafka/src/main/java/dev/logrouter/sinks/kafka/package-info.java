/**
 * Kafka both ways. {@link dev.logrouter.sinks.kafka.KafkaSink} writes events as records and counts one as written
 * only when the broker acknowledged it; {@link dev.logrouter.sinks.kafka.KafkaSource} reads topics in a consumer
 * group and commits offsets only for records every selected sink has flushed, which is how several routers share
 * the work behind Kafka (edge routers write, a group of routers reads and indexes onward).
 */
package dev.logrouter.sinks.kafka;
