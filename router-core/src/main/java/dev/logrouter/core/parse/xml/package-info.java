/**
 * The {@code xml} message parser (syslog-ng {@code xml()}): Aalto's non-blocking StAX reader, one per worker, with DTDs and
 * entities off,
 * element text and attributes flattened to dotted field names. Runs in the parse workers:
 * {@code ring → parse worker [syslog header → parser chain (… xml …)] → sinks}.
 */
package dev.logrouter.core.parse.xml;
