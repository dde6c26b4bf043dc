package dev.logrouter.patterndb.ruleset;

/**
 * An action's {@code <create-context>}: a context keyed by {@code contextId} (a template) in {@code scope},
 * seeded with the generated {@code message}. {@code timeout} is kept as written although the reference uses
 * the creating rule's timeout (spec 8.7, quirk 8).
 *
 * <p>Threads: immutable.
 */
public record CreateContextDef(String contextId, long timeout, Scope scope, MessageDef message, int line) {
}
