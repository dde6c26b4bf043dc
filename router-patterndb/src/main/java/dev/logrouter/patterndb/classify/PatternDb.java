package dev.logrouter.patterndb.classify;

import dev.logrouter.patterndb.ruleset.PatternDbFile;
import dev.logrouter.patterndb.ruleset.PdbLoadException;

import java.util.List;
import java.util.function.Consumer;

/**
 * A built, immutable pattern database: the program tree, one rule tree per program, the rules.
 * STUB (the classifier's author completes it).
 *
 * <p>Threads: immutable once built; read lock-free by every parse worker through its own
 * {@link Classifier}.
 */
public final class PatternDb {

    /**
     * Builds the trees from loaded files, in order (rulesets of the same program join as in syslog-ng,
     * spec 3). Per-pattern problems (unknown parser, duplicate key, bad PCRE) skip that pattern and are
     * reported to {@code warnings}; fatal ones (joining mismatching program sets, a value template or action
     * that does not compile) throw.
     */
    public static PatternDb build(List<PatternDbFile> files, Consumer<String> warnings) throws PdbLoadException {
        throw new UnsupportedOperationException("stub");
    }

    /** Every rule, dense by {@link CompiledRule#index()}. */
    public List<CompiledRule> rules() {
        throw new UnsupportedOperationException("stub");
    }

    /** A classifier with its own scratch state, for one thread. */
    public Classifier newClassifier() {
        throw new UnsupportedOperationException("stub");
    }
}
