package dev.logrouter.patterndb.correlate;

import dev.logrouter.core.event.EventField;
import dev.logrouter.patterndb.classify.CompiledRule;
import dev.logrouter.core.template.Template;


/**
 * The {@code <values>} of a correlating rule, which the correlator evaluates over the context (spec 9.2): the
 * correlation thread's copies of the templates the rule compiled at load time, and where each value goes.
 *
 * <p>Threads: belongs to the correlation thread.
 */
final class RuleValues {

    final EventField[] targets;
    final Template[] values;

    private RuleValues(EventField[] targets, Template[] values) {
        this.targets = targets;
        this.values = values;
    }

    /** This thread's copies of the templates {@code rule} compiled at load time. */
    static RuleValues of(CompiledRule rule) {
        int n = rule.valueCount();
        EventField[] targets = new EventField[n];
        Template[] values = new Template[n];
        for (int i = 0; i < n; i++) {
            targets[i] = rule.valueField(i);
            values[i] = rule.valueTemplate(i).copy();
        }
        return new RuleValues(targets, values);
    }
}
