package dev.logrouter.core.template;

import dev.logrouter.core.event.LogEvent;

import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;

/**
 * {@code $(format-json ...)}: the event's name-value pairs selected by syslog-ng's value-pairs options
 * ({@link ValuePairs}) written as one JSON object, as syslog-ng 3.38 writes it:
 * <ul>
 *   <li>names are split into a path at dots and nested into objects: {@code a.b=1 a.c=2} gives
 *       {@code {"a":{"c":"2","b":"1"}}}; an {@code @} followed by digits (and {@code .digits} groups) stays
 *       in its segment, so {@code .SDATA.origin@32473.1.ip} nests under {@code "origin@32473.1"};
 *       a dot right after another dot does not split;</li>
 *   <li>a leading dot becomes {@code _} ({@code .SDATA.id.p} is written under {@code "_SDATA"}) unless
 *       {@code --leave-initial-dot} is given;</li>
 *   <li>keys come in descending byte order of their full names (syslog-ng's order); every value is a JSON
 *       string, escaped by {@link JsonStringEscaper};</li>
 *   <li>a name that is both a value and an object ({@code a=1} and {@code a.b=2}) puts the value inside the
 *       object under its last segment ({@code {"a":{"b":"2","a":"1"}}}), as syslog-ng does.</li>
 * </ul>
 *
 * <p>Options: {@code --scope S[,S]}, {@code --key GLOB}, {@code --exclude GLOB}, {@code --pair NAME=TEMPLATE}
 * and bare {@code NAME=TEMPLATE} / {@code GLOB}, {@code --rekey GLOB} with {@code --shift N},
 * {@code --add-prefix P}, {@code --replace-prefix OLD=NEW}, {@code --omit-empty-values},
 * {@code --leave-initial-dot}; short forms {@code -s -k -x -p -r -S -A -R}; {@code --opt=value} works too.
 *
 * <p>Threads: an instance has scratch state and belongs to one thread ({@link #copy()}).
 */
final class FormatJson implements TemplateFunction {

    static final String NAME = "format-json";

    private final ValuePairs pairs;
    private int[] tokOff = new int[16];
    private int[] tokLen = new int[16];
    private int[] stackOff = new int[16];
    private int[] stackLen = new int[16];

    private FormatJson(ValuePairs pairs) {
        this.pairs = pairs;
    }

    /** Parses the arguments of a call (after the function name). */
    static FormatJson compile(List<String> args, ZoneId zone) {
        ValuePairs.Builder b = new ValuePairs.Builder();
        boolean leaveInitialDot = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (!a.startsWith("-") || a.equals("-")) {
                if (a.indexOf('=') >= 0) {
                    b.pair(a);
                } else {
                    b.key(a);
                }
                continue;
            }
            String opt = a;
            String value = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                opt = a.substring(0, eq);
                value = a.substring(eq + 1);
            }
            switch (opt) {
                case "--omit-empty-values":
                    b.omitEmptyValues();
                    continue;
                case "--leave-initial-dot":
                    leaveInitialDot = true;
                    continue;
                case "--scope", "-s", "--key", "-k", "--exclude", "-x", "--pair", "-p", "--rekey", "-r", "--shift",
                     "-S", "--add-prefix", "-A", "--replace-prefix", "-R", "--replace":
                    break;
                default:
                    throw new IllegalArgumentException("$(" + NAME + ") unknown option: " + opt
                            + " (known: --scope --key --exclude --pair --rekey --shift --add-prefix --replace-prefix "
                            + "--omit-empty-values --leave-initial-dot)");
            }
            if (value == null) {
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException("$(" + NAME + "): " + opt + " needs a value");
                }
                value = args.get(++i);
            }
            switch (opt) {
                case "--scope", "-s" -> b.scope(value);
                case "--key", "-k" -> b.key(value);
                case "--exclude", "-x" -> b.exclude(value);
                case "--pair", "-p" -> b.pair(value);
                case "--rekey", "-r" -> b.rekey(value);
                case "--shift", "-S" -> b.shift(value, opt);
                case "--add-prefix", "-A" -> b.addPrefix(value);
                default -> b.replacePrefix(value);
            }
        }
        return new FormatJson(b.initialDotToUnderscore(!leaveInitialDot).build(zone));
    }

    @Override
    public TemplateFunction copy() {
        return new FormatJson(pairs.copy());
    }

    @Override
    public void render(LogEvent e, ByteBuilder out) {
        ValuePairs vp = pairs;
        vp.collect(e);
        byte[] names = vp.nameArray();
        out.append((byte) '{');
        boolean comma = false;
        int depth = 0;
        for (int k = 0; k < vp.size(); k++) {
            int n = tokenize(names, vp.nameOffset(k), vp.nameLength(k));
            if (n == 0) {
                continue;
            }
            int common = 0;
            while (common < depth && common < n && Arrays.equals(names, stackOff[common],
                    stackOff[common] + stackLen[common], names, tokOff[common], tokOff[common] + tokLen[common])) {
                common++;
            }
            while (depth > common) {
                out.append((byte) '}');
                depth--;
                comma = true;
            }
            for (int t = depth; t < n - 1; t++) {
                if (comma) {
                    out.append((byte) ',');
                }
                out.append((byte) '"');
                JsonStringEscaper.escape(out, names, tokOff[t], tokLen[t]);
                out.append((byte) '"').append((byte) ':').append((byte) '{');
                if (depth == stackOff.length) {
                    stackOff = Arrays.copyOf(stackOff, depth * 2);
                    stackLen = Arrays.copyOf(stackLen, depth * 2);
                }
                stackOff[depth] = tokOff[t];
                stackLen[depth] = tokLen[t];
                depth++;
                comma = false;
            }
            if (comma) {
                out.append((byte) ',');
            }
            out.append((byte) '"');
            JsonStringEscaper.escape(out, names, tokOff[n - 1], tokLen[n - 1]);
            out.append((byte) '"').append((byte) ':').append((byte) '"');
            JsonStringEscaper.escape(out, vp.valueArray(k), vp.valueOffset(k), vp.valueLength(k));
            out.append((byte) '"');
            comma = true;
        }
        while (depth > 0) {
            out.append((byte) '}');
            depth--;
        }
        out.append((byte) '}');
    }

    /**
     * Splits a name into path segments at dots, as syslog-ng's value-pairs walker does: an empty segment is
     * not one (a dot right after a dot, or at the start, stays in the next segment), and {@code @} followed by
     * digits and {@code .digits} groups stays in its segment. Returns the number of segments.
     */
    private int tokenize(byte[] s, int off, int len) {
        int end = off + len;
        int n = 0;
        int ts = off;
        int te = off;
        while (te < end) {
            byte c = s[te];
            if (c == '@') {
                do {
                    te++;
                    while (te < end && s[te] >= '0' && s[te] <= '9') {
                        te++;
                    }
                } while (te + 1 < end && s[te] == '.' && s[te + 1] >= '0' && s[te + 1] <= '9');
            } else if (c == '.' && ts != te) {
                n = token(n, ts, te);
                te++;
                ts = te;
            } else {
                te++;
                while (te < end && s[te] != '@' && s[te] != '.') {
                    te++;
                }
            }
        }
        if (ts != te) {
            n = token(n, ts, te);
        }
        return n;
    }

    private int token(int n, int from, int to) {
        if (n == tokOff.length) {
            tokOff = Arrays.copyOf(tokOff, n * 2);
            tokLen = Arrays.copyOf(tokLen, n * 2);
        }
        tokOff[n] = from;
        tokLen[n] = to - from;
        return n + 1;
    }
}
