package dev.logrouter.core.filter;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.util.Clock;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * A filter expression in syslog-ng's vocabulary, compiled once from the configuration:
 * {@code facility()}, {@code level()}/{@code priority()}/{@code severity()}, {@code program()},
 * {@code host()}, {@code message()}, {@code source()}, {@code match()}, {@code tags()}, {@code filter()}
 * (a named filter from the {@code filters:} section), comparisons of templates ({@code "${.json.status}" >= "500"},
 * {@code "${HOST}" eq "web1"}), the logrouter extension {@code exists()}, and {@code and}, {@code or},
 * {@code not} and parentheses (precedence {@code not} &gt; {@code and} &gt; {@code or}), the sender tests
 * {@code netmask()} and {@code netmask6()}, {@code in-list()} (a value is one of the lines of a file, read here)
 * and {@code rate-limit()} (a token bucket per key, shared by every filter made from this expression). See
 * {@code docs/configuration/filters.md} for every function and where it differs from syslog-ng.
 *
 * <p>Regexes are compiled here, once; per-thread {@link Filter}s ({@link #newFilter()}) reuse their matchers and
 * buffers, so evaluating a warm filter allocates nothing. Every regex search is bounded (see
 * {@link dev.logrouter.core.util.BoundedCharSequence}); a search that exceeds its budget counts as no match and
 * moves the {@value #BUDGET_COUNTER} counter of the metric group given to {@link #compile(String, Map,
 * MetricGroup, ZoneId)}.
 *
 * <p>Threads: compiled on the configuring thread, immutable afterwards (but for the thread-safe buckets of
 * {@code rate-limit()}); {@link #newFilter()} may be called from any thread, and each filter it returns belongs to
 * the thread that uses it.
 */
public final class FilterExpression {

    /** Name of the counter of regex searches abandoned after their step budget. */
    public static final String BUDGET_COUNTER = "regexBudgetExceeded";
    /** Description of {@link #BUDGET_COUNTER}. */
    public static final String BUDGET_COUNTER_DOC = "Regex searches in this filter abandoned after their step budget "
            + "(1000 x input length + 100000, e.g. catastrophic backtracking); each counted as no match.";

    private final String text;
    private final FilterNode root;
    private final Counter budgetExceeded;

    private FilterExpression(String text, FilterNode root, Counter budgetExceeded) {
        this.text = text;
        this.root = root;
        this.budgetExceeded = budgetExceeded;
    }

    /**
     * Compiles {@code text} with date macros in UTC and a private counter.
     *
     * @param namedFilters the {@code filters:} section: name → expression, for {@code filter(name)}
     * @throws IllegalArgumentException naming the column and a fix, for any syntax error, unknown name, bad
     *                                  regex or template, or a cycle of named filters
     */
    public static FilterExpression compile(String text, Map<String, String> namedFilters) {
        return compile(text, namedFilters, new MetricGroup("Filter", "expression"), ZoneOffset.UTC);
    }

    /** Compiles {@code text}, declaring {@value #BUDGET_COUNTER} in {@code metrics}. */
    public static FilterExpression compile(String text, Map<String, String> namedFilters, MetricGroup metrics) {
        return compile(text, namedFilters, metrics, ZoneOffset.UTC);
    }

    /**
     * Compiles {@code text}, declaring {@value #BUDGET_COUNTER} in {@code metrics} (a route's group; filters
     * sharing a group share the counter) and rendering receive-time date macros in comparisons in {@code zone}.
     */
    public static FilterExpression compile(String text, Map<String, String> namedFilters, MetricGroup metrics,
                                           ZoneId zone) {
        return compile(text, namedFilters, metrics, zone, Clock.SYSTEM);
    }

    /**
     * As {@link #compile(String, Map, MetricGroup, ZoneId)}, with the clock that refills the token buckets of
     * {@code rate-limit()} (whose counters are declared in {@code metrics} too).
     */
    public static FilterExpression compile(String text, Map<String, String> namedFilters, MetricGroup metrics,
                                           ZoneId zone, Clock clock) {
        if (text == null) {
            throw new IllegalArgumentException("no filter expression");
        }
        Counter counter = metrics.counter(BUDGET_COUNTER, BUDGET_COUNTER_DOC);
        FilterNode root;
        try {
            root = FilterParser.parse(text, namedFilters == null ? Map.of() : namedFilters, zone, counter, metrics,
                    clock);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " (in filter expression: " + text + ")", e);
        }
        return new FilterExpression(text, root, counter);
    }

    /** A new filter for one thread (a parse worker): it owns its regex matchers and scratch buffers. */
    public Filter newFilter() {
        return root.newFilter();
    }

    /** The compiled tree (tests). */
    FilterNode root() {
        return root;
    }

    /** The expression as configured. */
    public String text() {
        return text;
    }

    /** Regex searches abandoned after their step budget so far, over every filter made from this expression. */
    public long budgetExceeded() {
        return budgetExceeded.get();
    }

    /** The compiled tree in normalised syslog-ng syntax (named filters expanded), for diagnostics. */
    public String describe() {
        return root.describe();
    }

    @Override
    public String toString() {
        return text;
    }

    /** A compile error: "column N: problem; hint". */
    static IllegalArgumentException error(int column, String problem, String hint) {
        return new IllegalArgumentException("column " + column + ": " + problem + (hint == null ? "" : "; " + hint));
    }
}
