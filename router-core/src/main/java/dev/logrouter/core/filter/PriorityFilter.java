package dev.logrouter.core.filter;

import dev.logrouter.core.event.LogEvent;

/**
 * {@code facility(...)} and {@code level(...)} / {@code priority(...)} / {@code severity(...)}: the message's
 * facility or severity number is in a set, held as a bit mask (bit n = number n), as syslog-ng's
 * {@code filter-pri} does. Stateless: one instance serves every thread.
 *
 * <p>Threads: immutable, any thread.
 */
final class PriorityFilter implements FilterNode, Filter {

    private final boolean facility;
    private final long mask;
    private final String text;

    /**
     * @param facility true to test the facility, false for the severity
     * @param mask     bit n set = number n matches
     * @param text     the call as written, for diagnostics
     */
    PriorityFilter(boolean facility, long mask, String text) {
        this.facility = facility;
        this.mask = mask;
        this.text = text;
    }

    @Override
    public boolean test(LogEvent event) {
        int n = facility ? event.facility() : event.severity();
        return n < 64 && (mask & (1L << n)) != 0;
    }

    @Override
    public Filter newFilter() {
        return this;
    }

    @Override
    public String describe() {
        return text;
    }
}
