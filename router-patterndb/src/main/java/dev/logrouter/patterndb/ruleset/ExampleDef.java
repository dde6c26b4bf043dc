package dev.logrouter.patterndb.ruleset;

import java.util.List;

/**
 * An {@code <example>}: the last {@code <test_message>}'s {@code program} attribute (null when absent; the
 * example is then not testable) and text (null when there was none), and the expected values.
 *
 * <p>Threads: immutable.
 */
public record ExampleDef(String program, String message, List<TestValue> testValues, int line) {

    /** pdbtool tests an example only when its test message has a {@code program} attribute. */
    public boolean testable() {
        return program != null && message != null;
    }
}
