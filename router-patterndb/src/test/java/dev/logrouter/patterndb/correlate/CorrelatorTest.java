package dev.logrouter.patterndb.correlate;

import static dev.logrouter.patterndb.correlate.CorrelationFixture.T0;
import static dev.logrouter.patterndb.correlate.CorrelationFixture.compile;
import static dev.logrouter.patterndb.correlate.CorrelationFixture.createContext;
import static dev.logrouter.patterndb.correlate.CorrelationFixture.event;
import static dev.logrouter.patterndb.correlate.CorrelationFixture.field;
import static dev.logrouter.patterndb.correlate.CorrelationFixture.message;
import static dev.logrouter.patterndb.correlate.CorrelationFixture.msg;
import static dev.logrouter.patterndb.correlate.CorrelationFixture.onMatch;
import static dev.logrouter.patterndb.correlate.CorrelationFixture.onTimeout;
import static dev.logrouter.patterndb.correlate.CorrelationFixture.rated;
import static dev.logrouter.patterndb.correlate.CorrelationFixture.rule;
import static dev.logrouter.patterndb.correlate.CorrelationFixture.tags;
import static dev.logrouter.patterndb.correlate.CorrelationFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.patterndb.classify.CompiledRule;
import dev.logrouter.patterndb.ruleset.ActionDef;
import dev.logrouter.patterndb.ruleset.InheritMode;
import dev.logrouter.patterndb.ruleset.RuleDef;
import dev.logrouter.patterndb.ruleset.Scope;
import dev.logrouter.patterndb.ruleset.Trigger;

import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The correlation engine against the behaviour of spec section 8, with rules built from the model records. */
class CorrelatorTest {

    private static final String TIMEOUT_MSG = "timeout ${user} len=$(context-length) at1=${MESSAGE}@1";

    private static CompiledRule open(long timeout) {
        return compile(rule("open", "s-${user}", timeout, Scope.HOST, List.of(value("len", "$(context-length)")),
                onTimeout(message(InheritMode.CONTEXT, List.of("timed-out"), value("MESSAGE", TIMEOUT_MSG)))), 0);
    }

    @Test
    void aContextExpiresStrictlyAfterLastPlusTimeoutBeforeTheMessageThatMovesTheClock() {
        CorrelationFixture f = new CorrelationFixture();
        CompiledRule open = open(30);
        f.feed(event(0, "h", "login", "1", "open a", open, "user", "a"), open);
        f.feed(event(30, "h", "login", "2", "open a again", open, "user", "a"), open);
        assertThat(f.out.get(1).fields().get("len")).isEqualTo("2");
        f.feed(event(60, "h", "login", "3", "open b", open, "user", "b"), open); // a's target is 60: not yet
        f.feed(event(61, "h", "login", "4", "unrelated", null), null); // the clock passes 60: a expires first
        assertThat(f.drain()).containsExactly("open a", "open a again", "open b",
                "timeout a len=3 at1=open a again", "unrelated");
        assertThat(f.metrics.value("contextsExpired")).isEqualTo(1);
    }

    @Test
    void theClockNeverGoesBackwards() {
        CorrelationFixture f = new CorrelationFixture();
        CompiledRule open = open(30);
        f.feed(event(100, "h", "login", "1", "late", null), null);
        f.feed(event(0, "h", "login", "1", "open old", open, "user", "old"), open); // clock stays at 100: target 130
        f.feed(event(130, "h", "login", "1", "at 130", null), null);
        f.feed(event(131, "h", "login", "1", "at 131", null), null);
        assertThat(f.drain()).containsExactly("late", "open old", "at 130", "timeout old len=2 at1=open old", "at 131");
    }

    @Test
    void theClockIsTheEarlierOfMessageTimeAndWallTime() {
        CorrelationFixture f = new CorrelationFixture();
        f.wallMillis = (T0 + 10) * 1000L + 999;
        CompiledRule open = open(5);
        f.feed(event(1000, "h", "login", "1", "future", open, "user", "a"), open); // clock = T0 + 10: target T0+15
        assertThat(f.correlator.clock()).isEqualTo(T0 + 10);
        f.wallMillis = (T0 + 2000) * 1000L;
        f.feed(event(15, "h", "login", "1", "at 15", null), null);
        assertThat(f.drain()).containsExactly("future", "at 15");
        f.feed(event(16, "h", "login", "1", "at 16", null), null);
        assertThat(f.drain()).containsExactly("timeout a len=2 at1=future", "at 16");
    }

