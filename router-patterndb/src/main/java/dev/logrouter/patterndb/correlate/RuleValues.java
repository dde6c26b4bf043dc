package dev.logrouter.patterndb.correlate;

import dev.logrouter.core.template.Template;
import dev.logrouter.patterndb.ruleset.RuleDef;
import dev.logrouter.patterndb.ruleset.ValueDef;

import java.time.ZoneId;
import java.util.List;

/**
 * The templates of a correlating rule that the correlator evaluates: its {@code context-id} (on the matching message
 * alone, only needed when the classifier has not stored {@code .classifier.context_id}) and its {@code <values>}
 * (over the context, spec 9.2), compiled for one thread.
 *
 * <p>Threads: belongs to the correlation thread.
 */
final class RuleValues {

    final Template contextId;
    final ValueTarget[] targets;
    final Template[] values;

    private RuleValues(Template contextId, ValueTarget[] targets, Template[] values) {
        this.contextId = contextId;
        this.targets = targets;
        this.values = values;
    }

    /** Compiles the rule's templates; a template that does not compile throws {@link IllegalArgumentException}. */
    static RuleValues compile(RuleDef rule, ZoneId zone) {
        String where = "rule '" + rule.id() + "' (line " + rule.line() + ")";
        Template id = rule.contextId() == null ? null
                : CompiledMessage.compileTemplate(rule.contextId(), zone, where + ", context-id");
        List<ValueDef> vs = rule.values() == null ? List.of() : rule.values();
        ValueTarget[] targets = new ValueTarget[vs.size()];
        Template[] values = new Template[vs.size()];
        for (int i = 0; i < values.length; i++) {
            ValueDef v = vs.get(i);
            targets[i] = ValueTarget.of(v.name());
            values[i] = CompiledMessage.compileTemplate(v.template(), zone,
                    where + ", value '" + v.name() + "' (line " + v.line() + ")");
        }
        return new RuleValues(id, targets, values);
    }
}
