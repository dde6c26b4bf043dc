package dev.logrouter.core.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The syslog-ng macros a template understands. Date macros exist in three flavours, as in syslog-ng:
 * plain and {@code S_} use the message's own timestamp (in its own offset), {@code R_} uses the
 * receive time in the receiver's zone. {@code CONTEXT_ID} (alias {@code _}) is the id of the correlation
 * context the template is evaluated over (see {@link dev.logrouter.core.event.EventContext}). Any other name
 * in {@code ${...}} is a field looked up in the event's name-value table.
 *
 * <p>Threads: immutable.
 */
public enum Macro {
    HOST, PROGRAM, PID, MSGID, MSG, MESSAGE, MSGHDR, LEGACY_MSGHDR,
    FACILITY, FACILITY_NUM, SEVERITY, SEVERITY_NUM, LEVEL, LEVEL_NUM, PRIORITY, PRI,
    SDATA, SOURCE, SOURCEIP, HOST_FROM, FULLHOST_FROM,
    TAGS, TAG, BSDTAG, LOGHOST,
    /** The correlation context id ({@code $CONTEXT_ID}, alias {@code $_}); empty outside a context. */
    CONTEXT_ID,
    // date macros (must stay last: isDate() relies on the order)
    YEAR, MONTH, MONTH_ABBREV, MONTH_NAME, DAY, HOUR, MIN, SEC, USEC, MSEC, WEEKDAY, WEEK_DAY_ABBREV,
    ISODATE, DATE, STAMP, FULLDATE, UNIXTIME, TZOFFSET, TZ,
    YEAR_DAY, MONTH_WEEK, HOUR12, AMPM, WEEK_DAY, WEEK_DAY_NAME, WEEK, ISOWEEK;

    /**
     * Every macro name a template accepts, with the {@code R_} and {@code S_} variants of the date macros
     * ({@code --key} globs of {@code $(format-json)} are matched against this list). Cold path.
     */
    public static List<String> allNames() {
        List<String> names = new ArrayList<>();
        for (Macro m : values()) {
            if (m != CONTEXT_ID) { // correlation only: not a value of a message, so no value-pairs scope has it
                names.add(m.name());
            }
        }
        for (Macro m : values()) {
            if (m.isDate()) {
                names.add("R_" + m.name());
                names.add("S_" + m.name());
            }
        }
        return names;
    }

    /** True for macros that print a time. */
    public boolean isDate() {
        return ordinal() >= YEAR.ordinal();
    }

    /**
     * Resolves a macro name; returns null when it is not a macro (then it names a field). {@code R_} and
     * {@code S_} prefixes are stripped by the caller.
     */
    public static Macro lookup(String name) {
        if (name.equals("_")) {
            return CONTEXT_ID; // syslog-ng's alias; a field named "_" cannot be read with $_ or ${_}
        }
        String n = name.toUpperCase(Locale.ROOT);
        if (!n.equals(name)) {
            return null;
        }
        for (Macro m : values()) {
            if (m.name().equals(n)) {
                return m;
            }
        }
        return null;
    }
}