    @Test
    void timeoutActionsAreThoseOfTheRuleThatMatchedTheContextLast() {
        CorrelationFixture f = new CorrelationFixture();
        CompiledRule open = open(30);
        CompiledRule close = compile(rule("close", "s-${user}", 30, Scope.HOST, List.of()), 1);
        f.feed(event(0, "h", "login", "1", "open a", open, "user", "a"), open);
        f.feed(event(1, "h", "login", "1", "close a", close, "user", "a"), close);
        f.feed(event(2, "h", "login", "1", "open b", open, "user", "b"), open);
        f.finish();
        assertThat(f.drain()).containsExactly("open a", "close a", "open b", "timeout b len=2 at1=open b");
        assertThat(f.metrics.value("contextsExpired")).isEqualTo(2);
        assertThat(f.metrics.value("activeContexts")).isZero();
    }

    @Test
    void theKeyHoldsTheScopeFieldsButNotTheRule() {
        CorrelationFixture f = new CorrelationFixture();
        List<dev.logrouter.patterndb.ruleset.ValueDef> len = List.of(value("len", "$(context-length)"));
        CompiledRule process = compile(rule("p", "k", 600, null, len), 0); // default scope: process
        CompiledRule shareA = compile(rule("a", "shared", 600, Scope.GLOBAL, len), 1);
        CompiledRule shareB = compile(rule("b", "shared", 600, Scope.GLOBAL, len), 2);
        CompiledRule shareHost = compile(rule("c", "shared", 600, Scope.HOST, len), 3);
        LogEvent[] es = {
            event(0, "h1", "app", "1", "p1", process),
            event(1, "h1", "app", "2", "p2", process),
            event(2, "h1", "app", "1", "p3", process),
            event(3, "h1", "other", "1", "p4", process),
            event(4, "h1", "app", "1", "a1", shareA),
            event(5, "h2", "x", "9", "b1", shareB),
            event(6, "h1", "app", "1", "c1", shareHost),
            event(7, null, "app", "1", "p5", process),
        };
        CompiledRule[] rs = {process, process, process, process, shareA, shareB, shareHost, process};
        for (int i = 0; i < es.length; i++) {
            f.feed(es[i], rs[i]);
        }
        assertThat(es).extracting(e -> e.fields().get("len")).containsExactly("1", "1", "2", "1", "1", "2", "1", "1");
        assertThat(f.metrics.value("activeContexts")).isEqualTo(6);
        assertThat(f.correlator.liveKeys()).contains(new ContextKey(Scope.GLOBAL, "shared", "", "", ""),
                new ContextKey(Scope.HOST, "shared", "h1", "", ""),
                new ContextKey(Scope.PROCESS, "k", "", "app", "1"));
    }

    @Test
    void ruleValuesAreEvaluatedOverTheContextInOrder() {
        CorrelationFixture f = new CorrelationFixture();
        CompiledRule r = compile(rule("r", "c-${user}", 60, Scope.GLOBAL, List.of(
                value("len", "$(context-length)"),
                value("prev", "${MESSAGE}@1"),
                value("both", "${len}/${prev}/${prev}@1/$CONTEXT_ID"),
                value("MESSAGE", "rewritten ${MESSAGE}"))), 0);
        LogEvent a = event(0, "h", "p", "1", "first", r, "user", "u");
        LogEvent b = event(1, "h", "p", "1", "second", r, "user", "u");
        f.feed(a, r);
        f.feed(b, r);
        assertThat(a.fields().get("both")).isEqualTo("1///c-u");
        assertThat(b.fields().get("both")).isEqualTo("2/rewritten first/" + "/c-u");
        assertThat(msg(b)).isEqualTo("rewritten second");
        assertThat(b.fields().get(".classifier.context_id")).isEqualTo("c-u");
    }

