package dev.logrouter.patterndb.correlate;

import dev.logrouter.patterndb.ruleset.ActionDef;
import dev.logrouter.patterndb.ruleset.RuleDef;

/**
 * An {@code <action>} compiled at load time: condition filter, message templates, tags, create-context
 * template. STUB (the correlator's author completes it).
 *
 * <p>Threads: immutable prototypes; the correlation thread renders with its own copies.
 */
public final class CompiledAction {

    private final ActionDef def;

    private CompiledAction(ActionDef def) {
        this.def = def;
    }

    /**
     * Compiles {@code def} of {@code rule}. Throws {@link IllegalArgumentException} with a message naming what
     * is wrong when a template or the condition does not compile (the loader rejects the file).
     */
    public static CompiledAction compile(ActionDef def, RuleDef rule) {
        return new CompiledAction(def);
    }

    public ActionDef def() {
        return def;
    }
}
