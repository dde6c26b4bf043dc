/**
 * PROXY protocol (HAProxy's, v1 text and v2 binary) in front of a stream source ({@code proxy-protocol: true}): a load
 * balancer in TCP mode writes one header before the connection's own bytes, naming the sender it accepted the
 * connection from; the source takes that address as the connection's {@link dev.logrouter.netty.Peer} (SOURCEIP,
 * and HOST when a message names none).
 *
 * <pre>
 *  socket ─▶ ProxyHeaderDecoder ─▶ ProxyPeerHandler ─▶ [TLS] ─▶ frame decoder ─▶ publish
 *            (first bytes must be       (header → Peer;
 *             a PROXY signature;         both remove themselves once it is read)
 *             bounded header; else
 *             closed, proxyErrors)
 * </pre>
 */
package dev.logrouter.netty.proxy;