    @Test
    void anActionMessageIsItselfAtZeroAndCountsInTheContextLength() {
        CorrelationFixture f = new CorrelationFixture();
        CompiledRule r = compile(rule("close", "c", 60, Scope.PROGRAM, List.of(),
                onMatch("\"$(context-length)\" ne \"1\"", message(InheritMode.LAST_MESSAGE, List.of(),
                        value("MESSAGE", "len=$(context-length) at0=${MESSAGE}@0 at1=${MESSAGE}@1 at2=${MESSAGE}@2 "
                                + "at3=${MESSAGE}@3"))),
                onMatch("\"$(context-length)\" ne \"1\"", message(InheritMode.NONE, List.of("gen"),
                        value("MESSAGE", "plain=[${MESSAGE}] pid=[${PID}] host=${HOST} program=${PROGRAM}")))), 0);
        f.feed(event(0, "h", "app", "7", "one", r), r);
        f.feed(event(1, "h", "app", "8", "two", r), r);
        List<LogEvent> out = List.copyOf(f.out);
        assertThat(f.drain()).containsExactly("one", "two", "len=3 at0=two at1=two at2=one at3=",
                "plain=[] pid=[] host=h program=app");
        LogEvent none = out.get(3);
        assertThat(none.hasFlag(LogEvent.FLAG_GENERATED)).isTrue();
        assertThat(out.get(1).hasFlag(LogEvent.FLAG_GENERATED)).isFalse();
        assertThat(tags(none)).containsExactly("gen");
        assertThat(none.isFieldSet(LogEvent.PID)).isFalse();
        assertThat(none.stampEpochSecond()).isEqualTo(T0 + 1);
        assertThat(f.metrics.value("messagesGenerated")).isEqualTo(2);
    }

    @Test
    void withoutContextAnActionSeesTheTriggerAndItselfAndNeverTimesOut() {
        CorrelationFixture f = new CorrelationFixture();
        CompiledRule r = compile(rule("noctx", null, 0, null, List.of(),
                onMatch(null, message(InheritMode.NONE, List.of(),
                        value("MESSAGE", "for ${who}@1; len=$(context-length); at0=[${MESSAGE}@0] at1=[${MESSAGE}@1] "
                                + "plain=[${MESSAGE}] id=[$CONTEXT_ID]"))),
                onTimeout(message(InheritMode.NONE, List.of(), value("MESSAGE", "never")))), 0);
        f.feed(event(0, "h", "app", "1", "hello world", r, "who", "world"), r);
        f.finish();
        assertThat(f.drain()).containsExactly("hello world",
                "for world; len=2; at0=[] at1=[hello world] plain=[] id=[]");
        assertThat(f.metrics.value("activeContexts")).isZero();
    }

