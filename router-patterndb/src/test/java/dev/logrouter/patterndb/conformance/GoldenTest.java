package dev.logrouter.patterndb.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.patterndb.PdbEvents;
import dev.logrouter.patterndb.classify.Classifier;
import dev.logrouter.patterndb.classify.CompiledRule;
import dev.logrouter.patterndb.classify.PatternDb;
import dev.logrouter.patterndb.ruleset.PdbLoader;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The probe tables of the conformance corpus: {@code parsers-golden.json} (every parser and tree rule, 196
 * messages including misses) and {@code program-selection-golden.json} (ruleset selection by PROGRAM); each
 * message is classified and compared with the reference's rule and values.
 */
class GoldenTest {

    private static final Path CORPUS = Path.of("src/test/resources/corpus");
    private final ObjectMapper json = new ObjectMapper();
    private final List<String> warnings = new ArrayList<>();

    @Test
    void parsersGolden() throws Exception {
        PatternDb db = PatternDb.build(List.of(PdbLoader.load(CORPUS.resolve("conformance/parsers.xml"))),
                warnings::add);
        JsonNode golden = json.readTree(CORPUS.resolve("conformance/parsers-golden.json").toFile());
        String program = golden.get("program").asText();
        Classifier c = db.newClassifier();
        List<String> mismatches = new ArrayList<>();
        int checked = 0;
        for (JsonNode r : golden.get("results")) {
            String message = r.get("message").asText();
            LogEvent e = PdbEvents.message(program, message);
            CompiledRule rule = c.classify(e);
            String expectedRule = r.get("matched_rule").isNull() ? null : r.get("matched_rule").asText();
            String gotRule = rule == null ? null : rule.def().id();
            Map<String, String> expected = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = r.get("values").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> v = it.next();
                expected.put(v.getKey(), v.getValue().asText());
            }
            Map<String, String> got = new LinkedHashMap<>();
            Observed.all(e).forEach((k, v) -> {
                if (!k.startsWith(".classifier.") && !k.equals("TAGS") && !k.equals("MESSAGE")
                        && !k.equals("PROGRAM")) {
                    got.put(k, v);
                }
            });
            String where = r.get("case").asText() + " '" + message + "'";
            if (!java.util.Objects.equals(expectedRule, gotRule)) {
                mismatches.add(where + ": rule " + gotRule + ", expected " + expectedRule);
            } else if (!got.equals(expected)) {
                mismatches.add(where + ": values " + got + ", expected " + expected);
            } else if (!Observed.value(e, ".classifier.class").equals(r.get("class").asText())) {
                mismatches.add(where + ": class " + Observed.value(e, ".classifier.class"));
            } else if (!Observed.all(e).get("TAGS").equals(Observed.sortedTags(r.get("tags").asText()))) {
                mismatches.add(where + ": tags " + Observed.all(e).get("TAGS"));
            }
            checked++;
        }
        assertThat(checked).isEqualTo(196);
        assertThat(mismatches).isEmpty();
    }

    @Test
    void programSelectionGolden() throws Exception {
        Corpus.Loaded loaded = Corpus.load("conformance/program-selection.xml");
        PatternDb db = PatternDb.build(List.of(loaded.file()), warnings::add);
        JsonNode golden = json.readTree(CORPUS.resolve("conformance/program-selection-golden.json").toFile());
        List<String> probes = java.nio.file.Files.readAllLines(CORPUS.resolve("conformance/program-selection-probes.tsv"));
        Classifier c = db.newClassifier();
        List<String> mismatches = new ArrayList<>();
        int checked = 0;
        for (JsonNode r : golden.get("results")) {
            String program = r.get("program").asText();
            String message = r.get("message").asText();
            assertThat(probes).contains(program + "\t" + message);
            LogEvent e = PdbEvents.message(program, message);
            CompiledRule rule = c.classify(e);
            String expectedRule = r.get("rule_id").isNull() ? null : r.get("rule_id").asText();
            String gotRule = rule == null ? null : rule.def().id();
            Map<String, String> expected = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = r.get("values").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> v = it.next();
                expected.put(v.getKey(), v.getKey().equals("TAGS") ? Observed.sortedTags(v.getValue().asText())
                        : v.getValue().asText());
            }
            Map<String, String> got = Observed.all(e);
            if (!java.util.Objects.equals(expectedRule, gotRule) || !got.equals(expected)) {
                mismatches.add("'" + program + "' '" + message + "': " + gotRule + " " + got + ", expected "
                        + expectedRule + " " + expected);
            }
            checked++;
        }
        assertThat(checked).isEqualTo(probes.size() - 1);
        assertThat(mismatches).isEmpty();
    }
}
