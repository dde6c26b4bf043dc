/**
 * syslog-ng style templates ({@code ${HOST}}, {@code ${ISODATE}}, fields by name), compiled once and
 * rendered into reusable byte buffers by sinks; values substituted into file paths are neutralised by
 * {@link dev.logrouter.core.template.PathValueEscaper}.
 */
package dev.logrouter.core.template;
