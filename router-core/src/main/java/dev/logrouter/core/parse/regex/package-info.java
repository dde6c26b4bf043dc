/**
 * The {@code regex} message parser (syslog-ng {@code regexp-parser()}): java.util.regex patterns compiled once,
 * named groups written as fields, backtracking bounded by a step budget. Runs in the parse workers:
 * {@code ring → parse worker [syslog header → parser chain (… regex …)] → sinks}.
 */
package dev.logrouter.core.parse.regex;
