package dev.logrouter.patterndb;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.patterndb.classify.Classifier;
import dev.logrouter.patterndb.classify.CompiledRule;
import dev.logrouter.patterndb.classify.PatternDb;
import dev.logrouter.patterndb.correlate.Correlator;
import dev.logrouter.patterndb.correlate.CorrelatorOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code pdbtool match -f} in one object: a {@link PatternDb}'s classifier and a {@link Correlator} driven
 * message by message, emitting in pdbtool's order (spec 8.8): messages of contexts that the message's stamp expired,
 * then the message itself, then the messages its match actions generated, in action order. {@link #finish} expires
 * every remaining context, as pdbtool does at end of input.
 *
 * <p>Threads: single-threaded (CLI, tests).
 */
public final class PdbSession {

    private final Classifier classifier;
    private final Correlator correlator;
    private final List<LogEvent> generated = new ArrayList<>();

    public PdbSession(PatternDb db, Correlator correlator) {
        this.classifier = db.newClassifier();
        this.correlator = correlator;
    }

    /** A session with default correlator options and the system clock. */
    public PdbSession(PatternDb db) {
        this(db, new Correlator(CorrelatorOptions.defaults()));
    }

    public Correlator correlator() {
        return correlator;
    }

    /**
     * Classifies and correlates {@code e} (a parsed message) and hands {@code out} the expired contexts' messages,
     * {@code e}, and the generated messages, in that order. Returns the matched rule or null.
     */
    public CompiledRule process(LogEvent e, Consumer<LogEvent> out) {
        CompiledRule rule = classifier.classify(e);
        correlator.advanceClock(e, out::accept);
        generated.clear();
        if (rule != null && rule.needsCorrelation()) {
            correlator.process(e, rule, generated::add);
        }
        out.accept(e);
        for (LogEvent g : generated) {
            out.accept(g);
        }
        generated.clear();
        return rule;
    }

    /** End of input: expires every live context, emitting the timeout messages. */
    public void finish(Consumer<LogEvent> out) {
        correlator.expireAll(out::accept);
    }
}
