package dev.logrouter.patterndb.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.patterndb.PdbEvents;
import dev.logrouter.patterndb.classify.Classifier;
import dev.logrouter.patterndb.classify.CompiledRule;
import dev.logrouter.patterndb.classify.PatternDb;
import dev.logrouter.patterndb.ruleset.ExampleDef;
import dev.logrouter.patterndb.ruleset.RuleDef;
import dev.logrouter.patterndb.ruleset.RulesetDef;
import dev.logrouter.patterndb.ruleset.TestValue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every testable {@code <example>} of the corpus run {@code pdbtool test}-style (spec 10.2, corpus README
 * "Using it" 1): per file, examples in reverse document order against one database; PROGRAM set only when
 * non-empty; an example passes when {@code .classifier.rule_id} is its rule's id and every test value equals
 * (unset = ""). The pass/fail of every example must equal the reference's ({@code results/*.json}
 * {@code reference_pass}), so the per-file pass counts equal REFERENCE-RESULTS.md. Stricter: every name-value
 * pair and the tags must equal the reference's {@code reference_values}, except for examples matched by a
 * correlating rule (their values are evaluated over the context by the correlator, which is not part of
 * classification).
 */
class CorpusExamplesTest {

    private final ObjectMapper json = new ObjectMapper();

    static Stream<String> files() throws Exception {
        List<String> files = new ArrayList<>();
        try (Stream<java.nio.file.Path> s = Files.walk(Corpus.ROOT.resolve("balabit-syslog-ng-patterndb"))) {
            s.filter(p -> p.toString().endsWith(".xml") || p.toString().endsWith(".pdb"))
                    .map(p -> Corpus.ROOT.relativize(p).toString()).sorted().forEach(files::add);
        }
        files.add("conformance/parsers.xml");
        files.add("conformance/program-selection.xml");
        files.add("derived/mcholste-elsa/node/conf/patterndb.fixed.xml");
        files.add("derived/merged/balabit-all-merged.xml");
        // the loader cases the reference loads (pattern errors skip patterns, duplicates, whitespace, ...)
        ObjectMapper json = new ObjectMapper();
        try (Stream<java.nio.file.Path> s = Files.list(Corpus.ROOT.resolve("conformance/loader"))) {
            for (java.nio.file.Path p : s.filter(p -> p.toString().endsWith(".xml")).sorted().toList()) {
                String rel = Corpus.ROOT.relativize(p).toString();
                JsonNode summary = json.readTree(Corpus.ROOT.resolve("results/" + rel.replace("/", "__") + ".json")
                        .toFile()).get("summary");
                if (summary.get("load_error").isNull()) {
                    files.add(rel);
                }
            }
        }
        return files.stream();
    }

    private record Example(RuleDef rule, ExampleDef example) {
    }

    @ParameterizedTest
    @MethodSource("files")
    void examplesPassExactlyAsInTheReference(String file) throws Exception {
        JsonNode ref = json.readTree(Corpus.ROOT.resolve("results/" + file.replace("/", "__") + ".json").toFile());
        Corpus.Loaded loaded = Corpus.load(file);
        PatternDb db = PatternDb.build(List.of(loaded.file()), w -> { });
        List<Example> examples = new ArrayList<>();
        for (RulesetDef rs : loaded.file().rulesets()) {
            for (RuleDef r : rs.rules()) {
                for (ExampleDef ex : r.examples()) {
                    if (ex.testable()) {
                        examples.add(new Example(r, ex));
                    }
                }
            }
        }
        JsonNode refExamples = ref.get("examples");
        assertThat(examples).hasSize(refExamples.size());
        Classifier c = db.newClassifier();
        boolean[] pass = new boolean[examples.size()];
        String[] problems = new String[examples.size()];
        List<String> valueMismatches = new ArrayList<>();
        int correlating = 0;
        for (int i = examples.size() - 1; i >= 0; i--) {
            Example x = examples.get(i);
            JsonNode rx = refExamples.get(i);
            assertThat(rx.get("rule_id").asText()).isEqualTo(x.rule().id());
            assertThat(rx.get("message").asText()).isEqualTo(x.example().message());
            LogEvent e = PdbEvents.message(x.example().program(), x.example().message());
            CompiledRule rule = c.classify(e);
            boolean ok = Observed.value(e, ".classifier.rule_id").equals(x.rule().id());
            StringBuilder why = new StringBuilder();
            if (!ok) {
                why.append(" rule_id=").append(Observed.value(e, ".classifier.rule_id"));
            }
            for (TestValue tv : x.example().testValues()) {
                if (!Observed.value(e, tv.name()).equals(tv.value())) {
                    ok = false;
                    why.append(" ").append(tv.name()).append("='").append(Observed.value(e, tv.name()))
                            .append("' expected '").append(tv.value()).append("'");
                }
            }
            problems[i] = why.toString();
            pass[i] = ok;
            if (rule != null && rule.correlates()) {
                correlating++;
                continue;
            }
            Map<String, String> expected = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = rx.get("reference_values").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> v = it.next();
                expected.put(v.getKey(), v.getKey().equals("TAGS") ? Observed.sortedTags(v.getValue().asText())
                        : v.getValue().asText());
            }
            Map<String, String> got = Observed.all(e);
            // the reference's values were read back from pdbtool's output, where a blank line ends a message and
            // multi-line values are joined heuristically: compare ours as they would have been recorded
            String tags = got.remove("TAGS");
            got = Observed.asRecorded(got);
            got.put("TAGS", tags);
            if (!got.equals(expected)) {
                valueMismatches.add("example " + i + " '" + x.example().message() + "': " + got + "\n  expected "
                        + expected);
            }
        }
        List<String> passMismatches = new ArrayList<>();
        int passed = 0;
        for (int i = 0; i < pass.length; i++) {
            passed += pass[i] ? 1 : 0;
            if (pass[i] != refExamples.get(i).get("reference_pass").asBoolean()) {
                passMismatches.add("example " + i + " (rule " + examples.get(i).rule().id() + ", '"
                        + examples.get(i).example().message() + "'): passed=" + pass[i] + problems[i]);
            }
        }
        assertThat(passMismatches).isEmpty();
        assertThat(passed).isEqualTo(ref.get("summary").get("passed_by_pdbtool_test").asInt());
        assertThat(valueMismatches).isEmpty();
        System.out.printf("%s: %d/%d passed (reference %d), %d examples of correlating rules not value-compared%n",
                file, passed, pass.length, ref.get("summary").get("passed_by_pdbtool_test").asInt(), correlating);
        assertThat(Objects.requireNonNull(ref.get("summary").get("tested_by_pdbtool_test")).asInt())
                .isEqualTo(pass.length);
    }
}
