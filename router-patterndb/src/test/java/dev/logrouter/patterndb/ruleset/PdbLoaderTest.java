package dev.logrouter.patterndb.ruleset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@link PdbLoader} against the reference's verdicts: the loader edge cases of
 * {@code corpus/conformance/loader/EXPECTED.txt}, the per-file counts and examples of
 * {@code corpus/results/*.json} (REFERENCE-RESULTS.md in machine-readable form), the merge order of
 * {@code corpus/derived/merged/}, plus hostile input and text fidelity.
 */
class PdbLoaderTest {

    private static final Path CORPUS = Path.of("src/test/resources/corpus");
    private static final ObjectMapper JSON = new ObjectMapper();

    // ---------------------------------------------------------------- conformance/loader + EXPECTED.txt

    /** One file's block of EXPECTED.txt: the {@code pdbtool test -v} output and the {@code pdbtool dump}. */
    private record Expected(String file, String testOutput, String dumpOutput) {

        /** The reference's load error text, null when the file loaded. */
        String loadError() {
            Matcher m = Pattern.compile("Error parsing pattern database file; filename='[^']*', error='(.*)'$",
                    Pattern.MULTILINE).matcher(testOutput);
            return m.find() ? m.group(1) : null;
        }
    }

    private static List<Expected> parseExpected() throws IOException {
        String text = Files.readString(CORPUS.resolve("conformance/loader/EXPECTED.txt"));
        List<Expected> out = new ArrayList<>();
        for (String block : text.split("(?m)^=================== ")) {
            if (!block.contains("--- pdbtool test")) {
                continue;
            }
            String file = block.substring(0, block.indexOf('\n')).strip();
            int test = block.indexOf('\n', block.indexOf("--- pdbtool test")) + 1;
            int dump = block.indexOf("--- pdbtool dump");
            int dumpBody = block.indexOf('\n', dump) + 1;
            out.add(new Expected(file, block.substring(test, dump), block.substring(dumpBody)));
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> loaderCasesMatchTheReference() throws IOException {
        List<Expected> cases = parseExpected();
        try (Stream<Path> files = Files.list(CORPUS.resolve("conformance/loader"))) {
            Set<String> onDisk = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".xml"))
                    .collect(Collectors.toSet());
            assertThat(cases.stream().map(Expected::file).collect(Collectors.toSet())).isEqualTo(onDisk);
        }
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.file(), () -> checkLoaderCase(c)));
    }

    private static void checkLoaderCase(Expected c) throws Exception {
        Path file = CORPUS.resolve("conformance/loader").resolve(c.file());
        String error = c.loadError();
        if (error != null && !error.contains("Joining rulesets")) {
            PdbLoadException e = catchThrowableOfType(() -> PdbLoader.load(file), PdbLoadException.class);
            assertThat(e).as("reference rejects %s: %s", c.file(), error).isNotNull();
            Matcher located = Pattern.compile("^[^:]+:(\\d+):(\\d+): (.*)$").matcher(error);
            String refMessage;
            if (located.matches()) {
                assertThat(e.line()).as(e.getMessage()).isEqualTo(Integer.parseInt(located.group(1)));
                assertThat(e.column()).as(e.getMessage()).isEqualTo(Integer.parseInt(located.group(2)));
                refMessage = located.group(3);
            } else {
                // the reference gives no position for bad attribute keywords: expect the line that holds the value
                refMessage = error;
                String bad = error.substring(error.lastIndexOf(' ') + 1);
                List<String> lines = Files.readAllLines(file);
                int line = 1;
                while (!lines.get(line - 1).contains("='" + bad + "'")) {
                    line++;
                }
                assertThat(e.line()).as(e.getMessage()).isEqualTo(line);
            }
            String keyPart = refMessage.split("[,;]")[0];
            assertThat(e.getMessage()).contains(": " + keyPart);
            return;
        }

        PatternDbFile loaded = PdbLoader.load(file);
        List<RuleDef> rules = rules(loaded);
        if (error != null) {
            // "Joining rulesets with mismatching program name sets, program=P" at the program pattern's position:
            // the tree builder rejects it; the loader records the program patterns where the reference reports them
            Matcher m = Pattern.compile("^[^:]+:(\\d+):(\\d+): .*program=(.*)$").matcher(error);
            assertThat(m.matches()).isTrue();
            assertThat(loaded.rulesets()).anySatisfy(rs -> assertThat(rs.programPatterns()).last()
                    .isEqualTo(new PatternText(m.group(3), Integer.parseInt(m.group(1)),
                            Integer.parseInt(m.group(2)))));
        }

        // warnings
        assertThat(loaded.warnings().stream().anyMatch(w -> w.contains("patterndb version is unspecified")))
                .isEqualTo(c.testOutput().contains("patterndb version is unspecified"));

        // tested examples: pdbtool prints them last first, with the expected rule id
        Matcher tested = Pattern.compile("(?s)Testing message: program='(.*?)' message='(.*?)'\n"
                + " (?:Match|Wrong match) name='\\.classifier\\.rule_id', value='[^']*', expected='([^']*)'")
                .matcher(c.testOutput());
        List<List<String>> refTested = new ArrayList<>();
        while (tested.find()) {
            refTested.add(0, List.of(tested.group(1), tested.group(2), tested.group(3)));
        }
        List<List<String>> ours = new ArrayList<>();
        List<String> untestable = new ArrayList<>();
        for (RuleDef r : rules) {
            for (ExampleDef ex : r.examples()) {
                if (ex.testable()) {
                    ours.add(List.of(ex.program(), ex.message(), r.id()));
                } else {
                    untestable.add(ex.message());
                }
            }
        }
        assertThat(ours).isEqualTo(refTested);
        Matcher notTested = Pattern.compile("NOT Testing message as program is unset: message='(.*)'")
                .matcher(c.testOutput());
        List<String> refUntestable = new ArrayList<>();
        while (notTested.find()) {
            refUntestable.add(0, notTested.group(1));
        }
        assertThat(untestable).isEqualTo(refUntestable);

        // every rule the reference's dump shows exists
        Matcher dumped = Pattern.compile("rule_id='([^']*)'").matcher(c.dumpOutput());
        Set<String> ids = rules.stream().map(RuleDef::id).collect(Collectors.toSet());
        while (dumped.find()) {
            assertThat(ids).contains(dumped.group(1));
        }
    }

    @Test
    void loaderCasesThatOnlySkipPatternsLoadWithTheirPatterns() throws Exception {
        // 08-11: unknown parser, missing parameter, lone @, duplicates: the tree builder skips those patterns
        assertThat(rules(load("conformance/loader/08-unknown-parser.xml")).get(0).patterns())
                .extracting(PatternText::text).containsExactly("u @FOO:x@");
        assertThat(rules(load("conformance/loader/09-parser-missing-param.xml"))).extracting(r -> r.patterns().get(0)
                .text()).containsExactly("e @ESTRING:x@ end", "q @QSTRING:x@", "s @SET:x@", "p @PCRE:x@", "ok");
        // the reference reports the pattern at location='10-unescaped-at.xml:2:75'
        assertThat(rules(load("conformance/loader/10-unescaped-at.xml")).get(0).patterns())
                .containsExactly(new PatternText("mail to user@host", 2, 75));
        // and the duplicates at 3:73 (other-location 2:73) and 5:61
        List<RuleDef> dup = rules(load("conformance/loader/11-duplicate-patterns.xml"));
        assertThat(dup).extracting(r -> r.patterns().get(0)).containsExactly(
                new PatternText("same @NUMBER:n@", 2, 73), new PatternText("same @NUMBER:n@", 3, 73),
                new PatternText("lit", 4, 61), new PatternText("lit", 5, 61));
    }

    // ---------------------------------------------------------------- real rulesets vs results/*.json

    @TestFactory
    Stream<DynamicTest> everyReferenceFileLoadsOrFailsLikeTheReference() throws IOException {
        JsonNode summary = JSON.readTree(CORPUS.resolve("results/summary.json").toFile());
        List<DynamicTest> tests = new ArrayList<>();
        int balabit = 0;
        for (JsonNode f : summary.get("files")) {
            String name = f.get("file").asText();
            if (name.startsWith("balabit-syslog-ng-patterndb/")) {
                balabit++;
            }
            tests.add(DynamicTest.dynamicTest(name, () -> checkReferenceFile(f)));
        }
        assertThat(balabit).isEqualTo(21);
        return tests.stream();
    }

    private static void checkReferenceFile(JsonNode summary) throws Exception {
        String name = summary.get("file").asText();
        Path file = CORPUS.resolve(name);
        String loadError = summary.get("load_error").isNull() ? null : summary.get("load_error").asText();
        if (loadError != null && !loadError.contains("Joining rulesets")) {
            PdbLoadException e = catchThrowableOfType(() -> PdbLoader.load(file), PdbLoadException.class);
            assertThat(e).as("reference: %s", loadError).isNotNull();
            Matcher m = Pattern.compile(Pattern.quote(name) + ":(\\d+):(\\d+): ").matcher(loadError);
            if (m.find()) {
                assertThat(e.line() + ":" + e.column()).as(e.getMessage())
                        .isEqualTo(m.group(1) + ":" + m.group(2));
            }
            return;
        }
        PatternDbFile loaded = PdbLoader.load(file);
        List<RuleDef> rules = rules(loaded);
        List<ExampleDef> examples = rules.stream().flatMap(r -> r.examples().stream()).toList();
        assertThat(rules).hasSize(summary.get("rules").asInt());
        assertThat(examples).hasSize(summary.get("examples").asInt());
        assertThat(examples.stream().filter(ExampleDef::testable).count())
                .isEqualTo(summary.get("testable_examples").asLong());

        // every example as the reference's tooling read it: rule id, program, message, test values, in order
        JsonNode detail = JSON.readTree(CORPUS.resolve("results/" + name.replace("/", "__") + ".json").toFile());
        List<List<Object>> expected = new ArrayList<>();
        for (JsonNode ex : detail.get("examples")) {
            List<List<String>> values = new ArrayList<>();
            ex.get("test_values").forEach(v -> values.add(List.of(v.get(0).asText(), v.get(1).asText())));
            expected.add(List.of(ex.get("rule_id").asText(), ex.get("program").asText(), ex.get("message").asText(),
                    values));
        }
        List<List<Object>> ours = new ArrayList<>();
        for (RuleDef r : rules) {
            for (ExampleDef ex : r.examples()) {
                if (!ex.testable()) {
                    continue;
                }
                List<List<String>> values = ex.testValues().stream().map(v -> List.of(v.name(), v.value())).toList();
                ours.add(List.of(r.id(), ex.program(), ex.message(), values));
            }
        }
        assertThat(ours).isEqualTo(expected);
    }

    @Test
    void correlationAndProbeRulesetsLoad() throws Exception {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(CORPUS.resolve("conformance/correlation"))) {
            s.sorted().forEach(d -> files.add(d.resolve("rules.xml")));
        }
        assertThat(files).hasSize(6);
        files.add(CORPUS.resolve("conformance/parsers.xml"));
        files.add(CORPUS.resolve("conformance/program-selection.xml"));
        for (Path f : files) {
            PatternDbFile loaded = PdbLoader.load(f);
            Document dom = dom(f);
            assertThat(rules(loaded)).as(f.toString()).hasSize(dom.getElementsByTagName("rule").getLength());
            assertThat(rules(loaded).stream().mapToInt(r -> r.actions().size()).sum()).as(f.toString())
                    .isEqualTo(dom.getElementsByTagName("action").getLength());
            assertThat(rules(loaded).stream().mapToInt(r -> r.examples().size()).sum()).as(f.toString())
                    .isEqualTo(dom.getElementsByTagName("example").getLength());
        }
    }

    @Test
    void correlationRulesCarryTheirActions() throws Exception {
        // cross-check actions of every correlation scenario against an independent DOM read of the same file
        try (Stream<Path> s = Files.list(CORPUS.resolve("conformance/correlation"))) {
            for (Path dir : s.sorted().toList()) {
                Path f = dir.resolve("rules.xml");
                List<ActionDef> ours = rules(PdbLoader.load(f)).stream().flatMap(r -> r.actions().stream()).toList();
                NodeList actions = dom(f).getElementsByTagName("action");
                for (int i = 0; i < actions.getLength(); i++) {
                    Element a = (Element) actions.item(i);
                    ActionDef ad = ours.get(i);
                    assertThat(ad.trigger().name().toLowerCase())
                            .isEqualTo(a.hasAttribute("trigger") ? a.getAttribute("trigger") : "match");
                    assertThat(ad.condition()).isEqualTo(a.hasAttribute("condition") ? a.getAttribute("condition")
                            : null);
                    boolean cc = a.getElementsByTagName("create-context").getLength() > 0;
                    assertThat(ad.createContext() != null).as(f + " action " + i).isEqualTo(cc);
                    assertThat(ad.message() != null).as(f + " action " + i).isEqualTo(!cc);
                    Element msg = (Element) a.getElementsByTagName("message").item(0);
                    MessageDef md = cc ? ad.createContext().message() : ad.message();
                    assertThat(md.values()).hasSize(msg.getElementsByTagName("value").getLength());
                    if (cc) {
                        Element c = (Element) a.getElementsByTagName("create-context").item(0);
                        assertThat(ad.createContext().contextId()).isEqualTo(c.getAttribute("context-id"));
                    }
                }
                assertThat(ours).hasSize(actions.getLength());
            }
        }
    }

    @Test
    void directoriesExpandInTheOrderOfTheReferencesMergedDatabase() throws Exception {
        Path dir = CORPUS.resolve("balabit-syslog-ng-patterndb");
        List<Path> files = PdbLoader.expand(List.of(dir));
        assertThat(files).hasSize(21).allMatch(p -> p.toString().endsWith(".xml") || p.toString().endsWith(".pdb"));

        List<String> ours = PdbLoader.loadAll(List.of(dir)).stream().flatMap(f -> f.rulesets().stream())
                .map(PdbLoaderTest::describe).toList();
        List<String> merged = load("derived/merged/balabit-all-merged.xml").rulesets().stream()
                .map(PdbLoaderTest::describe).toList();
        assertThat(ours).isEqualTo(merged);
    }

    @Test
    void loadAllStopsAtTheFirstBadFile(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Files.createDirectories(tmp.resolve("b"));
        Files.writeString(tmp.resolve("b/ok.xml"), "<patterndb version='4'/>");
        Files.writeString(tmp.resolve("a.pdb"), "<patterndb version='4'><ruleset><rules><rule/></rules></ruleset>"
                + "</patterndb>");
        Files.writeString(tmp.resolve("c.txt"), "not xml");
        assertThat(PdbLoader.expand(List.of(tmp))).containsExactly(tmp.resolve("a.pdb"), tmp.resolve("b/ok.xml"));
        PdbLoadException e = catchThrowableOfType(() -> PdbLoader.loadAll(List.of(tmp)), PdbLoadException.class);
        assertThat(e.source()).isEqualTo(tmp.resolve("a.pdb").toString());
        assertThat(e.getMessage()).contains("No id attribute for rule element");
    }

    private static String describe(RulesetDef rs) {
        return rs.name() + "|" + rs.id() + "|" + rs.programPatterns().stream().map(PatternText::text).toList() + "|"
                + rs.rules().stream().map(r -> r.id() + r.patterns().stream().map(PatternText::text).toList()).toList();
    }

    // ---------------------------------------------------------------- hostile input

    @Test
    void entityBombIsRejectedAtTheDoctype() {
        String bomb = "<?xml version='1.0'?>\n<!DOCTYPE lolz [\n <!ENTITY lol 'lol'>\n"
                + " <!ENTITY lol2 '&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;'>\n"
                + " <!ENTITY lol3 '&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;'>\n]>\n"
                + "<patterndb version='4'><ruleset><rules><rule id='r'><patterns><pattern>&lol3;</pattern></patterns>"
                + "</rule></rules></ruleset></patterndb>";
        assertThatThrownBy(() -> loadString(bomb)).isInstanceOf(PdbLoadException.class)
                .hasMessageContaining("DOCTYPE").hasMessageStartingWith("mem.xml:");
    }

    @Test
    void externalEntityIsRejected() {
        String xxe = "<!DOCTYPE p [<!ENTITY e SYSTEM 'file:///etc/passwd'>]>"
                + "<patterndb version='4'><ruleset><pattern>&e;</pattern></ruleset></patterndb>";
        assertThatThrownBy(() -> loadString(xxe)).isInstanceOf(PdbLoadException.class)
                .hasMessageContaining("DOCTYPE");
    }

    @Test
    void malformedXmlNamesTheLine() {
        String bad = "<patterndb version='4'>\n<ruleset>\n<rules>\n<rule id='x'>\n</rules>\n</ruleset></patterndb>";
        PdbLoadException e = catchThrowableOfType(() -> loadString(bad), PdbLoadException.class);
        assertThat(e).isNotNull();
        assertThat(e.line()).isEqualTo(5);
        assertThat(e.getMessage()).startsWith("mem.xml:5:").contains("malformed XML");
    }

    @Test
    void undefinedEntityAndBadUtf8AreRejected() {
        assertThatThrownBy(() -> loadString("<patterndb version='4'>\n<ruleset><pattern>&nbsp;</pattern>"
                + "</ruleset></patterndb>")).isInstanceOf(PdbLoadException.class).hasMessageContaining("mem.xml:2:");
        byte[] latin1 = "<patterndb version='4'>\n<ruleset><pattern>caf\u00e9</pattern></ruleset></patterndb>"
                .getBytes(StandardCharsets.ISO_8859_1);
        PdbLoadException e = catchThrowableOfType(
                () -> PdbLoader.load(new ByteArrayInputStream(latin1), "l1.xml"), PdbLoadException.class);
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.getMessage()).contains("UTF-8");
    }

    @Test
    void emptyOrTruncatedInputIsRejected() {
        assertThatThrownBy(() -> loadString("")).isInstanceOf(PdbLoadException.class);
        assertThatThrownBy(() -> loadString("<patterndb version='4'><ruleset>")).isInstanceOf(PdbLoadException.class)
                .hasMessageContaining("malformed XML");
    }

    // ---------------------------------------------------------------- text fidelity and structure

    @Test
    void patternTextIsVerbatim() throws Exception {
        PatternDbFile f = loadString(rule("<patterns><pattern> lead\ttab </pattern><pattern>\n  x\n</pattern>"
                + "<pattern></pattern><pattern/><pattern>a &amp; &lt;b&gt; &#x41;&#66;<![CDATA[<c>&]]></pattern>"
                + "</patterns>"));
        assertThat(rules(f).get(0).patterns()).extracting(PatternText::text)
                .containsExactly(" lead\ttab ", "\n  x\n", "", "a & <b> AB<c>&");
    }

    @Test
    void lastTestMessageWinsProgramAndTextIndependently() throws Exception {
        PatternDbFile f = loadString(rule("<patterns><pattern>p</pattern></patterns><examples>"
                + "<example><test_message program='a'>first</test_message><test_message>second</test_message>"
                + "</example>"
                + "<example><test_message program='a'>one</test_message><test_message program='b'/></example>"
                + "<example><test_message>no program</test_message></example>"
                + "<example><test_message program=''></test_message></example>"
                + "<example>ignored text<test_values><test_value name='v'> x </test_value><test_value name='e'/>"
                + "</test_values></example>"
                + "</examples>"));
        List<ExampleDef> ex = rules(f).get(0).examples();
        assertThat(ex).extracting(ExampleDef::program, ExampleDef::message).containsExactly(
                org.assertj.core.groups.Tuple.tuple("a", "second"), org.assertj.core.groups.Tuple.tuple("b", "one"),
                org.assertj.core.groups.Tuple.tuple(null, "no program"),
                org.assertj.core.groups.Tuple.tuple("", ""), org.assertj.core.groups.Tuple.tuple(null, null));
        assertThat(ex).extracting(ExampleDef::testable).containsExactly(true, true, false, true, false);
        assertThat(ex.get(4).testValues()).containsExactly(new TestValue("v", " x ", null));
    }

    @Test
    void commentSplitsATextRunAsInTheReference() throws Exception {
        PatternDbFile f = loadString(rule("<pattern>a<!-- c -->b</pattern><tag>t<!--x--></tag>"));
        assertThat(rules(f).get(0).patterns()).extracting(PatternText::text).containsExactly("a", "b");
        assertThat(rules(f).get(0).tags()).containsExactly("t", "");
    }

    @Test
    void ruleAttributesParseLikeTheReference() throws Exception {
        String xml = "<patterndb version=' 5abc' pub_date='2024-01-02'><ruleset name='n' id='i'>"
                + "<patterns><pattern>prog1</pattern><pattern>prog2</pattern></patterns><rules>"
                + "<rule id='a' class='c' provider='p' context-id='$PID' context-timeout='0x10' context-scope='GLOBAL'"
                + " unknown='x'/>"
                + "<rule id='b' context-timeout='010'/><rule id='c' context-timeout=' 12abc'/><rule id=''/>"
                + "</rules></ruleset></patterndb>";
        PatternDbFile f = loadString(xml);
        assertThat(f.version()).isEqualTo(5);
        assertThat(f.pubDate()).isEqualTo("2024-01-02");
        assertThat(f.warnings()).isEmpty();
        RulesetDef rs = f.rulesets().get(0);
        assertThat(rs.programPatterns()).extracting(PatternText::text).containsExactly("prog1", "prog2");
        RuleDef a = rs.rules().get(0);
        assertThat(a).extracting(RuleDef::id, RuleDef::ruleClass, RuleDef::provider, RuleDef::contextId,
                RuleDef::contextTimeout, RuleDef::contextScope)
                .containsExactly("a", "c", "p", "$PID", 16L, Scope.GLOBAL);
        assertThat(rs.rules()).extracting(RuleDef::contextTimeout).containsExactly(16L, 8L, 12L, 0L);
        assertThat(rs.rules().get(1).contextScope()).isEqualTo(Scope.PROCESS);
        assertThat(rs.rules().get(1).effectiveClass()).isEqualTo("system");
        assertThat(rs.rules().get(3).id()).isEmpty();
    }

    @Test
    void versionBounds() throws Exception {
        assertThat(loadString("<patterndb version='2'/>").version()).isEqualTo(2);
        assertThat(loadString("<patterndb/>").warnings()).singleElement().asString()
                .contains("patterndb version is unspecified, assuming v4 format");
        assertThat(loadString("<patterndb/>").version()).isEqualTo(4);
        assertThatThrownBy(() -> loadString("<patterndb version=''/>")).hasMessageContaining("too old");
        assertThatThrownBy(() -> loadString("<patterndb version='1'/>")).hasMessageContaining("too old")
                .hasMessageContaining("pdbtool merge");
        assertThatThrownBy(() -> loadString("<patterndb version='6'/>")).hasMessageContaining("too new");
    }

    @Test
    void actionsParseLikeTheReference() throws Exception {
        PatternDbFile f = loadString(rule("<actions>"
                + "<action rate='2/60' condition='\"$x\" eq \"1\"'><message inherit-properties='TRUE'>"
                + "<values><value name='MESSAGE'>m</value></values><tags><tag>t1</tag></tags><tag>t2</tag></message>"
                + "</action>"
                + "<action trigger='timeout' rate='5'><message inherit-mode='context' inherit-properties='false'/>"
                + "</action>"
                + "<action rate='3/0'><message inherit-properties='false' inherit-mode='CONTEXT'/></action>"
                + "<action><message/></action>"
                + "<action><create-context context-id='x' context-timeout='30' context-scope='host'>"
                + "<message inherit-properties='context'><value name='a'>b</value></message></create-context></action>"
                + "<action/>"
                + "</actions>"));
        List<ActionDef> a = rules(f).get(0).actions();
        assertThat(a).extracting(ActionDef::trigger).containsExactly(Trigger.MATCH, Trigger.TIMEOUT, Trigger.MATCH,
                Trigger.MATCH, Trigger.MATCH, Trigger.MATCH);
        assertThat(a).extracting(ActionDef::rateCount).containsExactly(2, 5, 3, 0, 0, 0);
        assertThat(a).extracting(ActionDef::rateSeconds).containsExactly(60, 1, 1, 1, 1, 1);
        assertThat(a.get(0).condition()).isEqualTo("\"$x\" eq \"1\"");
        assertThat(a.get(1).condition()).isNull();
        assertThat(a.get(0).message().inheritMode()).isEqualTo(InheritMode.LAST_MESSAGE);
        assertThat(a.get(0).message().values()).extracting(ValueDef::name, ValueDef::template)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("MESSAGE", "m"));
        assertThat(a.get(0).message().tags()).containsExactly("t1", "t2");
        assertThat(a.get(1).message().inheritMode()).isEqualTo(InheritMode.NONE);
        assertThat(a.get(2).message().inheritMode()).isEqualTo(InheritMode.CONTEXT);
        assertThat(a.get(3).message().inheritMode()).isEqualTo(InheritMode.NONE);
        CreateContextDef cc = a.get(4).createContext();
        assertThat(a.get(4).message()).isNull();
        assertThat(cc).extracting(CreateContextDef::contextId, CreateContextDef::timeout, CreateContextDef::scope)
                .containsExactly("x", 30L, Scope.HOST);
        assertThat(cc.message().inheritMode()).isEqualTo(InheritMode.CONTEXT);
        assertThat(cc.message().values()).extracting(ValueDef::name).containsExactly("a");
        assertThat(a.get(5).message()).isNull();
        assertThat(a.get(5).createContext()).isNull();
    }

    @Test
    void badKeywordsAreFatal() {
        assertThatThrownBy(() -> loadString(rule("<actions><action trigger='Match'/></actions>")))
                .hasMessageContaining("Unknown trigger type: Match");
        assertThatThrownBy(() -> loadString(rule("<actions><action><message inherit-properties='yes'/></action>"
                + "</actions>"))).hasMessageContaining("Unknown inherit-properties: yes");
        assertThatThrownBy(() -> loadString(rule("<actions><action><create-context context-scope='session'>"
                + "</create-context></action></actions>"))).hasMessageContaining("Unknown context scope: session");
        assertThatThrownBy(() -> loadString(rule("<actions><action><create-context/></action></actions>")))
                .hasMessageContaining("context-id attribute is missing from <create-context>, rule=r");
    }

    @Test
    void structureIsStrict() {
        // wrappers are required where the reference has a state for them
        assertThatThrownBy(() -> loadString(rule("<example/>"))).hasMessageContaining("Unexpected <example> tag");
        assertThatThrownBy(() -> loadString(rule("<action/>"))).hasMessageContaining("Unexpected <action> tag");
        assertThatThrownBy(() -> loadString(rule("<examples><example><test_value name='a'/></example></examples>")))
                .hasMessageContaining("Unexpected <test_value> tag, expected a <test_message>, <test_values>");
        assertThatThrownBy(() -> loadString("<patterndb><ruleset><rule id='a'/></ruleset></patterndb>"))
                .hasMessageContaining("Unexpected <rule> tag, expected a <rules>");
        // children of text elements, text in containers, value/test_value name not first
        assertThatThrownBy(() -> loadString(rule("<pattern>a<b/></pattern>")))
                .hasMessageContaining("Unexpected <b> tag inside <pattern>");
        assertThatThrownBy(() -> loadString(rule("<patterns>oops<pattern>a</pattern></patterns>")))
                .hasMessageContaining("Unexpected text node in <patterns>, text=[[oops]]");
        assertThatThrownBy(() -> loadString(rule("<value type='string' name='v'>x</value>")))
                .hasMessageContaining("<value> misses name attribute in rule r");
        assertThatThrownBy(() -> loadString(rule("<value>x</value>")))
                .hasMessageContaining("<value> misses name attribute in rule r");
    }

    @Test
    void transparentWrappersAllowTheirParentsChildrenAsInTheReference() throws Exception {
        // the reference keeps no state for <patterns>/<tags>/<values>/<urls>: their parent's children are allowed
        PatternDbFile f = loadString("<patterndb version='4'><ruleset><patterns><pattern>prog</pattern><rules>"
                + "<rule id='r'><tags><pattern>p</pattern><value name='v'>x</value></tags>"
                + "<description>any</description><url>u</url><urls><url>u2</url></urls></rule>"
                + "</rules></patterns><description>d</description></ruleset></patterndb>");
        RuleDef r = rules(f).get(0);
        assertThat(f.rulesets().get(0).programPatterns()).extracting(PatternText::text).containsExactly("prog");
        assertThat(r.patterns()).extracting(PatternText::text).containsExactly("p");
        assertThat(r.values()).extracting(ValueDef::name, ValueDef::template, ValueDef::type)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("v", "x", null));
    }

    @Test
    void valueTypeAndUnknownAttributesAreKept() throws Exception {
        PatternDbFile f = loadString(rule("<values><value name='n' type='integer' extra='1'>$(+ 1 2)</value>"
                + "<value name='empty'></value><value name='none'/></values>"));
        assertThat(rules(f).get(0).values()).extracting(ValueDef::name, ValueDef::template, ValueDef::type)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("n", "$(+ 1 2)", "integer"),
                        org.assertj.core.groups.Tuple.tuple("empty", "", null));
    }

    @Test
    void positionsFollowTheReferencesNumbering() {
        // line 1 counts from column 1, later lines from column 2; a position on a newline is the next line's 1
        PdbLoadException first = catchThrowableOfType(() -> loadString("<patterndb version='4'><x/></patterndb>"),
                PdbLoadException.class);
        assertThat(first.line() + ":" + first.column()).isEqualTo("1:27");
        PdbLoadException later = catchThrowableOfType(
                () -> loadString("<patterndb version='4'>\n  <x>\n</x></patterndb>"), PdbLoadException.class);
        assertThat(later.line() + ":" + later.column()).isEqualTo("3:1");
        PdbLoadException utf8 = catchThrowableOfType(
                () -> loadString("<patterndb version='4'>\n<!-- \u00e9\u00e9 --><x></x></patterndb>"),
                PdbLoadException.class);
        assertThat(utf8.line() + ":" + utf8.column()).isEqualTo("2:" + (1 + "<!-- ".length() + 4 + " --><x>".length()
                + 1));
    }

    // ---------------------------------------------------------------- helpers

    private static String rule(String body) {
        return "<patterndb version='4'><ruleset><pattern>prog</pattern><rules><rule id='r'>" + body
                + "</rule></rules></ruleset></patterndb>";
    }

    private static PatternDbFile loadString(String xml) throws PdbLoadException {
        return PdbLoader.load(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "mem.xml");
    }

    private static PatternDbFile load(String corpusPath) throws Exception {
        return PdbLoader.load(CORPUS.resolve(corpusPath));
    }

    private static List<RuleDef> rules(PatternDbFile f) {
        return f.rulesets().stream().flatMap(rs -> rs.rules().stream()).toList();
    }

    private static Document dom(Path f) throws Exception {
        DocumentBuilderFactory dbf = DocumentBuilderFactory.newDefaultInstance();
        dbf.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return dbf.newDocumentBuilder().parse(f.toFile());
    }
}
