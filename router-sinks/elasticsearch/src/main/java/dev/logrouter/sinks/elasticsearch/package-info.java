/**
 * Elasticsearch. {@link dev.logrouter.sinks.elasticsearch.ElasticsearchSink} writes events as documents in bulk
 * requests on the official client and settles every document by its item in the bulk response: indexed, sent
 * again (429, 5xx, a request that failed as a whole), or dead-lettered (mapping and parse errors).
 */
package dev.logrouter.sinks.elasticsearch;
