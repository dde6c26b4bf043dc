package dev.logrouter.patterndb.stage;

import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.patterndb.classify.CompiledRule;
import dev.logrouter.patterndb.classify.PatternDb;
import dev.logrouter.patterndb.ruleset.PatternDbFile;
import dev.logrouter.patterndb.ruleset.PdbLoadException;
import dev.logrouter.patterndb.ruleset.PdbLoader;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.lang.System.Logger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;

/**
 * The router's one PatternDB: loads the configured ruleset files, holds the built database that every
 * {@code patterndb} step classifies against, and swaps in a new one on {@link #reload()} (JMX operation
 * {@code reload} on {@code type=PatternDb,name=main}). The database is immutable; a step picks up a new one
 * between two messages, so a reload drops nothing. A reload that fails (a file that does not load) keeps
 * the previous database active and says why.
 *
 * <p>Threads: built on the configuring thread; {@link #current()} is read by every parse worker (one
 * volatile read per message); {@link #reload()} runs on a JMX thread.
 */
public final class PatternDbService {

    private static final Logger LOG = System.getLogger(PatternDbService.class.getName());

    /** A built database with its per-rule hit counters. */
    public record Loaded(PatternDb db, LongAdder[] hits, int fileCount, int warningCount) {
    }

    private final List<String> files;
    private final java.time.ZoneId zone;
    private volatile Loaded current;
    private final Counter unmatched;
    private final Counter reloads;
    private final Counter reloadFailures;
    private volatile boolean correlationStage;

    private PatternDbService(List<String> files, java.time.ZoneId zone, MetricGroup metrics) {
        this.files = List.copyOf(files);
        this.zone = zone;
        // the per-rule hit counters already count every match: matched is their sum, read when asked
        metrics.gauge("matched", "Messages a rule matched (all patterndb steps together) since the active rulesets "
                + "were loaded.", () -> {
                    long sum = 0;
                    for (LongAdder h : current.hits()) {
                        sum += h.sum();
                    }
                    return sum;
                });
        this.unmatched = metrics.counter("unmatched",
                "Messages no rule matched (.classifier.class=unknown, tag .classifier.unknown).");
        this.reloads = metrics.counter("reloads", "Successful reloads of the ruleset files.");
        this.reloadFailures = metrics.counter("reloadFailures",
                "Reloads that failed; the previous rulesets stayed active.");
        metrics.gauge("rules", "Rules in the active database.", () -> current.db().rules().size());
        metrics.gauge("pcreBudgetExceeded", "@PCRE@ matches abandoned at their step budget (counted as no match) "
                + "since the active rulesets were loaded.", () -> current.db().pcreBudgetExceeded().get());
        metrics.operation("reload", "Reloads the ruleset files; on failure the active rulesets stay.", this::reload);
        metrics.operation("topRules", "The 20 rules with most hits since the active rulesets were loaded.",
                () -> topRules(20));
    }

    /**
     * The router-wide PatternDB of {@code cfg} ({@code patterndb.files}), its counters as {@code type=PatternDb,
     * name=main}; null when no files are configured. Throws IllegalArgumentException with the file, line and reason
     * when a file does not load.
     */
    public static PatternDbService forRouter(RouterConfig cfg, MetricRegistry metrics) {
        PatternDbConfig pdb = PatternDbConfig.of(cfg);
        if (pdb.files().isEmpty()) {
            return null;
        }
        try {
            return load(pdb, cfg.pipeline().zone(), metrics.group("PatternDb", "main"));
        } catch (IOException | PdbLoadException e) {
            throw new IllegalArgumentException(PatternDbConfig.KEY + ".files: " + e.getMessage(), e);
        }
    }

    /**
     * Loads the files of {@code cfg}, their templates' receive-time date macros in {@code zone}; throws with
     * file, line and reason when one does not load.
     */
    public static PatternDbService load(PatternDbConfig cfg, java.time.ZoneId zone, MetricGroup metrics)
            throws IOException, PdbLoadException {
        PatternDbService s = new PatternDbService(cfg.files(), zone, metrics);
        s.current = s.build();
        return s;
    }

    private Loaded build() throws IOException, PdbLoadException {
        List<Path> paths = RulesetFiles.resolve(files);
        List<PatternDbFile> loaded = PdbLoader.loadAll(paths);
        List<String> warnings = new ArrayList<>();
        loaded.forEach(f -> warnings.addAll(f.warnings())); // each names its file and position
        PatternDb db = PatternDb.build(loaded, warnings::add, zone);
        for (String w : warnings) {
            LOG.log(Level.WARNING, "patterndb: " + w);
        }
        LongAdder[] hits = new LongAdder[db.rules().size()];
        for (int i = 0; i < hits.length; i++) {
            hits[i] = new LongAdder();
        }
        return new Loaded(db, hits, loaded.size(), warnings.size());
    }

    /** The active database. */
    public Loaded current() {
        return current;
    }

    /** Loads the files again and activates the result; on failure keeps the active database and throws. */
    public synchronized String reload() {
        try {
            Loaded next = build();
            if (!correlationStage && needsCorrelation(next.db())) {
                throw new IllegalStateException("the new rulesets have correlating rules or actions, but the "
                        + "router started without a correlation stage (no such rule at start): restart to load them");
            }
            current = next;
            reloads.inc();
            return "reloaded " + next.db().rules().size() + " rules from " + next.fileCount() + " files"
                    + (next.warningCount() == 0 ? "" : ", " + next.warningCount() + " warnings (see the log)");
        } catch (IOException | PdbLoadException | RuntimeException e) {
            reloadFailures.inc();
            LOG.log(Level.WARNING, "patterndb: reload failed, the active rulesets stay: " + e.getMessage());
            throw new IllegalStateException("reload failed, the active rulesets stay: " + e.getMessage(), e);
        }
    }

    /** Counts a classification (called by the patterndb steps). */
    void count(Loaded l, CompiledRule rule) {
        if (rule == null) {
            unmatched.inc();
        } else {
            l.hits()[rule.index()].increment();
        }
    }

    /** The {@code n} rules with most hits, one per line: {@code hits rule-id class}. */
    public String topRules(int n) {
        Loaded l = current;
        StringBuilder sb = new StringBuilder();
        IntStream.range(0, l.hits().length).boxed()
                .sorted(Comparator.comparingLong((Integer i) -> l.hits()[i].sum()).reversed())
                .limit(n)
                .filter(i -> l.hits()[i].sum() > 0)
                .forEach(i -> {
                    CompiledRule r = l.db().rules().get(i);
                    sb.append(l.hits()[i].sum()).append(' ').append(r.def().id()).append(' ')
                            .append(r.def().effectiveClass()).append('\n');
                });
        return sb.toString();
    }

    /** True when some rule of the active database correlates or has actions (the correlation stage is needed). */
    public boolean needsCorrelation() {
        return needsCorrelation(current.db());
    }

    /** Called by the router when it runs a correlation stage for this database. */
    public void correlationStageRunning() {
        correlationStage = true;
    }

    private static boolean needsCorrelation(PatternDb db) {
        for (CompiledRule r : db.rules()) {
            if (r.needsCorrelation()) {
                return true;
            }
        }
        return false;
    }
}
