package dev.logrouter.patterndb.classify;

import dev.logrouter.patterndb.ruleset.PatternDbFile;
import dev.logrouter.patterndb.ruleset.PatternText;
import dev.logrouter.patterndb.ruleset.RuleDef;
import dev.logrouter.patterndb.ruleset.RulesetDef;
import dev.logrouter.patterndb.ruleset.Scope;
import dev.logrouter.patterndb.ruleset.ValueDef;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Test helper: model records built in code (as the loader would produce them). */
final class Rules {

    private Rules() {
    }

    static RuleDef rule(String id, String cls, List<String> patterns, List<String> tags, String... values) {
        return rule(id, cls, null, patterns, tags, values);
    }

    /** {@code values} alternate name, template. */
    static RuleDef rule(String id, String cls, String contextId, List<String> patterns, List<String> tags,
                        String... values) {
        List<ValueDef> vs = new ArrayList<>();
        for (int i = 0; i < values.length; i += 2) {
            vs.add(new ValueDef(values[i], values[i + 1], null, 1));
        }
        return new RuleDef(id, cls, null, contextId, 0, Scope.PROCESS, texts(patterns), tags, vs, List.of(),
                List.of(), 1);
    }

    static RulesetDef ruleset(List<String> programs, RuleDef... rules) {
        return new RulesetDef("rs", "rs", texts(programs), Arrays.asList(rules), 1);
    }

    static PatternDbFile file(RulesetDef... rulesets) {
        return new PatternDbFile("test.xml", 4, null, Arrays.asList(rulesets), List.of());
    }

    static List<PatternText> texts(List<String> s) {
        List<PatternText> out = new ArrayList<>();
        for (String t : s) {
            out.add(new PatternText(t, 1));
        }
        return out;
    }
}
