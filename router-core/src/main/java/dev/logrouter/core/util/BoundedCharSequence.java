package dev.logrouter.core.util;

import java.util.regex.Matcher;

/**
 * A {@link CharSequence} that bounds the work a {@code java.util.regex} {@link Matcher} may spend on it: it
 * wraps another sequence and counts every {@link #charAt} call; when the count passes the budget, the
 * running match is aborted. This is how a catastrophic pattern such as {@code (a+)+$} is kept from holding a
 * parse worker: the JDK's backtracking engine reads the input through {@code charAt} at every step, so the
 * number of reads bounds the number of steps.
 *
 * <p>Use: reset it over the input ({@link #reset(CharSequence)} uses {@link #defaultBudget(int)}), point the
 * matcher at it once with {@code matcher.reset(bounded)}, then call {@link #find(Matcher)},
 * {@link #matches(Matcher)} or {@link #lookingAt(Matcher)} instead of the matcher's own methods: they run the
 * matcher and turn an abort into {@link Outcome#BUDGET_EXCEEDED}. The budget covers every call until the next
 * reset, so a loop of {@code find}s (a global substitution) is bounded as a whole. After an abort the matcher's
 * state is undefined until it is reset; group positions read after a {@link Outcome#MATCH} are valid as usual.
 * A {@link StackOverflowError} raised by the regex engine (deep recursion on long input) is reported as
 * {@link Outcome#BUDGET_EXCEEDED} too.
 *
 * <p>The wrapper allocates nothing: instances are reused across messages. {@link #subSequence} and
 * {@link #toString()} delegate uncounted (they copy; {@code Matcher.group()} uses them).
 *
 * <p>Threads: an instance belongs to one thread (the owner of the matcher using it).
 */
public final class BoundedCharSequence implements CharSequence {

    /** What a bounded matcher call found. */
    public enum Outcome {
        /** The pattern matched; the matcher's groups are valid. */
        MATCH,
        /** The pattern did not match. */
        NO_MATCH,
        /** The step budget ran out (or the engine overflowed its stack); treat the input as not matching. */
        BUDGET_EXCEEDED
    }

    /** Steps every input gets on top of its per-character allowance. */
    public static final long BASE_STEPS = 100_000L;
    /** Steps allowed per input character. */
    public static final long STEPS_PER_CHAR = 1_000L;

    private static final CharSequence EMPTY = "";

    private CharSequence text = EMPTY;
    private long remaining;
    private long budget;
    private boolean exceeded;

    /** The default budget for an input of {@code length} chars: {@code 1000 × length + 100000} steps. */
    public static long defaultBudget(int length) {
        return STEPS_PER_CHAR * length + BASE_STEPS;
    }

    /** Wraps {@code text} with the {@link #defaultBudget(int) default budget}; returns this. */
    public BoundedCharSequence reset(CharSequence text) {
        return reset(text, defaultBudget(text.length()));
    }

    /** Wraps {@code text} with a budget of {@code steps} character reads; returns this. */
    public BoundedCharSequence reset(CharSequence text, long steps) {
        this.text = text;
        this.budget = steps;
        this.remaining = steps;
        this.exceeded = false;
        return this;
    }

    private static final int FIND = 0;
    private static final int MATCHES = 2;
    private static final int LOOKING_AT = 3;

    /** Runs {@link Matcher#find()} (continuing after the previous match, as the matcher does). */
    public Outcome find(Matcher matcher) {
        return run(matcher, FIND);
    }

    /** Runs {@link Matcher#matches()} (the whole input). */
    public Outcome matches(Matcher matcher) {
        return run(matcher, MATCHES);
    }

    /** Runs {@link Matcher#lookingAt()} (a prefix of the input). */
    public Outcome lookingAt(Matcher matcher) {
        return run(matcher, LOOKING_AT);
    }

    /** Runs one matcher operation, turning an abort (budget or stack) into {@link Outcome#BUDGET_EXCEEDED}. */
    private Outcome run(Matcher matcher, int op) {
        if (exceeded) {
            return Outcome.BUDGET_EXCEEDED;
        }
        try {
            boolean found = switch (op) {
                case FIND -> matcher.find();
                case MATCHES -> matcher.matches();
                default -> matcher.lookingAt();
            };
            return found ? Outcome.MATCH : Outcome.NO_MATCH;
        } catch (BudgetExceeded e) {
            return Outcome.BUDGET_EXCEEDED;
        } catch (StackOverflowError e) {
            exceeded = true;
            return Outcome.BUDGET_EXCEEDED;
        }
    }

    /** True once the budget ran out since the last reset. */
    public boolean exceeded() {
        return exceeded;
    }

    /**
     * True once the step budget itself ran out since the last reset; unlike {@link #exceeded()}, false when the
     * abort was the engine overflowing its stack.
     */
    public boolean budgetSpent() {
        return remaining < 0;
    }

    /** Character reads spent since the last reset. */
    public long stepsUsed() {
        return budget - Math.max(0, remaining);
    }

    @Override
    public int length() {
        return text.length();
    }

    @Override
    public char charAt(int index) {
        if (--remaining < 0) {
            exceeded = true;
            throw BudgetExceeded.INSTANCE;
        }
        return text.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return text.subSequence(start, end);
    }

    @Override
    public String toString() {
        return text.toString();
    }

    /** Thrown out of the regex engine when the budget runs out; never escapes this class. Stackless. */
    private static final class BudgetExceeded extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final BudgetExceeded INSTANCE = new BudgetExceeded();

        private BudgetExceeded() {
            super("regex step budget exceeded", null, false, false);
        }
    }
}
