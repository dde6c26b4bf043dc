/**
 * syslog-ng style templates ({@code ${HOST}}, {@code ${ISODATE}}, fields by name, template functions
 * {@code $(format-json ...)} and {@code $(format-syslog-rfc5424)}), compiled once and rendered into reusable
 * byte buffers by sinks, parsers and rewrite rules; values substituted into file paths are neutralised by
 * {@link dev.logrouter.core.template.PathValueEscaper}.
 */
package dev.logrouter.core.template;
