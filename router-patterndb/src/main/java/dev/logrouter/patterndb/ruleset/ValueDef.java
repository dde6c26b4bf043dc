package dev.logrouter.patterndb.ruleset;

/**
 * A {@code <value name="N">TEMPLATE</value>} of a rule or of an action message; {@code type} is the v6 type
 * hint or null.
 *
 * <p>Threads: immutable.
 */
public record ValueDef(String name, String template, String type, int line) {
}
