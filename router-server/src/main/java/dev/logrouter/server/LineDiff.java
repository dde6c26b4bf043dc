package dev.logrouter.server;

import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff of two lists of lines, reduced to one hunk: the lines between the common beginning and the common
 * end, with up to {@value #CONTEXT} lines of context around them and at most {@value #MAX_LINES} lines from each side
 * (enough to see what a configuration change did; {@code diff -u} of the two files shows the rest).
 *
 * <p>Threads: static, any thread.
 */
final class LineDiff {

    /** Unchanged lines shown before and after the change. */
    static final int CONTEXT = 2;
    /** Most removed and most added lines shown. */
    static final int MAX_LINES = 20;

    private LineDiff() {
    }

    /**
     * The diff from {@code a} to {@code b}: {@code --- aName}, {@code +++ bName}, {@code @@ -FROM,N +FROM,M @@},
     * then the lines ({@code ' '} context, {@code -} only in {@code a}, {@code +} only in {@code b}); empty when the
     * lists are equal.
     */
    static List<String> diff(List<String> a, List<String> b, String aName, String bName) {
        int prefix = 0;
        while (prefix < a.size() && prefix < b.size() && a.get(prefix).equals(b.get(prefix))) {
            prefix++;
        }
        if (prefix == a.size() && prefix == b.size()) {
            return List.of();
        }
        int suffix = 0;
        while (suffix < a.size() - prefix && suffix < b.size() - prefix
                && a.get(a.size() - 1 - suffix).equals(b.get(b.size() - 1 - suffix))) {
            suffix++;
        }
        int from = Math.max(0, prefix - CONTEXT);
        int aEnd = a.size() - suffix; // exclusive: the changed lines of a are [prefix, aEnd)
        int bEnd = b.size() - suffix;
        int after = Math.min(CONTEXT, suffix);
        List<String> out = new ArrayList<>();
        out.add("--- " + aName);
        out.add("+++ " + bName);
        int aLines = aEnd + after - from;
        int bLines = bEnd + after - from;
        out.add("@@ -" + (aLines == 0 ? from : from + 1) + "," + aLines + " +" + (bLines == 0 ? from : from + 1) + ","
                + bLines + " @@");
        for (int i = from; i < prefix; i++) {
            out.add(" " + a.get(i));
        }
        changed(a, prefix, aEnd, "-", out);
        changed(b, prefix, bEnd, "+", out);
        for (int i = aEnd; i < aEnd + after; i++) {
            out.add(" " + a.get(i));
        }
        return out;
    }

    private static void changed(List<String> lines, int from, int to, String mark, List<String> out) {
        for (int i = from; i < Math.min(to, from + MAX_LINES); i++) {
            out.add(mark + lines.get(i));
        }
        if (to - from > MAX_LINES) {
            out.add(mark + "... (" + (to - from - MAX_LINES) + " more lines)");
        }
    }
}
