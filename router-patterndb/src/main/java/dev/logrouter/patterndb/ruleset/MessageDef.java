package dev.logrouter.patterndb.ruleset;

import java.util.List;

/**
 * An action's {@code <message>}: how the generated message starts, then its tags and values in document
 * order.
 *
 * <p>Threads: immutable.
 */
public record MessageDef(InheritMode inheritMode, List<String> tags, List<ValueDef> values, int line) {
}
