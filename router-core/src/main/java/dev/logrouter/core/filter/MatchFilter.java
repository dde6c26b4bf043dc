package dev.logrouter.core.filter;

import dev.logrouter.core.event.LogEvent;

/**
 * {@code program()}, {@code host()}, {@code message()}, {@code source()} and {@code match(... value("NAME"))}:
 * one value of the message (see {@link ValueRef}) tested against one pattern (see {@link MatchSpec}). An unset
 * value is tested as the empty string, as in syslog-ng.
 *
 * <p>Threads: the node is immutable; each {@link Filter} it builds belongs to one thread.
 */
final class MatchFilter implements FilterNode {

    private final String function;
    private final ValueRef value;
    private final MatchSpec spec;

    MatchFilter(String function, ValueRef value, MatchSpec spec) {
        this.function = function;
        this.value = value;
        this.spec = spec;
    }

    @Override
    public Filter newFilter() {
        return new Instance(value.newReader(), spec.newMatcher());
    }

    @Override
    public String describe() {
        if (function.equals("match")) {
            return "match(" + spec.describe() + " value(\"" + value.text() + "\"))";
        }
        return function + "(" + spec.describe() + ")";
    }

    private static final class Instance implements Filter {
        private final ValueRef.Reader reader;
        private final ByteMatcher matcher;

        Instance(ValueRef.Reader reader, ByteMatcher matcher) {
            this.reader = reader;
            this.matcher = matcher;
        }

        @Override
        public boolean test(LogEvent event) {
            ValueRef.Reader r = reader;
            r.read(event);
            return matcher.matches(r.array, r.offset, r.length);
        }
    }
}
