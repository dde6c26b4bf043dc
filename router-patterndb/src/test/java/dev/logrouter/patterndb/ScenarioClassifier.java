package dev.logrouter.patterndb;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Template;
import dev.logrouter.patterndb.classify.CompiledRule;
import dev.logrouter.patterndb.correlate.CompiledAction;
import dev.logrouter.patterndb.ruleset.ActionDef;
import dev.logrouter.patterndb.ruleset.PatternDbFile;
import dev.logrouter.patterndb.ruleset.PatternText;
import dev.logrouter.patterndb.ruleset.RuleDef;
import dev.logrouter.patterndb.ruleset.RulesetDef;
import dev.logrouter.patterndb.ruleset.ValueDef;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A deliberately small stand-in for the classifier, enough for the correlation scenarios of the corpus (literal
 * text, {@code @STRING@} and {@code @NUMBER@}, whole-message matches, program patterns by prefix): it writes what
 * spec 7 says a classification writes, so that the correlation engine can be checked against the reference output
 * on its own. It is not the classifier ({@code classify.Classifier}).
 */
final class ScenarioClassifier {

    private record Entry(List<String> programs, Pattern pattern, List<String> names, CompiledRule rule,
                         Template contextId, List<Template> values) {
    }

    private final List<Entry> entries = new ArrayList<>();
    private final ByteBuilder scratch = new ByteBuilder(64);

    ScenarioClassifier(PatternDbFile file) {
        int index = 0;
        for (RulesetDef rs : file.rulesets()) {
            List<String> programs = rs.programPatterns().stream().map(PatternText::text).toList();
            for (RuleDef r : rs.rules()) {
                List<CompiledAction> actions = new ArrayList<>();
                for (ActionDef a : r.actions()) {
                    actions.add(CompiledAction.compile(a, r, ZoneOffset.UTC));
                }
                CompiledRule rule = new CompiledRule(r, index++, actions);
                List<Template> values = new ArrayList<>();
                for (ValueDef v : r.values()) {
                    values.add(Template.compile(v.template(), ZoneOffset.UTC));
                }
                Template id = r.contextId() == null ? null : Template.compile(r.contextId(), ZoneOffset.UTC);
                for (PatternText p : r.patterns()) {
                    List<String> names = new ArrayList<>();
                    entries.add(new Entry(programs, regex(p.text(), names), names, rule, id, values));
                }
            }
        }
    }

    private static Pattern regex(String pattern, List<String> names) {
        StringBuilder re = new StringBuilder();
        Matcher m = Pattern.compile("@(STRING|NUMBER):([^:@]*)@").matcher(pattern);
        int at = 0;
        while (m.find()) {
            re.append(Pattern.quote(pattern.substring(at, m.start())));
            re.append(m.group(1).equals("STRING") ? "([A-Za-z0-9]+)" : "(-?[0-9]+)");
            names.add(m.group(2));
            at = m.end();
        }
        re.append(Pattern.quote(pattern.substring(at)));
        return Pattern.compile(re.toString());
    }

    CompiledRule classify(LogEvent e) {
        String program = text(e, LogEvent.PROGRAM);
        String message = text(e, LogEvent.MSG);
        for (Entry en : entries) {
            if (!en.programs().isEmpty() && en.programs().stream().noneMatch(program::startsWith)) {
                continue;
            }
            Matcher m = en.pattern().matcher(message);
            if (!m.matches()) {
                continue;
            }
            RuleDef r = en.rule().def();
            e.fields().set(".classifier.class", r.effectiveClass());
            e.fields().set(".classifier.rule_id", r.id());
            for (int i = 0; i < en.names().size(); i++) {
                e.fields().set(en.names().get(i), m.group(i + 1));
            }
            e.addTag(Tags.id(".classifier." + r.effectiveClass()));
            for (String t : r.tags()) {
                e.addTag(Tags.id(t));
            }
            if (en.contextId() != null) {
                e.fields().set(".classifier.context_id", render(en.contextId(), e));
            } else {
                for (int i = 0; i < r.values().size(); i++) {
                    e.fields().set(r.values().get(i).name(), render(en.values().get(i), e));
                }
            }
            return en.rule();
        }
        e.fields().set(".classifier.class", "unknown");
        e.addTag(Tags.id(".classifier.unknown"));
        return null;
    }

    private String render(Template t, LogEvent e) {
        scratch.reset();
        t.render(e, scratch);
        return scratch.toString();
    }

    private static String text(LogEvent e, int f) {
        return new String(e.fieldArray(f), e.fieldOffset(f), e.fieldLength(f), StandardCharsets.UTF_8);
    }
}
