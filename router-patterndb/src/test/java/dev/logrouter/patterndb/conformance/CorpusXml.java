package dev.logrouter.patterndb.conformance;

import dev.logrouter.patterndb.ruleset.ExampleDef;
import dev.logrouter.patterndb.ruleset.PatternDbFile;
import dev.logrouter.patterndb.ruleset.PatternText;
import dev.logrouter.patterndb.ruleset.RuleDef;
import dev.logrouter.patterndb.ruleset.RulesetDef;
import dev.logrouter.patterndb.ruleset.Scope;
import dev.logrouter.patterndb.ruleset.TestValue;
import dev.logrouter.patterndb.ruleset.ValueDef;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Test-only stand-in for the XML loader (being written on another branch): reads the parts of a patterndb v3/v4
 * file that classification needs (rulesets, program patterns, rules with patterns, tags, values, context-id,
 * examples) with the JDK's DOM parser, text not trimmed. No validation and no actions: only for the corpus files
 * the reference loads. Replace with {@code PdbLoader.load} once it is merged.
 */
final class CorpusXml {

    private CorpusXml() {
    }

    static PatternDbFile load(Path path) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setCoalescing(true);
        Element root = f.newDocumentBuilder().parse(path.toFile()).getDocumentElement();
        List<RulesetDef> rulesets = new ArrayList<>();
        for (Element rs : children(root, "ruleset")) {
            List<PatternText> programs = new ArrayList<>();
            for (Element p : patterns(rs)) {
                programs.add(new PatternText(p.getTextContent(), 0));
            }
            List<RuleDef> rules = new ArrayList<>();
            for (Element rsRules : children(rs, "rules")) {
                for (Element r : children(rsRules, "rule")) {
                    rules.add(rule(r));
                }
            }
            rulesets.add(new RulesetDef(rs.getAttribute("name"), rs.getAttribute("id"), programs, rules, 0));
        }
        return new PatternDbFile(path.toString(), 4, null, rulesets, List.of());
    }

    private static RuleDef rule(Element r) {
        List<PatternText> patterns = new ArrayList<>();
        for (Element p : patterns(r)) {
            patterns.add(new PatternText(p.getTextContent(), 0));
        }
        List<String> tags = new ArrayList<>();
        for (Element ts : ruleChildren(r, "tags")) {
            for (Element t : children(ts, "tag")) {
                tags.add(t.getTextContent());
            }
        }
        List<ValueDef> values = new ArrayList<>();
        for (Element vs : ruleChildren(r, "values")) {
            for (Element v : children(vs, "value")) {
                values.add(new ValueDef(v.getAttribute("name"), v.getTextContent(), null, 0));
            }
        }
        List<ExampleDef> examples = new ArrayList<>();
        for (Element es : ruleChildren(r, "examples")) {
            for (Element ex : children(es, "example")) {
                String program = null;
                String message = null;
                for (Element m : children(ex, "test_message")) {
                    program = m.hasAttribute("program") ? m.getAttribute("program") : null;
                    message = m.getTextContent();
                }
                List<TestValue> tvs = new ArrayList<>();
                for (Element tv : children(ex, "test_values")) {
                    for (Element v : children(tv, "test_value")) {
                        tvs.add(new TestValue(v.getAttribute("name"), v.getTextContent(), null));
                    }
                }
                examples.add(new ExampleDef(program, message, tvs, 0));
            }
        }
        String cls = r.hasAttribute("class") ? r.getAttribute("class") : null;
        String ctx = r.hasAttribute("context-id") ? r.getAttribute("context-id") : null;
        return new RuleDef(r.getAttribute("id"), cls, r.getAttribute("provider"), ctx, 0, Scope.PROCESS, patterns,
                tags, values, List.of(), examples, 0);
    }

    /** Elements {@code name} directly under the rule or under its {@code <patterns>} (the reference takes both). */
    private static List<Element> ruleChildren(Element rule, String name) {
        List<Element> out = new ArrayList<>(children(rule, name));
        for (Element ps : children(rule, "patterns")) {
            out.addAll(children(ps, name));
        }
        return out;
    }

    /** {@code <pattern>} children, directly or inside {@code <patterns>}, in document order. */
    private static List<Element> patterns(Element parent) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                if (e.getTagName().equals("pattern")) {
                    out.add(e);
                } else if (e.getTagName().equals("patterns")) {
                    out.addAll(children(e, "pattern"));
                }
            }
        }
        return out;
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                out.add(e);
            }
        }
        return out;
    }
}
