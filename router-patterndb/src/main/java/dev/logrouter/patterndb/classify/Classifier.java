package dev.logrouter.patterndb.classify;

import dev.logrouter.core.event.LogEvent;

/**
 * Classifies events against one {@link PatternDb}. STUB (the classifier's author completes it).
 *
 * <p>Threads: one instance per thread (parse worker, CLI); keeps reusable capture buffers.
 */
public final class Classifier {

    /**
     * Classifies {@code e} (program string = PROGRAM, message string = MSG) and writes what spec 7 says:
     * program-tree captures; on no match {@code .classifier.class=unknown} and tag {@code .classifier.unknown};
     * on a match {@code .classifier.class}, {@code .classifier.rule_id}, the captures, the class tag and the
     * rule's tags, {@code .classifier.context_id} for a correlating rule, and the rule's values when the rule
     * does not correlate (a correlating rule's values are evaluated over its context by the correlator).
     * Returns the matched rule or null. Allocates nothing per message once warm.
     */
    public CompiledRule classify(LogEvent e) {
        throw new UnsupportedOperationException("stub");
    }
}
