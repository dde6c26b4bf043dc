/**
 * The parser SPI of the parse stage; {@code parse.syslog} holds the RFC 3164 / RFC 5424 header parsers.
 */
package dev.logrouter.core.parse;
