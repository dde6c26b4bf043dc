package dev.logrouter.bench.patterndb;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.patterndb.PdbEvents;
import dev.logrouter.patterndb.classify.Classifier;
import dev.logrouter.patterndb.classify.CompiledRule;
import dev.logrouter.patterndb.classify.PatternDb;
import dev.logrouter.patterndb.correlate.Correlator;
import dev.logrouter.patterndb.ruleset.PdbLoader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Throughput (messages/s, one thread) of the correlation stage's work per message, as
 * {@code serial-correlation} does it: {@link Correlator#process} on a message that a correlating rule matched
 * (context lookup or creation, a copy of the message kept in the context, the rule's values evaluated over
 * the context, timers moved on message time) and, for every second message, a match action that generates a
 * summary message ({@code inherit-mode="context"}, condition on {@code $(context-length)}).
 *
 * <p>{@code sessions} sessions are open at once: messages alternate "login" and "logout" of session ids in
 * a sliding window, one second of message time per 1,000 messages, so contexts are created, closed by their
 * logout's action condition and expired by their timeout continually. Classification is done once, in
 * setup (it runs in the parse workers, see {@link PatternDbBenchmark}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(org.openjdk.jmh.annotations.Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class CorrelationBenchmark {

    @Param({"100", "10000"})
    public int sessions;

    private static final String RULES = """
            <patterndb version="4" pub_date="2026-11-22">
              <ruleset name="app" id="app"><patterns><pattern>app</pattern></patterns><rules>
                <rule id="login" class="session" context-id="s-${session}" context-timeout="30" context-scope="host">
                  <patterns><pattern>login session=@NUMBER:session@ user=@STRING:user@ from @IPv4:ip@</pattern></patterns>
                  <values><value name="state">open</value></values>
                </rule>
                <rule id="logout" class="session" context-id="s-${session}" context-timeout="1" context-scope="host">
                  <patterns><pattern>logout session=@NUMBER:session@</pattern></patterns>
                  <values><value name="state">closed</value><value name="user">${user}@1</value></values>
                  <actions><action condition='"$(context-length)" == "2"'>
                    <message inherit-mode="context"><values>
                      <value name="MESSAGE">session ${session} of ${user} from ${ip} closed</value>
                    </values></message>
                  </action></actions>
                </rule>
              </rules></ruleset>
            </patterndb>
            """;

    private Correlator correlator;
    private LogEvent[] events;
    private CompiledRule[] rules;
    private final LogEvent event = new LogEvent();
    private int next;
    private long second = 1_700_000_000L;
    private Blackhole sink;
    private final Correlator.Emitter emitter = g -> sink.consume(g);

    @Setup
    public void setup(Blackhole bh) throws Exception {
        sink = bh;
        PatternDb db = PatternDb.build(List.of(PdbLoader.load(
                new ByteArrayInputStream(RULES.getBytes(StandardCharsets.UTF_8)), "bench.xml")), w -> { });
        Classifier c = db.newClassifier();
        correlator = new Correlator(1_000_000, new MetricGroup("PatternDb", "bench"));
        int n = 2 * sessions * 4;
        events = new LogEvent[n];
        rules = new CompiledRule[n];
        for (int i = 0; i < n; i++) {
            // login of session k, then (sessions messages later) its logout: a window of open sessions
            int k = i / 2;
            String msg = i % 2 == 0 ? "login session=" + k + " user=u" + (k % 997) + " from 10.0." + (k % 250) + ".7"
                    : "logout session=" + Math.max(0, k - sessions / 2);
            LogEvent e = PdbEvents.message("app", msg);
            rules[i] = c.classify(e);
            events[i] = e;
        }
    }

    @Benchmark
    public void correlate() {
        int i = next;
        next = i + 1 == events.length ? 0 : i + 1;
        event.copyFrom(events[i]); // the ring slot, refilled
        if ((i & 1023) == 0) {
            second++;
        }
        event.setStamp(second, 0, 0);
        correlator.process(event, rules[i], emitter);
    }
}
