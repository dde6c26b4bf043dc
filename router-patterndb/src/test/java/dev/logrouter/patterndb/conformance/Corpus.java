package dev.logrouter.patterndb.conformance;

import dev.logrouter.core.template.Template;
import dev.logrouter.patterndb.ruleset.PatternDbFile;
import dev.logrouter.patterndb.ruleset.PdbLoader;
import dev.logrouter.patterndb.ruleset.RuleDef;
import dev.logrouter.patterndb.ruleset.RulesetDef;
import dev.logrouter.patterndb.ruleset.ValueDef;

import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Loads corpus files for the conformance tests. Rule values whose template uses a template function that
 * router-core does not have yet ({@code $(if)} in program-selection.xml) are dropped and remembered, so that
 * the tests can leave exactly those names out of their comparison; once the function exists nothing is dropped
 * and the comparison is complete.
 */
final class Corpus {

    static final Path ROOT = Path.of("src/test/resources/corpus");

    /** A loaded file, and the value names dropped per rule id. */
    record Loaded(PatternDbFile file, Map<String, Set<String>> dropped) {
        Set<String> droppedFor(String ruleId) {
            return dropped.getOrDefault(ruleId, Set.of());
        }
    }

    private Corpus() {
    }

    static Loaded load(String relative) throws Exception {
        PatternDbFile f = PdbLoader.load(ROOT.resolve(relative));
        Map<String, Set<String>> dropped = new HashMap<>();
        List<RulesetDef> rulesets = new ArrayList<>();
        for (RulesetDef rs : f.rulesets()) {
            List<RuleDef> rules = new ArrayList<>();
            for (RuleDef r : rs.rules()) {
                List<ValueDef> kept = new ArrayList<>();
                for (ValueDef v : r.values()) {
                    try {
                        Template.compile(v.template(), ZoneOffset.UTC);
                        kept.add(v);
                    } catch (IllegalArgumentException e) {
                        dropped.computeIfAbsent(r.id(), k -> new HashSet<>()).add(v.name());
                    }
                }
                rules.add(new RuleDef(r.id(), r.ruleClass(), r.provider(), r.contextId(), r.contextTimeout(),
                        r.contextScope(), r.patterns(), r.tags(), kept, r.actions(), r.examples(), r.line()));
            }
            rulesets.add(new RulesetDef(rs.name(), rs.id(), rs.programPatterns(), rules, rs.line()));
        }
        return new Loaded(new PatternDbFile(f.source(), f.version(), f.pubDate(), rulesets, f.warnings()), dropped);
    }
}
