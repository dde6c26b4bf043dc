package dev.logrouter.patterndb.ruleset;

/**
 * When an action runs: after a matching message, or when the rule's context expires.
 *
 * <p>Threads: immutable.
 */
public enum Trigger {
    MATCH,
    TIMEOUT
}
