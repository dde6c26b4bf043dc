package dev.logrouter.patterndb.classify;

import dev.logrouter.patterndb.correlate.CompiledAction;
import dev.logrouter.patterndb.ruleset.RuleDef;

import java.util.List;

/**
 * A rule of a built {@link PatternDb}: its definition and what was compiled from it at load time.
 * STUB (interface agreed between the classifier and the correlator; the classifier's author completes it).
 *
 * <p>Threads: immutable; shared by every thread. Templates it holds are prototypes: each thread renders
 * with its own {@code Template.copy()}.
 */
public final class CompiledRule {

    private final RuleDef def;
    private final int index;
    private final List<CompiledAction> actions;

    public CompiledRule(RuleDef def, int index, List<CompiledAction> actions) {
        this.def = def;
        this.index = index;
        this.actions = List.copyOf(actions);
    }

    /** The rule as loaded. */
    public RuleDef def() {
        return def;
    }

    /** Position of the rule in {@link PatternDb#rules()} (dense, 0-based). */
    public int index() {
        return index;
    }

    /** True when the rule has a {@code context-id}. */
    public boolean correlates() {
        return def.contextId() != null;
    }

    /** The rule's actions in document order, compiled. */
    public List<CompiledAction> actions() {
        return actions;
    }

    /** True when the correlation stage must see messages this rule matched (context-id or any action). */
    public boolean needsCorrelation() {
        return correlates() || !actions.isEmpty();
    }
}
