package dev.logrouter.patterndb.conformance;

import dev.logrouter.patterndb.ruleset.PatternDbFile;
import dev.logrouter.patterndb.ruleset.PdbLoader;

import java.nio.file.Path;

/**
 * Loads corpus files for the conformance tests, from the module's test resources.
 */
final class Corpus {

    static final Path ROOT = Path.of("src/test/resources/corpus");

    /** A loaded file. */
    record Loaded(PatternDbFile file) {
    }

    private Corpus() {
    }

    static Loaded load(String relative) throws Exception {
        return new Loaded(PdbLoader.load(ROOT.resolve(relative)));
    }
}
