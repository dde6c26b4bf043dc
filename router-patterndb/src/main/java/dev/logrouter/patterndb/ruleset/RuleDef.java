package dev.logrouter.patterndb.ruleset;

import java.util.List;

/**
 * A {@code <rule>} as loaded: {@code ruleClass} null = none given ({@code system} applies), {@code contextId}
 * null = the rule does not correlate, {@code contextTimeout} seconds (default 0), {@code contextScope}
 * (default PROCESS; also the scope of the rule's rate-limit buckets). Patterns, tags, values, actions and
 * examples in document order.
 *
 * <p>Threads: immutable.
 */
public record RuleDef(String id, String ruleClass, String provider, String contextId, long contextTimeout,
                      Scope contextScope, List<PatternText> patterns, List<String> tags, List<ValueDef> values,
                      List<ActionDef> actions, List<ExampleDef> examples, int line) {

    /** The class that classification writes: the rule's, or {@code system}. */
    public String effectiveClass() {
        return ruleClass == null ? "system" : ruleClass;
    }
}
