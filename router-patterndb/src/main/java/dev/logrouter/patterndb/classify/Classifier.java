package dev.logrouter.patterndb.classify;

import dev.logrouter.core.event.EventField;
import dev.logrouter.core.event.FieldName;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Template;
import dev.logrouter.patterndb.radix.RadixScratch;

import java.nio.charset.StandardCharsets;

/**
 * Classifies events against one {@link PatternDb} (spec 7): selects the program by PROGRAM in the program
 * tree, looks MSG up in that program's rule tree, and writes the outcome into the event.
 *
 * <p>Threads: one instance per thread (parse worker, CLI); keeps reusable capture buffers, its own copies of
 * the rules' templates (made on a rule's first match) and a render buffer.
 */
public final class Classifier {

    static final FieldName CLASS = FieldName.of(".classifier.class");
    static final FieldName RULE_ID = FieldName.of(".classifier.rule_id");
    /** Where a correlating rule's context id is written (spec 7). */
    public static final FieldName CONTEXT_ID = FieldName.of(".classifier.context_id");
    /** The tag of a message no rule matched. */
    public static final int UNKNOWN_TAG = Tags.id(".classifier.unknown");
    private static final byte[] UNKNOWN = "unknown".getBytes(StandardCharsets.US_ASCII);

    private final PatternDb db;
    private final RadixScratch scratch = new RadixScratch();
    private final ByteBuilder out = new ByteBuilder(256);
    /** Per rule: this thread's copies of its value templates (null until the rule first matches). */
    private final Template[][] values;
    private final Template[] contextIds;

    Classifier(PatternDb db) {
        this.db = db;
        this.values = new Template[db.ruleCount()][];
        this.contextIds = new Template[db.ruleCount()];
    }

    /**
     * Classifies {@code e} (program string = PROGRAM, message string = MSG) and writes what spec 7 says:
     * program-tree captures; on no match {@code .classifier.class=unknown} and tag {@code .classifier.unknown};
     * on a match {@code .classifier.class}, {@code .classifier.rule_id}, the captures, the class tag and the
     * rule's tags, {@code .classifier.context_id} for a correlating rule, and the rule's values when the rule
     * does not correlate (a correlating rule's values are evaluated over its context by the correlator).
     * Returns the matched rule or null. Allocates nothing per message once warm.
     */
    public CompiledRule classify(LogEvent e) {
        RadixScratch s = scratch;
        Program program = db.programTree().lookup(e.fieldArray(LogEvent.PROGRAM), e.fieldOffset(LogEvent.PROGRAM),
                e.fieldLength(LogEvent.PROGRAM), s);
        CompiledRule rule = null;
        if (program != null) {
            byte[] pb = e.fieldArray(LogEvent.PROGRAM);
            storeCaptures(e, pb, db.programCaptureFields(), s);
            byte[] mb = e.fieldArray(LogEvent.MSG);
            rule = program.rules.lookup(mb, e.fieldOffset(LogEvent.MSG), e.fieldLength(LogEvent.MSG), s);
            if (rule != null) {
                apply(e, rule, mb, program, s);
            }
        }
        if (rule == null) {
            markUnknown(e);
        }
        return rule;
    }

    /** What no match writes: {@code .classifier.class=unknown} and tag {@code .classifier.unknown}. */
    public static void markUnknown(LogEvent e) {
        e.fields().set(CLASS, UNKNOWN, 0, UNKNOWN.length, 0);
        e.addTag(UNKNOWN_TAG);
    }

    /** What a match writes before its captures: {@code .classifier.class} and {@code .classifier.rule_id}. */
    public static void markRule(LogEvent e, CompiledRule rule) {
        byte[] cls = rule.classBytes();
        e.fields().set(CLASS, cls, 0, cls.length, 0);
        byte[] id = rule.ruleIdBytes();
        e.fields().set(RULE_ID, id, 0, id.length, 0);
    }

    /**
     * What a match writes after its captures (which the context-id template may read): the class tag and the rule's
     * tags in place of {@code .classifier.unknown}, and, for a correlating rule, {@code .classifier.context_id}
     * rendered with {@code contextId} (the caller's copy of the rule's template) through {@code scratch}.
     */
    public static void markTagsAndContext(LogEvent e, CompiledRule rule, Template contextId, ByteBuilder scratch) {
        e.removeTag(UNKNOWN_TAG);
        e.addTag(rule.classTag());
        for (int i = 0, n = rule.tagCount(); i < n; i++) {
            e.addTag(rule.tag(i));
        }
        if (rule.correlates()) {
            scratch.reset();
            contextId.render(e, scratch);
            e.fields().set(CONTEXT_ID, scratch.array(), 0, scratch.length(), 0);
        }
    }

    private static void storeCaptures(LogEvent e, byte[] src, EventField[] fields, RadixScratch s) {
        for (int i = 0, n = s.captureCount(); i < n; i++) {
            fields[s.captureName(i)].set(e, src, s.captureOffset(i), s.captureLength(i));
        }
    }

    private void apply(LogEvent e, CompiledRule rule, byte[] msg, Program program, RadixScratch s) {
        markRule(e, rule);
        storeCaptures(e, msg, program.captureFields, s);
        int r = rule.index();
        Template contextId = null;
        if (rule.correlates()) {
            contextId = contextIds[r];
            if (contextId == null) {
                contextId = rule.contextIdTemplate().copy();
                contextIds[r] = contextId;
            }
        }
        markTagsAndContext(e, rule, contextId, out);
        if (rule.correlates()) {
            return; // its values are evaluated over its context by the correlator
        }
        int n = rule.valueCount();
        if (n == 0) {
            return;
        }
        Template[] ts = values[r];
        if (ts == null) {
            ts = new Template[n];
            for (int i = 0; i < n; i++) {
                ts[i] = rule.valueTemplate(i).copy();
            }
            values[r] = ts;
        }
        for (int i = 0; i < n; i++) {
            out.reset();
            ts[i].render(e, out);
            rule.setValue(e, i, out.array(), 0, out.length());
        }
    }
}
