package dev.logrouter.patterndb.ruleset;

/**
 * An example's {@code <test_value name="N">V</test_value>}; {@code type} is the v6 type hint or null.
 *
 * <p>Threads: immutable.
 */
public record TestValue(String name, String value, String type) {
}
