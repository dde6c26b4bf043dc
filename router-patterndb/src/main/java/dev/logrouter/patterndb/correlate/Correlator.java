package dev.logrouter.patterndb.correlate;

import dev.logrouter.core.event.EventField;
import dev.logrouter.core.event.EventContext;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Template;
import dev.logrouter.patterndb.classify.Classifier;
import dev.logrouter.patterndb.classify.CompiledRule;
import dev.logrouter.patterndb.ruleset.InheritMode;
import dev.logrouter.patterndb.ruleset.Scope;
import dev.logrouter.patterndb.ruleset.Trigger;

import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.WeakHashMap;
import java.util.function.LongSupplier;

/**
 * The PatternDB correlation engine (spec 8), single-threaded: contexts, their timers on the message clock, rule
 * values over a context, match and timeout actions with conditions and rate limits, generated messages and
 * {@code <create-context>}.
 *
 * <p>What it expects: the classifier has already written the captures, tags, {@code .classifier.*} values and, for a
 * correlating rule, {@code .classifier.context_id} into the event, and has left the values of a correlating rule to
 * the correlator (they are evaluated over the context here). The caller emits the input event itself.
 *
 * <p>The clock (spec 8.3) is in whole seconds: every message moves it to {@code min(message stamp, wall clock)},
 * never backwards ({@link #advanceClock}, also done by {@link #process}); {@link #tick} adds the wall-clock time that
 * passed while idle. A context whose timer target is T expires when the clock moves past T; its timeout actions run
 * with the clock at T, as the reference's timer wheel runs them. Contexts with the same target expire newest timer
 * first (the wheel prepends to a slot's list). Expired contexts' messages go to the emitter before anything of the
 * message that moved the clock.
 *
 * <p>Memory is bounded by {@link CorrelatorOptions}: at most {@code maxContexts} live contexts (a new one beyond it
 * is not created and counted; the message is then processed as if its rule did not correlate), at most
 * {@code maxContextMessages} messages per context (oldest dropped, counted), and as many rate-limit buckets as
 * contexts ({@link RateLimiter}).
 *
 * <p>Differences from the reference, all at edges: a {@code <create-context>} that hits a live context's key
 * replaces it in the lookup table while the replaced context still expires (and runs its timeout actions) on its
 * own timer, but its expiry no longer removes the replacement (the reference's does); {@code $(context-length)}
 * of a capped context stops growing.
 *
 * <p>Threads: one correlation thread calls every method; the counters (in its MetricGroup) may be read by
 * any thread (JMX).
 */
public final class Correlator {

    /**
     * Receives the messages the correlator generates (action messages, timeout messages). Each event passed is a new
     * object owned by the receiver from then on, flagged {@link LogEvent#FLAG_GENERATED}.
     *
     * <p>Threads: called on the correlation thread, inside the {@link Correlator} call that generated the message.
     */
    @FunctionalInterface
    public interface Emitter {

        void emit(LogEvent generated);
    }


    /** Earliest target first; for the same target the timer set last first (the reference's wheel prepends). */
    private static final Comparator<Context> BY_EXPIRY = (a, b) -> {
        int c = Long.compare(a.expiresAt, b.expiresAt);
        return c != 0 ? c : Long.compare(b.timerSeq, a.timerSeq);
    };

    private final CorrelatorOptions options;
    private final LongSupplier wallMillis;
    private final Map<ContextKey, Context> contexts = new HashMap<>();
    private final TreeSet<Context> timers = new TreeSet<>(BY_EXPIRY);
    private final RateLimiter rates;
    private final Map<CompiledAction, CompiledAction.Instance> actions = new WeakHashMap<>();
    private final Map<CompiledRule, RuleValues> rules = new WeakHashMap<>();
    private final PairContext pair = new PairContext();
    private final ByteBuilder scratch = new ByteBuilder(256);

    private long clock = Long.MIN_VALUE;
    private long lastTickMillis = Long.MIN_VALUE;
    private long timerSeq;
    private volatile int active;

