package dev.logrouter.patterndb.classify;

import dev.logrouter.core.event.EventField;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.template.Template;
import dev.logrouter.patterndb.correlate.CompiledAction;
import dev.logrouter.patterndb.ruleset.ActionDef;
import dev.logrouter.patterndb.ruleset.PdbLoadException;
import dev.logrouter.patterndb.ruleset.RuleDef;
import dev.logrouter.patterndb.ruleset.ValueDef;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A rule of a built {@link PatternDb}: its definition and what was compiled from it at load time — the bytes of
 * its id and class, the class tag and its tags as {@link Tags} ids, its {@code <values>} as template prototypes
 * with the fields they write, its {@code context-id} template, and its actions.
 *
 * <p>Templates are compiled from the syslog-ng text as written (router-core's templates read {@code @N} and
 * {@code @@} after a reference as syslog-ng does); on the matching message alone {@code @N} for N &ge; 1 reads
 * as empty. The correlator evaluates a correlating rule's values over its context with its own compilation
 * of {@code def().values()}.
 *
 * <p>The class tag is {@code .classifier.<class>} cut to 31 bytes, as the reference formats it into a 32-byte
 * buffer (quirk 6); {@code .classifier.class} keeps the whole class.
 *
 * <p>Threads: immutable; shared by every thread. Templates it holds are prototypes: each thread renders
 * with its own {@code Template.copy()}.
 */
public final class CompiledRule {

    private static final int CLASS_TAG_MAX = 31;

    private final RuleDef def;
    private final int index;
    private final List<CompiledAction> actions;
    private final byte[] ruleId;
    private final byte[] ruleClass;
    private final int classTag;
    private final int[] tags;
    private final EventField[] valueFields;
    private final Template[] valueTemplates;
    private final Template contextId;

    private CompiledRule(RuleDef def, int index, List<CompiledAction> actions, EventField[] valueFields,
                         Template[] valueTemplates, Template contextId) {
        this.def = def;
        this.index = index;
        this.actions = List.copyOf(actions);
        this.ruleId = def.id().getBytes(StandardCharsets.UTF_8);
        this.ruleClass = def.effectiveClass().getBytes(StandardCharsets.UTF_8);
        this.classTag = Tags.id(classTagName(def.effectiveClass()));
        this.tags = def.tags().stream().filter(t -> !t.isEmpty()).mapToInt(Tags::id).toArray();
        this.valueFields = valueFields;
        this.valueTemplates = valueTemplates;
        this.contextId = contextId;
    }

    /**
     * Compiles {@code def} as rule number {@code index} of the file {@code source}, its templates with
     * receive-time date macros in {@code zone}; a template, condition or action that does not compile rejects
     * the file with a {@link PdbLoadException} naming the line.
     */
    public static CompiledRule compile(RuleDef def, int index, String source, ZoneId zone) throws PdbLoadException {
        int n = def.values().size();
        EventField[] fields = new EventField[n];
        Template[] templates = new Template[n];
        for (int i = 0; i < n; i++) {
            ValueDef v = def.values().get(i);
            try {
                fields[i] = EventField.of(v.name());
                templates[i] = Template.compile(v.template(), zone);
            } catch (IllegalArgumentException e) {
                throw new PdbLoadException(source, v.line(), 0, "Error compiling value template, rule=" + def.id()
                        + ", name=" + v.name() + ", value=" + v.template() + ", error=" + e.getMessage());
            }
        }
        Template contextId = null;
        if (def.contextId() != null) {
            try {
                contextId = Template.compile(def.contextId(), zone);
            } catch (IllegalArgumentException e) {
                throw new PdbLoadException(source, def.line(), 0, "Error compiling context-id template, rule="
                        + def.id() + ", context-id=" + def.contextId() + ", error=" + e.getMessage());
            }
        }
        List<CompiledAction> actions = new ArrayList<>();
        for (int i = 0; i < def.actions().size(); i++) {
            ActionDef a = def.actions().get(i);
            try {
                actions.add(CompiledAction.compile(a, i, def, zone));
            } catch (IllegalArgumentException e) {
                throw new PdbLoadException(source, a.line(), 0, "Error compiling action of rule " + def.id() + ": "
                        + e.getMessage());
            }
        }
        return new CompiledRule(def, index, actions, fields, templates, contextId);
    }

    /** {@code .classifier.<class>} cut to 31 bytes (the reference's 32-byte buffer). */
    static String classTagName(String ruleClass) {
        byte[] b = (".classifier." + ruleClass).getBytes(StandardCharsets.UTF_8);
        if (b.length <= CLASS_TAG_MAX) {
            return new String(b, StandardCharsets.UTF_8);
        }
        return new String(Arrays.copyOf(b, CLASS_TAG_MAX), StandardCharsets.UTF_8);
    }

    /** The rule as loaded. */
    public RuleDef def() {
        return def;
    }

    /** Position of the rule in {@link PatternDb#rules()} (dense, 0-based). */
    public int index() {
        return index;
    }

    /** True when the rule has a {@code context-id}. */
    public boolean correlates() {
        return def.contextId() != null;
    }

    /** The rule's actions in document order, compiled. */
    public List<CompiledAction> actions() {
        return actions;
    }

    /** True when the correlation stage must see messages this rule matched (context-id or any action). */
    public boolean needsCorrelation() {
        return correlates() || !actions.isEmpty();
    }

    /** The rule id as UTF-8 bytes (shared: do not modify). */
    public byte[] ruleIdBytes() {
        return ruleId;
    }

    /** The class written to {@code .classifier.class} ({@code system} when the rule has none), UTF-8 (shared). */
    public byte[] classBytes() {
        return ruleClass;
    }

    /** Tag id of {@code .classifier.<class>} (31 bytes at most). */
    public int classTag() {
        return classTag;
    }

    /** Number of tags of the rule's {@code <tags>} (empty names dropped). */
    public int tagCount() {
        return tags.length;
    }

    public int tag(int i) {
        return tags[i];
    }

    /** Number of {@code <values>}. */
    public int valueCount() {
        return valueFields.length;
    }

    /** Where value {@code i} is written. */
    public EventField valueField(int i) {
        return valueFields[i];
    }

    /** Prototype of value {@code i}'s template: render with a per-thread {@link Template#copy()}. */
    public Template valueTemplate(int i) {
        return valueTemplates[i];
    }

    /** Prototype of the context-id template, null when the rule does not correlate. */
    public Template contextIdTemplate() {
        return contextId;
    }

    /** Writes value {@code i} (already rendered into {@code src[off, off + len)}) into {@code e}. */
    public void setValue(LogEvent e, int i, byte[] src, int off, int len) {
        valueFields[i].set(e, src, off, len);
    }

    @Override
    public String toString() {
        return def.id();
    }
}
