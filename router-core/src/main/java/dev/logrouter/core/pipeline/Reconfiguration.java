package dev.logrouter.core.pipeline;

import dev.logrouter.core.parse.EventParser;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a reload changes in the running stages, carried through the ring by one control carrier
 * ({@link Pipeline#reconfigure}): every stage applies it when it reaches the carrier, so the change falls between two
 * messages for all of them at once — the messages before the carrier were parsed, routed and delivered by the old
 * configuration, the messages after it by the new one, whatever parse worker or sink handles them.
 *
 * <ul>
 *   <li>each parse worker takes its new parser (header parsing and the new routes: filters, parser and rewrite
 *       chains, PatternDB steps);</li>
 *   <li>the serial stage (PatternDB correlation) takes the new routing of the messages it generates;</li>
 *   <li>a removed sink flushes and closes (its handler then stops; the messages after the carrier do not select
 *       it);</li>
 *   <li>a replaced sink (same name, new options) flushes and closes its old instance and starts the new one on the
 *       same thread, keeping its place in the ring and its counters (a journaled sink reopens its journal, backlog
 *       included).</li>
 * </ul>
 * Added sinks are not in here: their handlers join the ring before the carrier is published, and only the
 * messages after it can select them.
 *
 * <p>Threads: built by the reloading thread; read by the stage threads after the carrier's publication (the ring's
 * sequence publication orders their reads after its construction); immutable.
 *
 * @param parsers     the new parser of each parse worker, by ordinal (one per worker)
 * @param serialRouting the new routing of the serial stage's generated messages, or null when there is no serial stage
 * @param replacedSinks the new binding of each sink whose options changed, by sink name
 * @param removedSinks the names of the sinks that stop
 */
public record Reconfiguration(List<EventParser> parsers, EventParser serialRouting,
                              Map<String, SinkBinding> replacedSinks, Set<String> removedSinks) {

    public Reconfiguration {
        parsers = List.copyOf(parsers);
        replacedSinks = Map.copyOf(replacedSinks);
        removedSinks = Set.copyOf(removedSinks);
    }
}
