package dev.logrouter.core.parse;

import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * Configuration of one step of a parser chain ({@code parsers:} and {@code rewrites:} in YAML). The
 * {@code type} key selects the record (registered by a {@link dev.logrouter.core.config.ComponentProvider}); each record builds the step it configures.
 *
 * <p>Threads: immutable; {@link #create} is called on the configuring thread, once per parse worker.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
public interface ParserConfig {

    /** The step's name for its counters ({@code type=Parser,name=...}); null = {@code <chain>.<type>}. */
    String name();

    /**
     * Builds one instance of the step for one parse worker (instances keep scratch state and are never
     * shared between threads). Throws {@link IllegalArgumentException} with a message an operator can act
     * on when the options are inconsistent (a bad regex, an unknown column).
     */
    EventParser create(ParseContext ctx);
}
