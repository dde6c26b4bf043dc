/**
 * UDP source: one message per datagram, published on arrival; a datagram that finds the ring full is
 * dropped and counted, since UDP cannot push back.
 */
package dev.logrouter.netty.udp;