    private final Counter created;
    private final Counter expired;
    private final Counter generated;
    private final Counter rateLimited;
    private final Counter droppedByCap;
    private final Counter trimmed;

    /**
     * @param metrics    where the counters are declared (contextsCreated, contextsExpired, messagesGenerated,
     *                   actionsRateLimited, contextsRefused, contextMessagesTrimmed) with the gauge activeContexts
     * @param wallMillis the wall clock in epoch milliseconds ({@code System::currentTimeMillis} outside tests)
     */
    public Correlator(CorrelatorOptions options, MetricGroup metrics, LongSupplier wallMillis) {
        this.options = options;
        this.wallMillis = wallMillis;
        this.rates = new RateLimiter(options.maxContexts());
        this.created = metrics.counter("contextsCreated", "Correlation contexts created (by a rule or <create-context>)");
        this.expired = metrics.counter("contextsExpired", "Correlation contexts that timed out (or were expired at end)");
        this.generated = metrics.counter("messagesGenerated", "Messages generated by PatternDB actions and emitted");
        this.rateLimited = metrics.counter("actionsRateLimited", "Triggered actions suppressed by their rate limit");
        this.droppedByCap = metrics.counter("contextsRefused",
                "New correlation contexts not created because the live-context cap was reached");
        this.trimmed = metrics.counter("contextMessagesTrimmed",
                "Oldest messages dropped from a context that reached its message cap");
        metrics.gauge("activeContexts", "Live correlation contexts", () -> active);
    }

    /** Options, a private metric group and the system wall clock. */
    public Correlator(CorrelatorOptions options) {
        this(options, new MetricGroup("PatternDbCorrelator", "correlator"), System::currentTimeMillis);
    }

    /** At most {@code maxContexts} live contexts, other options default, the system wall clock. */
    public Correlator(int maxContexts, MetricGroup metrics) {
        this(new CorrelatorOptions(maxContexts, CorrelatorOptions.DEFAULT_MAX_CONTEXT_MESSAGES), metrics,
                System::currentTimeMillis);
    }

    // ---------------------------------------------------------------------------------------------- clock

    /**
     * Moves the clock to {@code min(epochSecond, wall clock)} unless that is earlier than it already is, and
     * expires the contexts whose timers that passes, emitting their timeout messages to {@code out}. Called for
     * every message, matched or not, before the message goes on (spec 8.3).
     */
    public void advanceClock(long epochSecond, Emitter out) {
        long wall = wallMillis.getAsLong();
        lastTickMillis = wall;
        setTime(Math.min(epochSecond, Math.floorDiv(wall, 1000L)), out);
    }

    /** {@link #advanceClock(long, Emitter)} with the second {@code e} sets: its stamp, else its receive time. */
    public void advanceClock(LogEvent e, Emitter out) {
        advanceClock(messageSecond(e), out);
    }

    /**
     * The idle timer (call about once a second while no message arrives): advances the clock by the whole seconds
     * of wall-clock time since the last message or tick, as {@code pattern_db_timer_tick} does (a fraction of a
     * second left over counts towards the next tick; the reference waits for more than one second, logrouter for
     * one).
     */
    public void tick(Emitter out) {
        tickAt(wallMillis.getAsLong(), out);
    }

    private void tickAt(long now, Emitter out) {
        if (lastTickMillis == Long.MIN_VALUE) {
            lastTickMillis = now;
            return;
        }
        long diff = now - lastTickMillis;
        if (diff >= 1000) {
            long seconds = diff / 1000;
            if (clock != Long.MIN_VALUE) {
                setTime(clock + seconds, out);
            }
            lastTickMillis = now - (diff - seconds * 1000);
        } else if (diff < 0) {
            lastTickMillis = now;
        }
    }

    /** The clock in epoch seconds, or {@link Long#MIN_VALUE} before the first message. */
    public long clock() {
        return clock;
    }

