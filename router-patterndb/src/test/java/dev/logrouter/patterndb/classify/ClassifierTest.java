package dev.logrouter.patterndb.classify;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.patterndb.PdbEvents;
import dev.logrouter.patterndb.ruleset.PdbLoadException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.logrouter.patterndb.classify.Rules.file;
import static dev.logrouter.patterndb.classify.Rules.rule;
import static dev.logrouter.patterndb.classify.Rules.ruleset;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What classification writes (spec 7) and how PROGRAM selects the rules (spec 3). */
class ClassifierTest {

    private final List<String> warnings = new ArrayList<>();

    private static List<String> tags(LogEvent e) {
        List<String> t = new ArrayList<>();
        for (int i = 0; i < e.tagCount(); i++) {
            t.add(Tags.nameString(e.tagAt(i)));
        }
        return t;
    }

    @Test
    void matchWritesClassRuleIdCapturesTagsAndValues() throws Exception {
        PatternDb db = PatternDb.build(List.of(file(ruleset(List.of("sshd"),
                rule("r1", null, List.of("Accepted @ESTRING:method: @for @STRING:user@"), List.of("auth", "ok"),
                        "who", "${user} via ${method}", "both", "[${who}]", "PROGRAM", "sshd-renamed")))),
                warnings::add);
        LogEvent e = PdbEvents.message("sshd", "Accepted password for root");
        CompiledRule r = db.newClassifier().classify(e);
        assertThat(r).isNotNull();
        assertThat(r.def().id()).isEqualTo("r1");
        assertThat(e.fields().get(".classifier.class")).isEqualTo("system");
        assertThat(e.fields().get(".classifier.rule_id")).isEqualTo("r1");
        assertThat(e.fields().get("method")).isEqualTo("password");
        assertThat(e.fields().get("user")).isEqualTo("root");
        assertThat(e.fields().get("who")).isEqualTo("root via password");
        assertThat(e.fields().get("both")).as("a value reads an earlier one").isEqualTo("[root via password]");
        assertThat(new String(e.fieldArray(LogEvent.PROGRAM), e.fieldOffset(LogEvent.PROGRAM),
                e.fieldLength(LogEvent.PROGRAM))).isEqualTo("sshd-renamed");
        assertThat(e.fields().get(".classifier.context_id")).isNull();
        assertThat(tags(e)).containsExactly(".classifier.system", "auth", "ok");
        assertThat(warnings).isEmpty();
    }

    @Test
    void missWritesUnknown() throws Exception {
        PatternDb db = PatternDb.build(List.of(file(ruleset(List.of(), rule("r1", "c", List.of("x"), List.of())))),
                warnings::add);
        LogEvent e = PdbEvents.message("p", "y");
        assertThat(db.newClassifier().classify(e)).isNull();
        assertThat(e.fields().get(".classifier.class")).isEqualTo("unknown");
        assertThat(e.fields().get(".classifier.rule_id")).isNull();
        assertThat(tags(e)).containsExactly(".classifier.unknown");
    }

    @Test
    void classTagIsCutTo31Bytes() throws Exception {
        String cls = "a-very-long-class-name-beyond-the-limit";
        PatternDb db = PatternDb.build(List.of(file(ruleset(List.of(), rule("r1", cls, List.of("x"), List.of())))),
                warnings::add);
        LogEvent e = PdbEvents.message(null, "x");
        db.newClassifier().classify(e);
        assertThat(e.fields().get(".classifier.class")).isEqualTo(cls);
        assertThat(tags(e)).containsExactly((".classifier." + cls).substring(0, 31));
    }

    @Test
    void correlatingRuleGetsContextIdButNotItsValues() throws Exception {
        PatternDb db = PatternDb.build(List.of(file(ruleset(List.of(),
                rule("r1", "c", "ctx-${n}", List.of("open @NUMBER:n@"), List.of(), "v", "x")))), warnings::add);
        LogEvent e = PdbEvents.message(null, "open 7");
        CompiledRule r = db.newClassifier().classify(e);
        assertThat(r.correlates()).isTrue();
        assertThat(e.fields().get(".classifier.context_id")).isEqualTo("ctx-7");
        assertThat(e.fields().get("v")).isNull();
    }

