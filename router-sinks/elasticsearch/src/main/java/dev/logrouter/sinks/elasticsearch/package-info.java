/**
 * Elasticsearch. The sink is {@link dev.logrouter.sinks.elasticsearch.ElasticsearchEncoder} (event → index name,
 * {@code _id} and document, on the sink's thread) and {@link dev.logrouter.sinks.elasticsearch.ElasticsearchDelivery}
 * (records → bulk requests on the official client), with the sink's batch ({@code buffer: memory}) or its journal
 * ({@code buffer: journal}, read by {@code deliver-<sink>}) between them:
 * <pre>
 *   sink-&lt;name&gt;: event → ElasticsearchEncoder → record
 *     memory:  → ElasticsearchDelivery (same thread) → bulk requests
 *     journal: → journal → deliver-&lt;name&gt;: ElasticsearchDelivery → bulk requests
 * </pre>
 * The delivery settles every document by its item in the bulk response: indexed, sent again (429, 5xx, a request
 * that failed as a whole), or dead-lettered (mapping and parse errors).
 */
package dev.logrouter.sinks.elasticsearch;
