/**
 * Syslog header parsing: the first step a parse worker applies to an event.
 *
 * <pre>
 * Netty source ──raw frame, peer, format hint──▶ ring slot (LogEvent)
 *                                                   │
 *                               parse worker k: SyslogHeaderParser.parse(event)
 *                                 ├─ Rfc5424Parser   (syslog() sources, FORMAT_AUTO; falls back to RFC 3164)
 *                                 │    └─ StructuredDataParser ──▶ event.fields() (.SDATA.id.param)
 *                                 ├─ Rfc3164Parser   (network() sources, and the fallback)
 *                                 │    └─ SyslogTimestampScanner ──▶ StampResolver (zone, year guess)
 *                                 └─ ParseErrorMessage (syslog-ng's replacement message on hard errors)
 *                                                   │
 *                                                   ▼
 *                                  parser chain, PatternDB, sinks
 * </pre>
 *
 * <p>The behaviour follows syslog-ng 3.38 as observed and summarised in {@code syslog-conformance.md}. Every
 * field the parsers set is a span into the event's raw buffer except composed values (replacement message),
 * so a warm parser allocates nothing per message.
 */
package dev.logrouter.core.parse.syslog;
