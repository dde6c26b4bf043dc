package dev.logrouter.patterndb.classify;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the PatternDB classifier with the rulesets of the module's test corpus (every balabit ruleset merged, the
 * ELSA ruleset, and the conformance file that uses every parser type): arbitrary PROGRAM and MSG bytes. The input
 * is split at NUL bytes into {@code program, message[, program, message]}; without a second pair the first is
 * classified twice.
 *
 * <p>Properties: nothing throws; a match names a rule of the database and writes its class, a miss writes
 * {@code .classifier.class=unknown}; the field table stays within a fixed multiple of the input size; the second
 * message gives the same result from the classifier that classified the first (as a parse worker reuses it) as
 * from a fresh one; no input hangs the matcher ({@code @Timeout}; the PCRE parser has a step budget).
 *
 * <p>Regression inputs: {@code src/test/resources/dev/logrouter/patterndb/classify/ClassifierFuzzTestInputs/classify/}.
 *
 * <p>Threads: the JUnit thread.
 */
class ClassifierFuzzTest {

    private static final Path CORPUS = Path.of("src/test/resources/corpus");
    /** Table bytes per input byte: captures, and rule values that may repeat them, plus fixed rule text. */
    private static final long FACTOR = 64;
    private static final long CONSTANT = 16 * 1024;
    private static final PatternDb DB = load();

    @FuzzTest(maxDuration = "10s")
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void classify(byte[] data) {
        byte[][] parts = split(data);
        Classifier reused = DB.newClassifier();
        LogEvent e = new LogEvent();
        CompiledRule rule = null;
        for (int m = 0; m < 2; m++) {
            byte[] program = parts[2 * m];
            byte[] message = parts[2 * m + 1];
            fill(e, program, message);
            rule = reused.classify(e);
            check(e, rule, program.length + message.length);
        }
        LogEvent fresh = new LogEvent();
        fill(fresh, parts[2], parts[3]);
        CompiledRule freshRule = DB.newClassifier().classify(fresh);
        assertThat(freshRule).as("a fresh classifier matches the same rule").isSameAs(rule);
        assertThat(entries(fresh.fields())).as("and writes the same fields").isEqualTo(entries(e.fields()));
        assertThat(tags(fresh)).as("and the same tags").isEqualTo(tags(e));
    }

    private static void check(LogEvent e, CompiledRule rule, int inputLength) {
        FieldTable t = e.fields();
        if (rule == null) {
            assertThat(t.get(".classifier.class")).isEqualTo("unknown");
        } else {
            assertThat(DB.rules().get(rule.index())).isSameAs(rule);
            assertThat(t.get(".classifier.rule_id")).isEqualTo(rule.def().id());
        }
        long live = 0;
        for (int i = 0; i < t.size(); i++) {
            live += t.nameLength(i) + t.valueLength(i);
        }
        long bound = FACTOR * inputLength + CONSTANT;
        assertThat(live).as("field bytes for %d input bytes", inputLength).isLessThanOrEqualTo(bound);
        assertThat((long) t.data().length).as("field buffer").isLessThanOrEqualTo(2 * bound + 256);
        assertThat(e.tagCount()).as("tags").isLessThanOrEqualTo(256);
    }

    /** {@code program \0 message [\0 program \0 message]}; missing parts are empty, a missing pair repeats. */
    private static byte[][] split(byte[] data) {
        List<byte[]> p = new ArrayList<>(4);
        int from = 0;
        for (int i = 0; i < data.length && p.size() < 3; i++) {
            if (data[i] == 0) {
                p.add(Arrays.copyOfRange(data, from, i));
                from = i + 1;
            }
        }
        p.add(Arrays.copyOfRange(data, from, data.length));
        if (p.size() == 1) {
            p.add(0, new byte[0]);
        }
        if (p.size() < 4) {
            p = List.of(p.get(0), p.get(1), p.get(0), p.get(1));
        }
        return p.toArray(new byte[0][]);
    }

    /** As {@code PdbEvents.fill}, from bytes: PROGRAM (unset when empty) and MSG, nothing else. */
    private static void fill(LogEvent e, byte[] program, byte[] message) {
        e.clear();
        byte[] raw = new byte[program.length + message.length];
        System.arraycopy(program, 0, raw, 0, program.length);
        System.arraycopy(message, 0, raw, program.length, message.length);
        e.setRaw(raw, 0, raw.length);
        if (program.length > 0) {
            e.setField(LogEvent.PROGRAM, 0, program.length);
        }
        e.setField(LogEvent.MSG, program.length, message.length);
    }

    private static List<String> entries(FieldTable t) {
        List<String> out = new ArrayList<>(t.size());
        for (int i = 0; i < t.size(); i++) {
            out.add(new String(t.data(), t.nameOffset(i), t.nameLength(i), StandardCharsets.ISO_8859_1) + "="
                    + new String(t.data(), t.valueOffset(i), t.valueLength(i), StandardCharsets.ISO_8859_1));
        }
        return out;
    }

    private static List<Integer> tags(LogEvent e) {
        List<Integer> t = new ArrayList<>();
        for (int i = 0; i < e.tagCount(); i++) {
            t.add(e.tagAt(i));
        }
        return t;
    }

    private static PatternDb load() {
        try {
            return PatternDb.load(List.of(
                    CORPUS.resolve("derived/merged/balabit-all-merged.xml"),
                    CORPUS.resolve("derived/mcholste-elsa/node/conf/patterndb.fixed.xml"),
                    CORPUS.resolve("conformance/parsers.xml")), w -> { }, ZoneOffset.UTC);
        } catch (Exception ex) {
            throw new IllegalStateException("cannot load the test rulesets", ex);
        }
    }
}
