package dev.logrouter.patterndb.ruleset;

import java.util.List;

/**
 * One loaded ruleset file: {@code version} as written (4 when absent), {@code pubDate} (null when absent),
 * rulesets in document order, and the loader's warnings (non-fatal, e.g. a missing version).
 *
 * <p>Threads: immutable.
 */
public record PatternDbFile(String source, int version, String pubDate, List<RulesetDef> rulesets,
                            List<String> warnings) {
}
