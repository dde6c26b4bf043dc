package dev.logrouter.netty.tcp;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The {@code framing:} option of a TCP source.
 *
 * <p>Threads: immutable.
 */
public enum Framing {
    /** Decide per connection from the first byte: a digit means octet counting, else LF. */
    auto,
    /** RFC 6587 octet counting only. */
    @JsonProperty("octet-counted") octetCounted,
    /** LF framing only. */
    lf
}
