package dev.logrouter.core.filter;

import dev.logrouter.core.event.LogEvent;

/**
 * {@code exists("NAME")} (a logrouter extension): true when the value is set and not empty, i.e. exactly when
 * {@code "${NAME}" ne ""} — syslog-ng cannot tell an unset value from an empty one in a template, and neither
 * does this. Works for parsed fields ({@code exists(".json.user.id")}) and macros ({@code exists("PID")}).
 *
 * <p>Threads: the node is immutable; each {@link Filter} it builds belongs to one thread.
 */
final class ExistsFilter implements FilterNode {

    private final ValueRef value;

    ExistsFilter(ValueRef value) {
        this.value = value;
    }

    @Override
    public Filter newFilter() {
        return new Instance(value.newReader());
    }

    @Override
    public String describe() {
        return "exists(\"" + value.text() + "\")";
    }

    private static final class Instance implements Filter {
        private final ValueRef.Reader reader;

        Instance(ValueRef.Reader reader) {
            this.reader = reader;
        }

        @Override
        public boolean test(LogEvent event) {
            reader.read(event);
            return reader.length > 0;
        }
    }
}
