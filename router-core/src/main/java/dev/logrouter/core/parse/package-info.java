/**
 * The parser SPI of the parse stage: {@link dev.logrouter.core.parse.EventParser} (one step, one worker),
 * {@link dev.logrouter.core.parse.ParserConfig} (a step's YAML record; the types are registered by {@link dev.logrouter.core.config.CoreComponents}),
 * and {@link dev.logrouter.core.parse.FieldParser}, the base of the message parsers with transactional output.
 * {@code parse.syslog} holds the RFC 3164 / RFC 5424 header parsers; {@code parse.json}, {@code .kv},
 * {@code .xml}, {@code .csv}, {@code .regex} the message parsers.
 */
package dev.logrouter.core.parse;