    private void setTime(long t, Emitter out) {
        if (clock == Long.MIN_VALUE) {
            clock = t;
            return;
        }
        if (t <= clock) {
            return;
        }
        while (!timers.isEmpty() && timers.first().expiresAt < t) {
            Context c = timers.first();
            clock = Math.max(clock, c.expiresAt);
            expire(c, out);
        }
        clock = t;
    }

    /** The clock second a message sets: its stamp, else its receive time, else the wall clock. */
    private long messageSecond(LogEvent e) {
        if (e.isStampSet()) {
            return e.stampEpochSecond();
        }
        if (e.receivedMillis() != 0) {
            return Math.floorDiv(e.receivedMillis(), 1000L);
        }
        return Math.floorDiv(wallMillis.getAsLong(), 1000L);
    }

    // ---------------------------------------------------------------------------------------------- messages

    /**
     * Correlates one classified message: advances the clock from its stamp (expired contexts' messages go to
     * {@code out} first); if {@code rule} correlates, finds or creates its context, appends the message and resets
     * the timer; evaluates a correlating rule's values over the context and writes them into {@code e}; runs the
     * rule's match actions in order, emitting their messages to {@code out}. {@code rule} null = unmatched (only
     * the clock moves). The context keeps a copy of {@code e} as it is when this returns.
     */
    public void process(LogEvent e, CompiledRule rule, Emitter out) {
        advanceClock(messageSecond(e), out);
        if (rule == null) {
            return;
        }
        Context ctx = null;
        try {
            if (rule.correlates()) {
                ctx = join(e, rule); // may add the ring slot itself to the context: replaced by a copy below
                applyRuleValues(e, rule, ctx);
            }
            for (CompiledAction a : rule.actions()) {
                if (a.trigger() == Trigger.MATCH) {
                    run(a, rule, ctx, e, out);
                }
            }
        } finally {
            if (ctx != null) {
                int i = ctx.messages.lastIndexOf(e);
                if (i >= 0) {
                    ctx.messages.set(i, LogEvent.copyOf(e));
                }
            }
        }
    }

    /**
     * Expires every live context now, oldest target first, running timeout actions (pdbtool at end of input,
     * {@code pattern_db_expire_state}); each runs with the clock at its target, and the clock is restored after.
     */
    public void expireAll(Emitter out) {
        long saved = clock;
        long budget = 4L * options.maxContexts() + timers.size() + 1000;
        while (!timers.isEmpty() && budget-- > 0) {
            Context c = timers.first();
            clock = Math.max(clock, c.expiresAt);
            expire(c, out);
        }
        clock = saved;
    }

    /** Finds or creates the context of {@code e} under {@code rule}, appends {@code e} and resets the timer. */
    private Context join(LogEvent e, CompiledRule rule) {
        String id = contextId(e);
        ContextKey key = ContextKey.of(scopeOf(rule), id, e);
        Context ctx = contexts.get(key);
        if (ctx == null) {
            if (timers.size() >= options.maxContexts()) {
                droppedByCap.inc();
                return null;
            }
            ctx = new Context(key);
            contexts.put(key, ctx);
            created.inc();
        }
        ctx.messages.add(e); // replaced by a copy when process() returns
        int max = options.maxContextMessages();
        if (max > 0 && ctx.messages.size() > max) {
            ctx.messages.removeFirst();
            trimmed.inc();
        }
        ctx.rule = rule;
        schedule(ctx, clock + rule.def().contextTimeout());
        return ctx;
    }

    private static Scope scopeOf(CompiledRule rule) {
        Scope s = rule.def().contextScope();
        return s == null ? Scope.PROCESS : s;
    }

    /** {@code .classifier.context_id} as the classifier stored it (empty if a later step removed it). */
    private static String contextId(LogEvent e) {
        FieldTable t = e.fields();
        int i = t.indexOf(Classifier.CONTEXT_ID);
        return i < 0 ? "" : new String(t.data(), t.valueOffset(i), t.valueLength(i), StandardCharsets.ISO_8859_1);
    }