    @Test
    void inheritModesBuildTheBaseMessage() {
        CorrelationFixture f = new CorrelationFixture();
        ActionDef[] actions = new ActionDef[4];
        InheritMode[] modes = {InheritMode.LAST_MESSAGE, InheritMode.NONE, InheritMode.CONTEXT, null};
        for (int i = 0; i < 4; i++) {
            actions[i] = onMatch("\"${step}\" eq \"two\"", message(modes[i], List.of("act" + i),
                    value("MESSAGE", "mode " + modes[i])));
        }
        CompiledRule r = compile(rule("inh", "c", 100, Scope.PROGRAM, List.of(value("rv", "rv-${step}")), actions), 0);
        LogEvent one = event(0, "h", "app", "1", "one", r, "step", "one", "key", "k1");
        one.fields().set(".SDATA.ex@1.first", "1");
        f.feed(one, r);
        LogEvent two = event(1, "h", "app", "2", "two", r, "step", "two", "key", "k2");
        two.setSource(3, "net-b".getBytes(java.nio.charset.StandardCharsets.UTF_8), LogEvent.FORMAT_AUTO, 0L);
        two.setStamp(T0 + 1, 3_000, 0, 3); // came as hh:mm:ss.003: every base keeps the 3 digits
        f.feed(two, r);
        List<LogEvent> gen = f.out.subList(2, 6);
        LogEvent last = gen.get(0);
        LogEvent none = gen.get(1);
        LogEvent context = gen.get(2);
        LogEvent absent = gen.get(3);
        assertThat(field(last, LogEvent.PID)).isEqualTo("2");
        assertThat(last.fields().get("key")).isEqualTo("k2");
        assertThat(last.fields().get(".SDATA.ex@1.first")).isNull();
        assertThat(tags(last)).containsExactly(".classifier.cls", "act0");
        assertThat(field(none, LogEvent.HOST)).isEqualTo("h");
        assertThat(field(none, LogEvent.PROGRAM)).isEqualTo("app");
        assertThat(none.isFieldSet(LogEvent.PID)).isFalse();
        assertThat(none.fields().size()).isZero();
        assertThat(tags(none)).containsExactly("act1");
        // a new message still comes from the source of the one it was generated for (routes select on it)
        assertThat(none.sourceId()).isEqualTo(3);
        assertThat(new String(none.sourceName(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("net-b");
        assertThat(context.fields().get("key")).isEqualTo("k2");
        assertThat(context.fields().get("rv")).isEqualTo("rv-two");
        assertThat(context.fields().get(".SDATA.ex@1.first")).isEqualTo("1");
        assertThat(tags(context)).containsExactly(".classifier.cls", "act2");
        assertThat(msg(absent)).isEqualTo("mode null");
        assertThat(absent.fields().size()).isZero();
        for (LogEvent g : gen) {
            assertThat(g.stampEpochSecond()).isEqualTo(T0 + 1);
            assertThat(g.stampMicros()).isEqualTo(3_000);
            assertThat(g.stampFracDigits()).isEqualTo(3);
        }
    }

    @Test
    void rateLimitsUseTheFixedPointBucketPerRuleScope() {
        CorrelationFixture f = new CorrelationFixture();
        CompiledRule r = compile(rule("rated", null, 0, null, List.of(),
                rated(2, 60, message(InheritMode.LAST_MESSAGE, List.of(), value("MESSAGE", "alert ${n}")))), 0);
        long[] at = {0, 1, 2, 3, 29, 31, 32, 300, 300, 300};
        String[] pid = {"1", "1", "1", "2", "1", "1", "1", "1", "1", "1"};
        for (int i = 0; i < at.length; i++) {
            f.feed(event(at[i], "h", "app", pid[i], "event " + (i + 1), r, "n", Integer.toString(i + 1)), r);
        }
        assertThat(f.drain()).filteredOn(m -> m.startsWith("alert"))
                .containsExactly("alert 1", "alert 2", "alert 4", "alert 6", "alert 8", "alert 9");
        assertThat(f.metrics.value("actionsRateLimited")).isEqualTo(4);
    }

    @Test
    void createContextSeedsAContextTimedByTheCreatingRule() {
        CorrelationFixture f = new CorrelationFixture();
        ActionDef seed = createContext("job-${job}", 60, Scope.PROGRAM, message(InheritMode.LAST_MESSAGE,
                List.of("seed"), value("MESSAGE", "created for ${job}"), value("by", "start")));
        ActionDef never = onTimeout(message(InheritMode.CONTEXT, List.of(),
                value("MESSAGE", "job ${job} never finished; len=$(context-length)")));
        CompiledRule quick = compile(rule("start", null, 0, null, List.of(), seed, never), 0);
        CompiledRule slow = compile(rule("start60", null, 60, null, List.of(), seed, never), 1);
        CompiledRule end = compile(rule("end", "job-${job}", 60, Scope.PROGRAM, List.of(
                value("len", "$(context-length)"), value("seed", "${MESSAGE}@1"), value("by", "${by}@1"))), 2);
        f.feed(event(0, "h", "cron", "10", "job 1 started", quick, "job", "1"), quick);
        f.feed(event(1, "h", "cron", "11", "job 1 finished", end, "job", "1"), end);
        f.feed(event(100, "h", "cron", "12", "job 2 started", slow, "job", "2"), slow);
        LogEvent finished = event(130, "h", "cron", "13", "job 2 finished", end, "job", "2");
        f.feed(finished, end);
        assertThat(f.drain()).containsExactly("job 1 started", "job 1 never finished; len=2", "job 1 finished",
                "job 2 started", "job 2 finished");
        assertThat(finished.fields().get("len")).isEqualTo("2");
        assertThat(finished.fields().get("seed")).isEqualTo("created for 2");
        assertThat(finished.fields().get("by")).isEqualTo("start");
    }

    @Test
    void theContextCapBoundsAFloodAndCountsWhatItDrops() {
        CorrelationFixture f = new CorrelationFixture(new CorrelatorOptions(3, 0));
        CompiledRule r = compile(rule("r", "id-${n}", 10, Scope.GLOBAL, List.of(value("len", "$(context-length)"),
                value("id", "$CONTEXT_ID"))), 0);
        for (int i = 0; i < 10; i++) {
            LogEvent e = event(0, "h", "p", "1", "m" + i, r, "n", Integer.toString(i));
            f.feed(e, r);
            assertThat(e.fields().get("len")).isEqualTo("1");
        }
        LogEvent again = event(1, "h", "p", "1", "again", r, "n", "0");
        f.feed(again, r);
        assertThat(again.fields().get("len")).isEqualTo("2");
        assertThat(f.metrics.value("activeContexts")).isEqualTo(3);
        assertThat(f.metrics.value("contextsCreated")).isEqualTo(3);
        assertThat(f.metrics.value("contextsRefused")).isEqualTo(7);
        assertThat(f.metrics.value("contextsRefused")).isEqualTo(7);
        assertThat(f.metrics.value("activeContexts")).isEqualTo(3);
        f.feed(event(20, "h", "p", "1", "later", r, "n", "99"), r); // the others expired: room again
        assertThat(f.metrics.value("activeContexts")).isEqualTo(1);
    }

    @Test
    void theMessageCapKeepsTheNewestMessages() {
        CorrelationFixture f = new CorrelationFixture(new CorrelatorOptions(10, 3));
        CompiledRule r = compile(rule("r", "c", 100, Scope.GLOBAL, List.of(value("len", "$(context-length)"),
                value("oldest", "${MESSAGE}@2"))), 0);
        LogEvent e = null;
        for (int i = 1; i <= 5; i++) {
            e = event(i, "h", "p", "1", "m" + i, r);
            f.feed(e, r);
        }
        assertThat(e.fields().get("len")).isEqualTo("3");
        assertThat(e.fields().get("oldest")).isEqualTo("m3");
        assertThat(f.metrics.value("contextMessagesTrimmed")).isEqualTo(2);
    }

    @Test
    void expireAllRunsInTargetOrderNewestTimerFirstAndRestoresTheClock() {
        CorrelationFixture f = new CorrelationFixture();
        CompiledRule r = compile(rule("r", "${user}", 30, Scope.GLOBAL, List.of(),
                onTimeout(message(InheritMode.NONE, List.of(), value("MESSAGE", "${user}@1 at $UNIXTIME")))), 0);
        f.feed(event(50, "h", "p", "1", "c", r, "user", "c"), r);
        f.feed(event(10, "h", "p", "1", "a", r, "user", "a"), r); // clock stays at 50: same target as c
        f.feed(event(60, "h", "p", "1", "b", r, "user", "b"), r);
        long clock = f.correlator.clock();
        f.finish();
        // same target: the timer set last fires first (the wheel prepends); a none message has its trigger's stamp
        assertThat(f.drain()).containsExactly("c", "a", "b", "a at " + (T0 + 10), "c at " + (T0 + 50),
                "b at " + (T0 + 60));
        assertThat(f.correlator.clock()).isEqualTo(clock);
    }

    @Test
    void idleTicksAdvanceTheClockByWallTime() {
        CorrelationFixture f = new CorrelationFixture();
        f.wallMillis = T0 * 1000L;
        CompiledRule open = open(5);
        f.feed(event(0, "h", "login", "1", "open a", open, "user", "a"), open);
        f.drain();
        f.wallMillis += 3_500;
        f.correlator.tick(f.out::add);
        assertThat(f.correlator.clock()).isEqualTo(T0 + 3);
        assertThat(f.out).isEmpty();
        f.wallMillis += 2_600; // 6.1 s since the message: the fraction carried over makes it 6
        f.correlator.tick(f.out::add);
        assertThat(f.correlator.clock()).isEqualTo(T0 + 6);
        assertThat(f.drain()).containsExactly("timeout a len=2 at1=open a");
    }

    @Test
    void compileErrorsNameTheRuleAndTheAction() {
        RuleDef bad = rule("r1", null, 0, null, List.of(),
                onMatch("\"a\" eq", message(InheritMode.NONE, List.of(), value("MESSAGE", "x"))));
        assertThatThrownBy(() -> CompiledAction.compile(bad.actions().get(0), 0, bad, ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rule 'r1' action 0").hasMessageContaining("condition does not compile");
        RuleDef badValue = rule("r2", null, 0, null, List.of(), onMatch(null,
                message(InheritMode.NONE, List.of(), value("MESSAGE", "$(nosuch-function)"))));
        assertThatThrownBy(() -> CompiledAction.compile(badValue.actions().get(0), 0, badValue, ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rule 'r2' action 0").hasMessageContaining("'MESSAGE'")
                .hasMessageContaining("unknown template function");
        RuleDef twoActions = rule("r3", null, 0, null, List.of(),
                new ActionDef(Trigger.MATCH, null, 0, 1, null, null, 1),
                onMatch(null, message(InheritMode.NONE, List.of(), value("v", "${x"))));
        assertThatThrownBy(() -> CompiledAction.compile(twoActions.actions().get(1), 1, twoActions, ZoneOffset.UTC))
                .hasMessageContaining("rule 'r3' action 1");
    }
}
