/**
 * The relay sink, {@code type: syslog}: forwards events to other syslog servers over TCP, TLS, UDP or RELP (plain or
 * over TLS), with failover or round-robin over a host list.
 *
 * <pre>
 *  sink thread: event ─▶ {@link dev.logrouter.netty.relay.SyslogEncoder} (rfc5424 | rfc3164 | raw; octet-counted | lf)
 *               ─▶ ({@code buffer: journal}: the sink's journal ─▶ thread deliver-&lt;sink&gt;)
 *               ─▶ {@link dev.logrouter.netty.relay.SyslogDelivery}: batch buffer ─▶ flush picks a host
 *               ({@link dev.logrouter.netty.relay.RelayHost}) ─▶ one write per batch ─▶ wait until written
 *  relay event loop ({@link dev.logrouter.netty.relay.RelayConnector}): connect, TLS handshake, socket writes
 *               RELP: {@link dev.logrouter.netty.relay.RelpClientHandler} per connection: open, syslog commands
 *               within the window, answers matched in order ─▶ the flush waiting on the delivery thread returns
 *               once every message was answered 200
 * </pre>
 *
 * It lives in router-netty rather than a module of its own under router-sinks: its client library is Netty, and it
 * shares the module's event-loop setup (epoll or NIO), TLS material handling and the sources its tests receive with.
 */
package dev.logrouter.netty.relay;