    private void schedule(Context c, long target) {
        timers.remove(c);
        c.expiresAt = target;
        c.timerSeq = ++timerSeq;
        timers.add(c);
        active = timers.size();
    }

    private void expire(Context c, Emitter out) {
        timers.remove(c);
        active = timers.size();
        expired.inc();
        try {
            CompiledRule rule = c.rule;
            if (rule != null && !c.messages.isEmpty()) {
                for (CompiledAction a : rule.actions()) {
                    if (a.trigger() == Trigger.TIMEOUT) {
                        run(a, rule, c, c.last(), out);
                    }
                }
            }
        } finally {
            contexts.remove(c.key, c);
        }
    }

    /** A correlating rule's values, evaluated in order over the context (or {@code e} alone) and written to e. */
    private void applyRuleValues(LogEvent e, CompiledRule rule, Context ctx) {
        RuleValues rv = ruleValues(rule);
        if (rv.values.length == 0) {
            return;
        }
        EventContext saved = e.context();
        e.setContext(ctx);
        try {
            for (int i = 0; i < rv.values.length; i++) {
                scratch.reset();
                rv.values[i].render(e, scratch);
                rv.targets[i].set(e, scratch.array(), 0, scratch.length());
            }
        } finally {
            e.setContext(saved);
        }
    }

    // ---------------------------------------------------------------------------------------------- actions

    /** Runs one action if its condition holds and its rate limit lets it (spec 8.5, 8.6). */
    private void run(CompiledAction a, CompiledRule rule, Context ctx, LogEvent trigger, Emitter out) {
        CompiledAction.Instance in = instance(a);
        if (in.condition != null) {
            LogEvent subject = ctx != null ? ctx.last() : trigger;
            EventContext saved = subject.context();
            subject.setContext(ctx);
            boolean pass;
            try {
                pass = in.condition.test(subject);
            } finally {
                subject.setContext(saved);
            }
            if (!pass) {
                return;
            }
        }
        if (a.rateCount() > 0) {
            ContextKey bucket = ContextKey.of(scopeOf(rule), a.rateKey(), trigger);
            if (!rates.tryAcquire(bucket, a.rateCount(), a.ratePeriodSeconds(), clock)) {
                rateLimited.inc();
                return;
            }
        }
        CompiledMessage m = a.message();
        if (m == null) {
            return;
        }
        if (a.createsContext()) {
            createContext(a, in, rule, ctx, trigger);
        } else {
            LogEvent g = generate(m, in.values, ctx, trigger);
            generated.inc();
            out.emit(g);
        }
    }

    /**
     * {@code <create-context>} (spec 8.7): the message is generated as for an action message (not emitted), the id
     * rendered over the triggering context (or the triggering message), and a new context keyed by the action's
     * scope, that id and the generated message's fields is stored with the generated message as its only member and
     * the creating rule as its rule; its timer uses the creating rule's context-timeout (reference quirk 8).
     */
    private void createContext(CompiledAction a, CompiledAction.Instance in, CompiledRule rule, Context ctx,
                               LogEvent trigger) {
        LogEvent g = generate(a.message(), in.values, ctx, trigger);
        scratch.reset();
        LogEvent subject = ctx != null ? ctx.last() : trigger;
        EventContext saved = subject.context();
        subject.setContext(ctx);
        try {
            in.contextId.render(subject, scratch);
        } finally {
            subject.setContext(saved);
        }
        String id = new String(scratch.array(), 0, scratch.length(), StandardCharsets.ISO_8859_1);
        if (timers.size() >= options.maxContexts()) {
            droppedByCap.inc();
            return;
        }
        Context c = new Context(ContextKey.of(a.contextScope(), id, g));
        c.messages.add(g);
        c.rule = rule;
        contexts.put(c.key, c);
        created.inc();
        schedule(c, clock + rule.def().contextTimeout());
    }

