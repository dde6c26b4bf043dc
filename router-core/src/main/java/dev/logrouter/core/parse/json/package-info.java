/**
 * The {@code json} message parser (syslog-ng json-parser semantics) on Jackson's streaming parser:
 * {@link dev.logrouter.core.parse.json.JsonFieldParser} flattens one object into fields,
 * {@link dev.logrouter.core.parse.json.FixedDecimal} prints fractional numbers as C's {@code %f}. Runs in the parse
 * workers.
 */
package dev.logrouter.core.parse.json;
