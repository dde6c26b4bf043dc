package dev.logrouter.patterndb.stage;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.patterndb.classify.Classifier;
import dev.logrouter.patterndb.classify.CompiledRule;

/**
 * One {@code patterndb} step in one parse worker: classifies each message against the active database
 * (picking up a reloaded one between messages) and leaves the result for the correlation stage. Messages
 * the correlation stage generated are not classified again (as in syslog-ng).
 *
 * <p>Threads: one instance per parse worker, called by that worker only.
 */
final class PatternDbParser implements EventParser {

    /** Left for the correlation stage when no rule matched: the message still moves the correlation clock. */
    static final Object UNMATCHED = new Object();

    private final PatternDbService service;
    private final Counter matched;
    private final Counter unmatched;
    private PatternDbService.Loaded loaded;
    private Classifier classifier;

    PatternDbParser(PatternDbService service, ParseContext ctx) {
        this.service = service;
        this.matched = ctx.metrics().counter("matched", "Messages a rule matched in this step.");
        this.unmatched = ctx.metrics().counter("unmatched", "Messages no rule matched in this step.");
    }

    @Override
    public void parse(LogEvent event) {
        if (event.hasFlag(LogEvent.FLAG_GENERATED)) {
            return;
        }
        PatternDbService.Loaded l = service.current();
        if (l != loaded) {
            loaded = l;
            classifier = l.db().newClassifier();
        }
        CompiledRule rule = classifier.classify(event);
        service.count(l, rule);
        if (rule == null) {
            unmatched.inc();
            event.setSerialWork(UNMATCHED);
        } else {
            matched.inc();
            event.setSerialWork(rule);
        }
    }
}