    /**
     * Builds a generated message (spec 8.7): the base for the inherit mode, the context key's scope fields, then
     * the tags and the values, evaluated with the generated message appended to the context (or to the pseudo
     * context {triggering message, generated message}).
     */
    private LogEvent generate(CompiledMessage m, Template[] values, Context ctx, LogEvent trigger) {
        LogEvent g;
        if (ctx != null) {
            LogEvent last = ctx.last();
            g = base(m.inheritMode(), last);
            if (m.inheritMode() == InheritMode.CONTEXT) {
                mergeContext(g, ctx);
            }
            ctx.key.writeScopeFields(g);
            ctx.messages.add(g);
            try {
                apply(m, values, g, ctx);
            } finally {
                ctx.messages.removeLast();
            }
        } else {
            g = base(m.inheritMode(), trigger);
            apply(m, values, g, pair.reset(trigger, g));
        }
        g.addFlag(LogEvent.FLAG_GENERATED);
        return g;
    }

    /** {@code none}: an empty message with {@code from}'s stamp; otherwise a copy of {@code from}. */
    private LogEvent base(InheritMode mode, LogEvent from) {
        if (mode == InheritMode.NONE) {
            LogEvent g = new LogEvent();
            // limited as the ring's events are (a copy, below, takes them with the fields)
            g.fields().setLimits(from.fields().maxFields(), from.fields().maxValueLength());
            // from the message it is generated for: routes may select on the source
            g.setSource(from.sourceId(), from.sourceName(), from.formatHint(), 0L);
            if (from.isStampSet()) {
                g.setStamp(from.stampEpochSecond(), from.stampMicros(), from.stampOffsetSeconds(),
                        from.stampFracDigits());
            }
            g.setReceivedMillis(wallMillis.getAsLong());
            return g;
        }
        return LogEvent.copyOf(from);
    }

    private static final int[] HEADERS = {LogEvent.HOST, LogEvent.PROGRAM, LogEvent.PID, LogEvent.MSGID,
            LogEvent.MSG};

    /** syslog-ng's {@code log_msg_merge_context}: values {@code g} lacks, from the newest message to the oldest. */
    private static void mergeContext(LogEvent g, Context ctx) {
        FieldTable gt = g.fields();
        for (int back = 0; back < ctx.size(); back++) {
            LogEvent m = ctx.back(back);
            for (int f : HEADERS) {
                if (!g.isFieldSet(f) && m.isFieldSet(f)) {
                    g.setFieldCopy(f, m.fieldArray(f), m.fieldOffset(f), m.fieldLength(f));
                }
            }
            FieldTable mt = m.fields();
            byte[] d = mt.data();
            for (int i = 0; i < mt.size(); i++) {
                if (gt.indexOf(d, mt.nameOffset(i), mt.nameLength(i)) < 0) {
                    gt.set(d, mt.nameOffset(i), mt.nameLength(i), d, mt.valueOffset(i), mt.valueLength(i), mt.tag(i));
                }
            }
        }
    }

    /** The message's tags, then its values in order, rendered over {@code c} with {@code g} last. */
    private void apply(CompiledMessage m, Template[] values, LogEvent g, EventContext c) {
        for (int tag : m.tags()) {
            g.addTag(tag);
        }
        EventField[] targets = m.targets();
        g.setContext(c);
        try {
            for (int i = 0; i < values.length; i++) {
                scratch.reset();
                values[i].render(g, scratch);
                targets[i].set(g, scratch.array(), 0, scratch.length());
            }
        } finally {
            g.setContext(null);
        }
    }

    private CompiledAction.Instance instance(CompiledAction a) {
        return actions.computeIfAbsent(a, CompiledAction::newInstance);
    }

    private RuleValues ruleValues(CompiledRule rule) {
        return rules.computeIfAbsent(rule, r -> RuleValues.of(r));
    }

    // ---------------------------------------------------------------------------------------------- counters

    /** Live contexts as keyed, for tests and diagnostics (cold path). */
    List<ContextKey> liveKeys() {
        return timers.stream().map(c -> c.key).toList();
    }
}