    @Test
    void programSelectionIsPartialAndHasNoFallback() throws Exception {
        PatternDb db = PatternDb.build(List.of(file(
                ruleset(List.of(), rule("default", null, List.of("@ANYSTRING:any@"), List.of())),
                ruleset(List.of("sshd"), rule("sshd", null, List.of("Accepted @ANYSTRING:r@"), List.of())),
                ruleset(List.of("sshd-session"), rule("session", null, List.of("Accepted @ANYSTRING:r@"),
                        List.of())),
                ruleset(List.of("sshd"), rule("joined", null, List.of("extra"), List.of())),
                ruleset(List.of("%ASA-@NUMBER:sev@-@NUMBER:id@"), rule("asa", null, List.of("Built"), List.of())))),
                warnings::add);
        Classifier c = db.newClassifier();
        assertThat(c.classify(PdbEvents.message("sshd2", "Accepted x")).def().id()).isEqualTo("sshd");
        assertThat(c.classify(PdbEvents.message("sshd-session", "Accepted x")).def().id()).isEqualTo("session");
        assertThat(c.classify(PdbEvents.message("sshd", "extra")).def().id()).isEqualTo("joined");
        assertThat(c.classify(PdbEvents.message("sshd", "something else"))).as("no fallback to default").isNull();
        assertThat(c.classify(PdbEvents.message("SSHD", "x")).def().id()).isEqualTo("default");
        assertThat(c.classify(PdbEvents.message("", "x")).def().id()).isEqualTo("default");
        LogEvent e = PdbEvents.message("%ASA-6-302013", "unrelated");
        assertThat(c.classify(e)).isNull();
        assertThat(e.fields().get("sev")).as("program captures stay on a miss").isEqualTo("6");
        assertThat(e.fields().get("id")).isEqualTo("302013");
        assertThat(db.programs()).containsExactly("", "sshd", "sshd-session", "%ASA-@NUMBER:sev@-@NUMBER:id@");
        assertThat(db.ruleCount()).isEqualTo(5);
    }

    @Test
    void joiningMismatchingProgramSetsIsFatal() {
        assertThatThrownBy(() -> PatternDb.build(List.of(file(
                ruleset(List.of("p1"), rule("a", null, List.of("x"), List.of())),
                ruleset(List.of("p2", "p1"), rule("b", null, List.of("y"), List.of())))), warnings::add))
                .isInstanceOf(PdbLoadException.class)
                .hasMessageContaining("Joining rulesets with mismatching program name sets, program=p1");
    }

    @Test
    void aliasesShareTheProgram() throws Exception {
        PatternDb db = PatternDb.build(List.of(file(
                ruleset(List.of("postfix/smtpd", "postfix/submission/smtpd"),
                        rule("a", null, List.of("connect"), List.of())))), warnings::add);
        assertThat(db.newClassifier().classify(PdbEvents.message("postfix/submission/smtpd", "connect")))
                .isNotNull();
    }

    @Test
    void badValueTemplateIsFatalWithItsLine() {
        assertThatThrownBy(() -> PatternDb.build(List.of(file(ruleset(List.of(),
                rule("r1", null, List.of("x"), List.of(), "v", "${unterminated")))), warnings::add))
                .isInstanceOf(PdbLoadException.class)
                .hasMessageContaining("test.xml:1:")
                .hasMessageContaining("Error compiling value template, rule=r1");
    }

    @Test
    void skippedPatternsAreWarnings() throws Exception {
        PatternDb db = PatternDb.build(List.of(file(ruleset(List.of(),
                rule("r1", null, List.of("a @BAD:x@", "b"), List.of()),
                rule("r2", null, List.of("b"), List.of())))), warnings::add);
        assertThat(warnings).hasSize(2);
        assertThat(warnings.get(0)).contains("Unknown parser type specified");
        assertThat(warnings.get(1)).contains("Duplicate key in radix tree");
        assertThat(db.newClassifier().classify(PdbEvents.message(null, "b")).def().id()).isEqualTo("r1");
    }

    @Test
    void dumpLikePdbtool() throws Exception {
        PatternDb db = PatternDb.build(List.of(file(ruleset(List.of("prog"),
                rule("r1", null, List.of("a @STRING:s@"), List.of()),
                rule("r2", null, List.of("ab"), List.of())))), warnings::add);
        assertThat(db.dump("prog")).isEqualTo("'' \n 'a' \n  ' ' \n   @STRING:s@ '' rule_id='r1'\n  'b' rule_id='r2'\n");
        assertThat(db.dumpProgramTree()).isEqualTo("'' RULES\n 'prog' RULES\n");
    }

    @Test
    void warmClassifierReusesItsState() throws Exception {
        PatternDb db = PatternDb.build(List.of(file(ruleset(List.of(),
                rule("r1", null, List.of("k @NUMBER:n@ @PCRE:w:[a-z]+@"), List.of(), "v", "${n}-${w}")))),
                warnings::add);
        Classifier c = db.newClassifier();
        LogEvent e = new LogEvent();
        for (int i = 0; i < 3; i++) {
            PdbEvents.fill(e, null, "k " + i + " abc");
            assertThat(c.classify(e)).isNotNull();
            assertThat(e.fields().get("v")).isEqualTo(i + "-abc");
        }
    }
}
