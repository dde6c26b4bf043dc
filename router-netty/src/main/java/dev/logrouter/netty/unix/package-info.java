/**
 * Unix domain socket sources, for the host's own {@code /dev/log}: {@code unix-dgram} (one message per datagram) and
 * {@code unix-stream} (framed as TCP, a NUL also ending a message), on Netty's native epoll channels. Both read RFC 3164
 * headers without HOST ({@link dev.logrouter.core.event.LogEvent#FORMAT_NO_HOSTNAME}) and give HOST the local host
 * name, as syslog-ng's unix sources do; unix-stream sets each connection's peer credentials ({@code .unix.pid},
 * {@code .unix.uid}, {@code .unix.gid}).
 *
 * <pre>
 *  /dev/log ─datagram─▶ UnixDgramSource ───────────────────────────┐
 *  path ─connection─▶ UnixStreamSource: StreamConnections (decoder ─▶ TcpPublishHandler) ─┴─▶ RingPublisher ─▶ ring
 * </pre>
 */
package dev.logrouter.netty.unix;
