package dev.logrouter.patterndb.classify;

import dev.logrouter.core.event.EventField;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.patterndb.radix.RadixBuilder;
import dev.logrouter.patterndb.radix.RadixScratch;
import dev.logrouter.patterndb.radix.RadixTree;
import dev.logrouter.patterndb.ruleset.PatternDbFile;
import dev.logrouter.patterndb.ruleset.PatternText;
import dev.logrouter.patterndb.ruleset.PdbLoadException;
import dev.logrouter.patterndb.ruleset.RuleDef;
import dev.logrouter.patterndb.ruleset.RulesetDef;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A built, immutable pattern database: the program tree, one rule tree per program, the rules.
 *
 * <p>Building follows syslog-ng 3.38's loader (spec 3): a ruleset's first program pattern names its program;
 * a later ruleset with the same first pattern (exact text) joins that program, its further patterns become
 * aliases; a pattern already bound to another program rejects the load ("Joining rulesets with mismatching
 * program name sets"). Rulesets without program patterns form the default program on the program tree's root.
 * A ruleset's rules go into its program's tree when the ruleset ends, pattern by pattern in document order.
 * Program patterns are inserted into the program tree after all files, in the order first seen (the reference
 * walks a hash table there, in no defined order; the order only matters for program patterns with parsers
 * that could both match). Several files given to {@link #build} are treated as one merged file.
 *
 * <p>Threads: immutable once built; read lock-free by every parse worker through its own
 * {@link Classifier}.
 */
public final class PatternDb {

    private final RadixTree<Program> programTree;
    private final EventField[] programCaptureFields;
    private final List<Program> programs;
    private final List<CompiledRule> rules;
    private final Counter pcreBudgetExceeded;

    private PatternDb(RadixTree<Program> programTree, List<Program> programs, List<CompiledRule> rules,
                      Counter pcreBudgetExceeded) {
        this.programTree = programTree;
        this.programCaptureFields = fields(programTree);
        this.programs = List.copyOf(programs);
        this.rules = List.copyOf(rules);
        this.pcreBudgetExceeded = pcreBudgetExceeded;
    }

    static EventField[] fields(RadixTree<?> tree) {
        EventField[] f = new EventField[tree.captureNameCount()];
        for (int i = 0; i < f.length; i++) {
            f[i] = EventField.of(tree.captureName(i));
        }
        return f;
    }

    /** A program being built: its rule tree builder. */
    private static final class ProgramBuilder {
        final String name;
        final RadixBuilder<CompiledRule> rules;

        ProgramBuilder(String name, AtomicInteger slots, Counter budget) {
            this.name = name;
            this.rules = new RadixBuilder<>(CompiledRule::toString, slots, budget);
        }
    }

    /**
     * Builds the trees from loaded files, in order (rulesets of the same program join as in syslog-ng,
     * spec 3). Per-pattern problems (unknown parser, duplicate key, bad PCRE) skip that pattern and are
     * reported to {@code warnings}; fatal ones (joining mismatching program sets, a value template or action
     * that does not compile) throw. Receive-time date macros in the rules' templates are in UTC.
     */
    public static PatternDb build(List<PatternDbFile> files, Consumer<String> warnings) throws PdbLoadException {
        return build(files, warnings, java.time.ZoneOffset.UTC);
    }

    /**
     * Loads the files ({@code PdbLoader.loadAll}: pdbtool merge's order), reports every file's warnings and every
     * per-pattern problem to {@code warnings} (each names its file and position), and builds the database.
     */
    public static PatternDb load(List<java.nio.file.Path> paths, Consumer<String> warnings, java.time.ZoneId zone)
            throws java.io.IOException, PdbLoadException {
        List<PatternDbFile> loaded = dev.logrouter.patterndb.ruleset.PdbLoader.loadAll(paths);
        for (PatternDbFile f : loaded) {
            f.warnings().forEach(warnings);
        }
        return build(loaded, warnings, zone);
    }

    /** As {@link #build(List, Consumer)}, with receive-time date macros of every template in {@code zone}. */
    public static PatternDb build(List<PatternDbFile> files, Consumer<String> warnings, java.time.ZoneId zone)
            throws PdbLoadException {
        Counter budget = new Counter();
        AtomicInteger slots = new AtomicInteger();
        ProgramBuilder defaultProgram = new ProgramBuilder("", slots, budget);
        Map<String, ProgramBuilder> byPattern = new LinkedHashMap<>();
        Map<String, PatternText> patternSource = new LinkedHashMap<>();
        Map<String, String> patternFile = new LinkedHashMap<>();
        List<ProgramBuilder> order = new ArrayList<>();
        order.add(defaultProgram);
        List<CompiledRule> rules = new ArrayList<>();
        for (PatternDbFile file : files) {
            for (RulesetDef rs : file.rulesets()) {
                ProgramBuilder program = defaultProgram;
                boolean first = true;
                for (PatternText p : rs.programPatterns()) {
                    ProgramBuilder bound = byPattern.get(p.text());
                    if (first) {
                        first = false;
                        if (bound == null) {
                            bound = new ProgramBuilder(p.text(), slots, budget);
                            byPattern.put(p.text(), bound);
                            patternSource.put(p.text(), p);
                            patternFile.put(p.text(), file.source());
                            order.add(bound);
                        }
                        program = bound;
                    } else if (bound == null) {
                        byPattern.put(p.text(), program);
                        patternSource.put(p.text(), p);
                        patternFile.put(p.text(), file.source());
                    } else if (bound != program) {
                        throw new PdbLoadException(file.source(), p.line(), 0,
                                "Joining rulesets with mismatching program name sets, program=" + p.text());
                    }
                }
                for (RuleDef def : rs.rules()) {
                    CompiledRule rule = CompiledRule.compile(def, rules.size(), file.source(), zone);
                    rules.add(rule);
                    for (PatternText p : def.patterns()) {
                        String where = file.source() + ":" + p.line() + ":" + p.column() + ": ";
                        program.rules.insert(p.text(), rule, w -> warnings.accept(where + w));
                    }
                }
            }
        }
        Map<ProgramBuilder, Program> built = new LinkedHashMap<>();
        for (ProgramBuilder pb : order) {
            built.put(pb, new Program(pb.name, pb.rules.build()));
        }
        RadixBuilder<Program> programTree = new RadixBuilder<>(p -> p.name, slots, budget);
        programTree.setRootValue(built.get(defaultProgram));
        for (Map.Entry<String, ProgramBuilder> e : byPattern.entrySet()) {
            PatternText p = patternSource.get(e.getKey());
            String where = patternFile.get(e.getKey()) + ":" + p.line() + ":" + p.column() + ": ";
            programTree.insert(e.getKey(), built.get(e.getValue()), w -> warnings.accept(where + w));
        }
        return new PatternDb(programTree.build(), new ArrayList<>(built.values()), rules, budget);
    }

    /** Every rule, dense by {@link CompiledRule#index()}. */
    public List<CompiledRule> rules() {
        return rules;
    }

    /** Number of rules loaded (for JMX and benchmarks). */
    public int ruleCount() {
        return rules.size();
    }

    /** The programs' names (first program pattern of each; "" for the default program first), in load order. */
    public List<String> programs() {
        List<String> names = new ArrayList<>();
        for (Program p : programs) {
            names.add(p.name);
        }
        return Collections.unmodifiableList(names);
    }

    /** PCRE parser runs abandoned for exceeding their step budget (counted as not matching). */
    public Counter pcreBudgetExceeded() {
        return pcreBudgetExceeded;
    }

    /** A classifier with its own scratch state, for one thread. */
    public Classifier newClassifier() {
        return new Classifier(this);
    }

    RadixTree<Program> programTree() {
        return programTree;
    }

    EventField[] programCaptureFields() {
        return programCaptureFields;
    }

    /**
     * The rule tree of the program that {@code program} selects, as {@code pdbtool dump -P PROGRAM} prints it
     * (spec 10.4): one node per line, indented by depth, {@code @TYPE:name@ } for parser nodes, {@code 'key' },
     * {@code rule_id='ID'} where a rule is attached. Empty when nothing is selected.
     */
    public String dump(String program) {
        byte[] b = program.getBytes(StandardCharsets.UTF_8);
        Program p = programTree.lookup(b, 0, b.length, new RadixScratch());
        return p == null ? "" : p.rules.dump(r -> "rule_id='" + r.def().id() + "'");
    }

    /** The program tree as {@code pdbtool dump -T} prints it ({@code RULES} where a program is attached). */
    public String dumpProgramTree() {
        return programTree.dump(p -> "RULES");
    }
}
