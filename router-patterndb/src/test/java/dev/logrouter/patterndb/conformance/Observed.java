package dev.logrouter.patterndb.conformance;

import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/** Reads a classified event the way {@code pdbtool match} prints it (name-value pairs, TAGS). */
final class Observed {

    private static final String[] HEADERS = {"HOST", "MESSAGE", "PROGRAM", "PID", "MSGID"};

    private Observed() {
    }

    /** A value by name ({@code MESSAGE}, {@code PROGRAM}, ... are header fields); unset reads as "". */
    static String value(LogEvent e, String name) {
        if (name.equals("TAGS")) {
            StringBuilder t = new StringBuilder();
            for (int i = 0; i < e.tagCount(); i++) {
                t.append(i > 0 ? "," : "").append(Tags.nameString(e.tagAt(i)));
            }
            return t.toString();
        }
        int h = LogEvent.headerField(name);
        if (h >= 0) {
            return e.isFieldSet(h) ? header(e, h) : "";
        }
        String v = e.fields().get(name);
        return v == null ? "" : v;
    }

    private static String header(LogEvent e, int h) {
        return new String(e.fieldArray(h), e.fieldOffset(h), e.fieldLength(h), StandardCharsets.UTF_8);
    }

    /** Every set value plus TAGS (tag names sorted: the reference numbers tags in its own first-use order). */
    static Map<String, String> all(LogEvent e) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String h : HEADERS) {
            int f = LogEvent.headerField(h);
            if (e.isFieldSet(f)) {
                out.put(h, header(e, f));
            }
        }
        FieldTable t = e.fields();
        for (int i = 0; i < t.size(); i++) {
            out.put(t.name(i), t.value(i));
        }
        TreeSet<String> tags = new TreeSet<>();
        for (int i = 0; i < e.tagCount(); i++) {
            tags.add(Tags.nameString(e.tagAt(i)));
        }
        out.put("TAGS", String.join(",", tags));
        return out;
    }

    /**
     * {@code pairs} as the corpus' reference values were recorded: printed as {@code NAME=VALUE} lines (as
     * {@code pdbtool match} prints them) and read back by the corpus tool's rule — blank lines are dropped and a
     * line that does not look like {@code NAME=VALUE} (no space in NAME) continues the previous value — so that
     * multi-line values compare the way the reference's were stored.
     */
    static Map<String, String> asRecorded(Map<String, String> pairs) {
        StringBuilder printed = new StringBuilder();
        pairs.forEach((k, v) -> printed.append(k).append('=').append(v).append('\n'));
        Map<String, String> out = new LinkedHashMap<>();
        String last = null;
        for (String line : printed.toString().split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq > 0 && line.substring(0, eq).indexOf(' ') < 0) {
                last = line.substring(0, eq);
                out.put(last, line.substring(eq + 1));
            } else if (last != null) {
                out.put(last, out.get(last) + "\n" + line);
            }
        }
        return out;
    }

    /** The reference's TAGS value with its names sorted, to compare with {@link #all}. */
    static String sortedTags(String tags) {
        if (tags.isEmpty()) {
            return "";
        }
        String[] t = tags.split(",");
        Arrays.sort(t);
        return String.join(",", new TreeSet<>(Arrays.asList(t)));
    }
}
