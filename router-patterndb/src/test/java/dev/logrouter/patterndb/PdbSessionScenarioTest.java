package dev.logrouter.patterndb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.patterndb.classify.PatternDb;
import dev.logrouter.patterndb.correlate.Correlator;
import dev.logrouter.patterndb.correlate.CorrelatorOptions;
import dev.logrouter.patterndb.ruleset.PdbLoader;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every correlation scenario of the corpus through {@link PdbSession} and {@link PdbOutput}, as
 * {@code pdbtool match -f rules.xml input.log} runs it (expired, input, generated; everything left expired at the
 * end), compared with the reference's {@code expected.out}. Rules come from {@link PdbLoader} and are
 * built and matched by the real {@link PatternDb}: this checks loader, classifier, correlator and session together.
 */
class PdbSessionScenarioTest {

    @TestFactory
    List<DynamicTest> everyScenarioMatchesTheReference() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (Scenario s : Scenario.all()) {
            tests.add(DynamicTest.dynamicTest(s.name(), () -> {
                PatternDb db = PatternDb.build(List.of(PdbLoader.load(s.rules())), w -> { });
                MetricGroup metrics = new MetricGroup("PatternDbCorrelator", s.name());
                Correlator correlator = new Correlator(new CorrelatorOptions(1000, 0), metrics, System::currentTimeMillis);
                PdbSession session = new PdbSession(db, correlator);
                StringBuilder out = new StringBuilder();
                for (LogEvent e : s.input()) {
                    session.process(e, g -> out.append(PdbOutput.format(g)));
                }
                session.finish(g -> out.append(PdbOutput.format(g)));
                s.assertSameMessages(out.toString());
                assertThat(metrics.value("activeContexts")).isZero();
            }));
        }
        assertThat(tests).hasSize(6);
        return tests;
    }

    @Test
    void theDriverReusesOneEventLikePdbtoolMatch() throws Exception {
        // pdbtool's CLI loop clears and refills one event per line: contexts must hold copies
        Scenario s = Scenario.all().get(0);
        PatternDb db = PatternDb.build(List.of(PdbLoader.load(s.rules())), w -> { });
        PdbSession session = new PdbSession(db, new Correlator(
                new CorrelatorOptions(1000, 0), new MetricGroup("t", "t"), System::currentTimeMillis));
        StringBuilder out = new StringBuilder();
        LogEvent reused = new LogEvent();
        for (LogEvent e : s.input()) {
            reused.copyFrom(e);
            session.process(reused, g -> out.append(PdbOutput.format(g)));
        }
        session.finish(g -> out.append(PdbOutput.format(g)));
        s.assertSameMessages(out.toString());
    }
}
