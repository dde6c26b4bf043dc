/**
 * The {@code csv} message parser (syslog-ng {@code csv-parser()}): a zero-allocation byte scanner that writes
 * named columns. Runs in the parse workers:
 * {@code ring → parse worker [syslog header → parser chain (… csv …)] → sinks}.
 */
package dev.logrouter.core.parse.csv;
