package dev.logrouter.patterndb.correlate;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.patterndb.classify.Classifier;
import dev.logrouter.patterndb.classify.CompiledRule;
import dev.logrouter.patterndb.ruleset.ActionDef;
import dev.logrouter.patterndb.ruleset.CreateContextDef;
import dev.logrouter.patterndb.ruleset.InheritMode;
import dev.logrouter.patterndb.ruleset.MessageDef;
import dev.logrouter.patterndb.ruleset.RuleDef;
import dev.logrouter.patterndb.ruleset.Scope;
import dev.logrouter.patterndb.ruleset.Trigger;
import dev.logrouter.patterndb.ruleset.ValueDef;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds rules from the model records and feeds a {@link Correlator} the way the classifier and the pdbtool driver
 * would: the event gets {@code .classifier.class}, {@code .classifier.rule_id}, its captures and the class tag; the
 * emitted order is expired messages, the input, generated messages.
 */
final class CorrelationFixture {

    /** 2024-01-01T10:00:00Z. */
    static final long T0 = 1_704_103_200L;

    final List<LogEvent> out = new ArrayList<>();
    final MetricGroup metrics = new MetricGroup("PatternDbCorrelator", "test");
    long wallMillis = (T0 + 86_400L * 365) * 1000L;
    final Correlator correlator;

    CorrelationFixture() {
        this(new CorrelatorOptions(1000, 0));
    }

    CorrelationFixture(CorrelatorOptions options) {
        correlator = new Correlator(options, metrics, () -> wallMillis);
    }

    // ------------------------------------------------------------------ model records

    static ValueDef value(String name, String template) {
        return new ValueDef(name, template, null, 1);
    }

    static MessageDef message(InheritMode mode, List<String> tags, ValueDef... values) {
        return new MessageDef(mode, tags, List.of(values), 1);
    }

    static ActionDef onMatch(String condition, MessageDef m) {
        return new ActionDef(Trigger.MATCH, condition, 0, 1, m, null, 1);
    }

    static ActionDef onTimeout(MessageDef m) {
        return new ActionDef(Trigger.TIMEOUT, null, 0, 1, m, null, 1);
    }

    static ActionDef rated(int n, int q, MessageDef m) {
        return new ActionDef(Trigger.MATCH, null, n, q, m, null, 1);
    }

    static ActionDef createContext(String id, long timeout, Scope scope, MessageDef m) {
        return new ActionDef(Trigger.MATCH, null, 0, 1, null, new CreateContextDef(id, timeout, scope, m, 1), 1);
    }

    static RuleDef rule(String id, String contextId, long timeout, Scope scope, List<ValueDef> values,
                        ActionDef... actions) {
        return new RuleDef(id, "cls", "test", contextId, timeout, scope, List.of(), List.of(), values,
                List.of(actions), List.of(), 1);
    }

    static CompiledRule compile(RuleDef def, int index) {
        try {
            return CompiledRule.compile(def, index, "test", ZoneOffset.UTC);
        } catch (dev.logrouter.patterndb.ruleset.PdbLoadException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    // ------------------------------------------------------------------ events

    /**
     * A message at {@code T0 + sec} with the given header fields (null = unset) classified by {@code rule}
     * (null = unmatched); {@code captures} are name, value pairs.
     */
    static LogEvent event(long sec, String host, String program, String pid, String msg, CompiledRule rule,
                          String... captures) {
        LogEvent e = new LogEvent();
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        String[] parts = {host, program, pid, msg};
        int[] fields = {LogEvent.HOST, LogEvent.PROGRAM, LogEvent.PID, LogEvent.MSG};
        int[] offs = new int[4];
        for (int i = 0; i < 4; i++) {
            offs[i] = raw.size();
            if (parts[i] != null) {
                raw.writeBytes(parts[i].getBytes(StandardCharsets.UTF_8));
            }
        }
        byte[] b = raw.toByteArray();
        e.setRaw(b, 0, b.length);
        for (int i = 0; i < 4; i++) {
            if (parts[i] != null) {
                int end = i < 3 ? offs[i + 1] : b.length;
                e.setField(fields[i], offs[i], end - offs[i]);
            }
        }
        e.setStamp(T0 + sec, 0, 0);
        if (rule != null) { // what the classifier writes, with the captures given here
            Classifier.markRule(e, rule);
            for (int i = 0; i + 1 < captures.length; i += 2) {
                e.fields().set(captures[i], captures[i + 1]);
            }
            Classifier.markTagsAndContext(e, rule, rule.correlates() ? rule.contextIdTemplate().copy() : null,
                    new ByteBuilder(64));
        } else {
            Classifier.markUnknown(e);
        }
        return e;
    }

    /** Feeds {@code e} in pdbtool order. */
    void feed(LogEvent e, CompiledRule rule) {
        correlator.advanceClock(e, out::add);
        List<LogEvent> generated = new ArrayList<>();
        correlator.process(e, rule, generated::add);
        out.add(e);
        out.addAll(generated);
    }

    void finish() {
        correlator.expireAll(out::add);
    }

    /** MESSAGE of every emitted event, in order; drains the output. */
    List<String> drain() {
        List<String> m = new ArrayList<>();
        for (LogEvent e : out) {
            m.add(msg(e));
        }
        out.clear();
        return m;
    }

    static String msg(LogEvent e) {
        return field(e, LogEvent.MSG);
    }

    static String field(LogEvent e, int f) {
        return e.isFieldSet(f)
                ? new String(e.fieldArray(f), e.fieldOffset(f), e.fieldLength(f), StandardCharsets.UTF_8) : null;
    }

    static List<String> tags(LogEvent e) {
        String[] t = new String[e.tagCount()];
        for (int i = 0; i < t.length; i++) {
            t[i] = Tags.nameString(e.tagAt(i));
        }
        return Arrays.asList(t);
    }
}
