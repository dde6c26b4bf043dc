package dev.logrouter.patterndb.correlate;

import dev.logrouter.core.filter.Filter;
import dev.logrouter.core.filter.FilterExpression;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.template.Template;
import dev.logrouter.patterndb.ruleset.ActionDef;
import dev.logrouter.patterndb.ruleset.CreateContextDef;
import dev.logrouter.patterndb.ruleset.RuleDef;
import dev.logrouter.patterndb.ruleset.Scope;
import dev.logrouter.patterndb.ruleset.Trigger;

import java.time.ZoneId;
import java.util.List;
import java.util.Map;

/**
 * An {@code <action>} compiled at load time: trigger, condition filter, rate limit and its bucket id
 * ({@code "ruleid:actionindex"}, spec 8.6), and either the {@code <message>} to generate or the
 * {@code <create-context>} (its message, context-id template and scope). An action with neither does nothing, as
 * in the reference.
 *
 * <p>Threads: immutable prototypes; the correlation thread evaluates with its own {@link #newInstance()}.
 */
public final class CompiledAction {

    private final ActionDef def;
    private final String rateKey;
    private final FilterExpression condition;
    private final CompiledMessage message;
    private final Template contextId;
    private final Scope contextScope;

    private CompiledAction(ActionDef def, String rateKey, FilterExpression condition,
                           CompiledMessage message, Template contextId, Scope contextScope) {
        this.def = def;
        this.rateKey = rateKey;
        this.condition = condition;
        this.message = message;
        this.contextId = contextId;
        this.contextScope = contextScope;
    }

    /**
     * Compiles {@code def}, action number {@code index} of {@code rule} (the index is part of its rate-limit key),
     * with receive-time date macros in {@code zone}. Throws {@link IllegalArgumentException} with a message naming
     * what is wrong when a template or the condition does not compile (the loader rejects the file).
     */
    public static CompiledAction compile(ActionDef def, int index, RuleDef rule, ZoneId zone) {
        String where = "rule '" + rule.id() + "' action " + index + " (line " + def.line() + ")";
        FilterExpression condition = null;
        if (def.condition() != null) {
            try {
                condition = FilterExpression.compile(def.condition(), Map.of(),
                        new MetricGroup("PatternDbAction", rule.id() + ":" + index), zone);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": condition does not compile: " + e.getMessage(), e);
            }
        }
        CompiledMessage message = null;
        Template contextId = null;
        Scope scope = null;
        CreateContextDef cc = def.createContext();
        if (cc != null) {
            if (cc.contextId() == null) {
                throw new IllegalArgumentException(where + ": <create-context> needs a context-id");
            }
            message = cc.message() == null ? CompiledMessage.empty()
                    : CompiledMessage.compile(cc.message(), zone, where + " <create-context>");
            contextId = CompiledMessage.compileTemplate(cc.contextId(), zone,
                    where + ", create-context context-id (line " + cc.line() + ")");
            scope = cc.scope() == null ? Scope.PROCESS : cc.scope();
        } else if (def.message() != null) {
            message = CompiledMessage.compile(def.message(), zone, where);
        }
        return new CompiledAction(def, rule.id() + ":" + index, condition, message, contextId, scope);
    }

    public ActionDef def() {
        return def;
    }

    public Trigger trigger() {
        return def.trigger() == null ? Trigger.MATCH : def.trigger();
    }

    /** {@code "ruleid:actionindex"}: the id part of the rate-limit bucket key. */
    public String rateKey() {
        return rateKey;
    }

    /** At most this many messages per {@link #ratePeriodSeconds()}; 0 = unlimited. */
    public int rateCount() {
        return Math.max(def.rateCount(), 0);
    }

    /** The rate's period in seconds (Q of {@code N/Q}; 0 or absent reads as 1). */
    public int ratePeriodSeconds() {
        return def.rateSeconds() <= 0 ? 1 : def.rateSeconds();
    }

    /** True when the action creates a context rather than emitting a message. */
    public boolean createsContext() {
        return contextId != null;
    }

    /** The message generated (emitted, or seeding the created context); null when the action does nothing. */
    public CompiledMessage message() {
        return message;
    }

    /** Scope of the context a create-context action makes; null otherwise. */
    public Scope contextScope() {
        return contextScope;
    }

    /** Per-thread state: the condition's filter and copies of the templates. */
    public Instance newInstance() {
        return new Instance(this);
    }

    /**
     * What one thread evaluates an action with.
     *
     * <p>Threads: belongs to the correlation thread.
     */
    public static final class Instance {
        final Filter condition;
        final Template[] values;
        final Template contextId;

        private Instance(CompiledAction a) {
            this.condition = a.condition == null ? null : a.condition.newFilter();
            this.values = a.message == null ? new Template[0] : a.message.copyTemplates();
            this.contextId = a.contextId == null ? null : a.contextId.copy();
        }
    }
}
