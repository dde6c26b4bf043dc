package dev.logrouter.patterndb.ruleset;

import java.util.List;

/**
 * A {@code <ruleset>}: its program patterns (empty = the default program) and rules, in document order.
 *
 * <p>Threads: immutable.
 */
public record RulesetDef(String name, String id, List<PatternText> programPatterns, List<RuleDef> rules,
                         int line) {
}
