package dev.logrouter.core.filter;

/**
 * Tests a byte range (a UTF-8 value of a message) against one pattern.
 *
 * <p>Threads: an instance may keep scratch state and belongs to one thread unless its class says otherwise.
 */
interface ByteMatcher {

    /** True when {@code value[offset, offset + length)} matches. Never throws on any content. */
    boolean matches(byte[] value, int offset, int length);
}
