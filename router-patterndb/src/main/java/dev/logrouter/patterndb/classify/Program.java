package dev.logrouter.patterndb.classify;

import dev.logrouter.core.event.EventField;
import dev.logrouter.patterndb.radix.RadixTree;

/**
 * A program of a {@link PatternDb} (spec 3): the rulesets joined under one first program pattern (or the default
 * program of rulesets without any), its rule tree, and the fields its tree's capture names write.
 *
 * <p>Threads: immutable once the database is built.
 */
final class Program {

    /** The first program pattern of the first ruleset ("" for the default program). */
    final String name;
    final RadixTree<CompiledRule> rules;
    final EventField[] captureFields;

    Program(String name, RadixTree<CompiledRule> rules) {
        this.name = name;
        this.rules = rules;
        this.captureFields = PatternDb.fields(rules);
    }
}
