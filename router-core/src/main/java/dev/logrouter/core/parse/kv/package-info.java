/**
 * The {@code kv} message parser (syslog-ng kv-parser semantics): {@link dev.logrouter.core.parse.kv.KvScanner}
 * finds the pairs in the bytes, {@link dev.logrouter.core.parse.kv.KvFieldParser} writes them as fields. Runs in
 * the parse workers.
 */
package dev.logrouter.core.parse.kv;
