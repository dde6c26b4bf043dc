package dev.logrouter.patterndb.correlate;

import dev.logrouter.core.event.EventField;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.template.Template;
import dev.logrouter.patterndb.ruleset.InheritMode;
import dev.logrouter.patterndb.ruleset.MessageDef;
import dev.logrouter.patterndb.ruleset.ValueDef;

import java.time.ZoneId;
import java.util.List;

/**
 * An action's {@code <message>} compiled: inherit mode, tag ids, and value templates with their targets, in
 * document order. The templates are prototypes: the correlation thread renders with {@link #copyTemplates()}.
 *
 * <p>Threads: immutable.
 */
public final class CompiledMessage {

    private final InheritMode inheritMode;
    private final int[] tags;
    private final EventField[] targets;
    private final Template[] values;

    private CompiledMessage(InheritMode inheritMode, int[] tags, EventField[] targets, Template[] values) {
        this.inheritMode = inheritMode;
        this.tags = tags;
        this.targets = targets;
        this.values = values;
    }

    /** Compiles {@code def}; a value that does not compile throws {@link IllegalArgumentException} naming it. */
    static CompiledMessage compile(MessageDef def, ZoneId zone, String where) {
        List<String> tagNames = def.tags() == null ? List.of() : def.tags();
        int[] tags = new int[tagNames.size()];
        for (int i = 0; i < tags.length; i++) {
            tags[i] = Tags.id(tagNames.get(i));
        }
        List<ValueDef> vs = def.values() == null ? List.of() : def.values();
        EventField[] targets = new EventField[vs.size()];
        Template[] values = new Template[vs.size()];
        for (int i = 0; i < values.length; i++) {
            ValueDef v = vs.get(i);
            targets[i] = EventField.of(v.name());
            values[i] = compileTemplate(v.template(), zone,
                    where + ", message value '" + v.name() + "' (line " + v.line() + ")");
        }
        InheritMode mode = def.inheritMode() == null ? InheritMode.NONE : def.inheritMode();
        return new CompiledMessage(mode, tags, targets, values);
    }

    /** A message with no values or tags, inherit mode none (a {@code <create-context>} without {@code <message>}). */
    static CompiledMessage empty() {
        return new CompiledMessage(InheritMode.NONE, new int[0], new EventField[0], new Template[0]);
    }

    static Template compileTemplate(String text, ZoneId zone, String where) {
        try {
            return Template.compile(text == null ? "" : text, zone);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": template does not compile: " + e.getMessage(), e);
        }
    }

    public InheritMode inheritMode() {
        return inheritMode;
    }

    int[] tags() {
        return tags;
    }

    EventField[] targets() {
        return targets;
    }

    /** Copies of the value templates for one thread. */
    Template[] copyTemplates() {
        Template[] c = new Template[values.length];
        for (int i = 0; i < c.length; i++) {
            c[i] = values[i].copy();
        }
        return c;
    }
}
