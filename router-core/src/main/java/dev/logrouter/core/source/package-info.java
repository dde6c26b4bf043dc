/**
 * The lifecycle SPI of sources (implemented by router-netty): start, stop accepting, let connections
 * finish and wait until what was read is in the ring, forced close.
 */
package dev.logrouter.core.source;
