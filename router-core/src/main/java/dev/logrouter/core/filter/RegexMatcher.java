package dev.logrouter.core.filter;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.util.BoundedCharSequence;
import dev.logrouter.core.util.Latin1CharSequence;
import dev.logrouter.core.util.Utf8CharSequence;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * syslog-ng's default {@code type(pcre)} matcher with {@code java.util.regex}: an unanchored search
 * ({@link Matcher#find()}) of a pattern compiled once, over a reusable view of the value's bytes — a zero-copy
 * ISO-8859-1 view for ASCII patterns, or the value decoded from UTF-8 when the pattern needs whole characters
 * (see {@link MatchSpec}). The view is wrapped in a {@link BoundedCharSequence}: a search that runs past
 * {@link BoundedCharSequence#defaultBudget} steps is abandoned, counts as no match and moves the
 * {@code regexBudgetExceeded} counter.
 *
 * <p>Threads: one instance per thread (it owns a {@link Matcher} and the views).
 */
final class RegexMatcher implements ByteMatcher {

    private final Matcher matcher;
    private final boolean utf8;
    private final Latin1CharSequence latin1 = new Latin1CharSequence();
    private final Utf8CharSequence decoded;
    private final BoundedCharSequence bounded = new BoundedCharSequence();
    private final Counter budgetExceeded;

    RegexMatcher(Pattern pattern, boolean utf8, Counter budgetExceeded) {
        this.matcher = pattern.matcher("");
        this.utf8 = utf8;
        this.decoded = utf8 ? new Utf8CharSequence() : null;
        this.budgetExceeded = budgetExceeded;
    }

    @Override
    public boolean matches(byte[] value, int offset, int length) {
        CharSequence view = utf8 ? decoded.reset(value, offset, length) : latin1.reset(value, offset, length);
        BoundedCharSequence in = bounded.reset(view);
        matcher.reset(in);
        BoundedCharSequence.Outcome r = in.find(matcher);
        if (r == BoundedCharSequence.Outcome.BUDGET_EXCEEDED) {
            budgetExceeded.inc();
            return false;
        }
        return r == BoundedCharSequence.Outcome.MATCH;
    }
}
