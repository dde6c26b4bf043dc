package dev.logrouter.core.template;

import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.StructuredData;
import dev.logrouter.core.util.Glob;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * syslog-ng's value-pairs selection, as {@code $(format-json)} uses it: which name-value pairs of an event
 * to print, under which names. Compiled once from {@code --scope}, {@code --key}, {@code --exclude},
 * {@code --pair} and {@code --rekey} options ({@link Builder}); {@link #collect} gathers one event's pairs
 * into reusable buffers, renamed, sorted in syslog-ng's order (descending byte order of the names) and with
 * duplicates resolved (an explicit {@code --pair} beats a macro, which beats a field of the same name).
 *
 * <p>Selection rules (syslog-ng 3.38 {@code lib/value-pairs}): a field of the event's name-value table is
 * taken when its scope is selected ({@code nv-pairs}: names without a leading dot; {@code dot-nv-pairs}:
 * names with one; {@code sdata} and {@code rfc5424}: {@code .SDATA.*}), then every {@code --key} (include)
 * and {@code --exclude} glob that matches the name overrides that decision in order, the last one winning.
 * Macros come from the scopes' macro sets ({@code rfc3164}: FACILITY PRIORITY HOST PROGRAM PID MESSAGE DATE;
 * {@code rfc5424}: those and MSGID; {@code selected-macros}: those and TAGS SOURCEIP) and, when any glob is
 * given, from every macro a {@code --key} glob names; the same globs can exclude them; a macro that renders
 * empty is left out. {@code --pair NAME=TEMPLATE} values are always taken.
 *
 * <p>Threads: an instance keeps scratch buffers and belongs to one thread; {@link #copy()} gives another
 * thread its own.
 */
final class ValuePairs {

    static final int NV_PAIRS = 0x01;
    static final int DOT_NV_PAIRS = 0x02;
    static final int RFC3164 = 0x04;
    static final int RFC5424 = 0x08;
    static final int ALL_MACROS = 0x10;
    static final int SELECTED_MACROS = 0x20;
    static final int SDATA = 0x40;
    static final int EVERYTHING = 0x7f;

    private static final List<String> RFC3164_MACROS =
            List.of("FACILITY", "PRIORITY", "HOST", "PROGRAM", "PID", "MESSAGE", "DATE");
    private static final List<String> RFC5424_MACROS = List.of("MSGID");
    /** syslog-ng's set also has SEQNUM, which logrouter does not keep. */
    private static final List<String> SELECTED_MACROS_SET = List.of("TAGS", "SOURCEIP");

    private static final int SHIFT = 0;
    private static final int ADD_PREFIX = 1;
    private static final int REPLACE_PREFIX = 2;

    /** One {@code --rekey GLOB} with its operations, applied in order to the names the glob matches. */
    private record Rekey(Glob glob, int[] ops, int[] shifts, byte[][] from, byte[][] to) {
    }

    // compiled options
    private final int scopes;
    private final Glob[] patterns;
    private final boolean[] include;
    private final boolean scanFields;
    private final byte[][] macroNames;
    private final Template[] macroValues;
    private final byte[][] pairNames;
    private final Template[] pairValues;
    private final Rekey[] rekeys;
    private final boolean omitEmpty;
    private final boolean initialDotToUnderscore;

    // per-event scratch
    private final ByteBuilder names = new ByteBuilder(512);
    private final ByteBuilder values = new ByteBuilder(1024);
    private ByteBuilder key = new ByteBuilder(64);
    private ByteBuilder keyTmp = new ByteBuilder(64);
    private int[] nOff = new int[32];
    private int[] nLen = new int[32];
    private int[] vOff = new int[32];
    private int[] vLen = new int[32];
    /** Whether pair k's value is read in place from the event's field table (else from {@link #values}). */
    private boolean[] vInTable = new boolean[32];
    /** The field table's buffer of the event last collected. */
    private byte[] tableData;
    private int[] order = new int[32];
    private int[] sortTmp = new int[32];
    private int count;
    private int unique;
    /**
     * The names (bytes and lengths, in the order added) the current {@link #order} was sorted for: consecutive
     * events usually carry the same names in the same order, and then the sort is skipped (it was about a quarter of
     * a format-json Kafka value's cost in JMH).
     */
    private final ByteBuilder sortedNames = new ByteBuilder(512);
    private int[] sortedLens = new int[32];
    private int sortedCount = -1;

    private ValuePairs(int scopes, Glob[] patterns, boolean[] include, byte[][] macroNames, Template[] macroValues,
                       byte[][] pairNames, Template[] pairValues, Rekey[] rekeys, boolean omitEmpty,
                       boolean initialDotToUnderscore) {
        this.scopes = scopes;
        this.patterns = patterns;
        this.include = include;
        this.scanFields = (scopes & (NV_PAIRS | DOT_NV_PAIRS | SDATA | RFC5424)) != 0 || patterns.length > 0;
        this.macroNames = macroNames;
        this.macroValues = macroValues;
        this.pairNames = pairNames;
        this.pairValues = pairValues;
        this.rekeys = rekeys;
        this.omitEmpty = omitEmpty;
        this.initialDotToUnderscore = initialDotToUnderscore;
    }

    /** Same options, own scratch and own template instances. */
    ValuePairs copy() {
        return new ValuePairs(scopes, patterns, include, macroNames, copyAll(macroValues), pairNames,
                copyAll(pairValues), rekeys, omitEmpty, initialDotToUnderscore);
    }

    private static Template[] copyAll(Template[] ts) {
        Template[] c = new Template[ts.length];
        for (int i = 0; i < ts.length; i++) {
            c[i] = ts[i].copy();
        }
        return c;
    }

    // ------------------------------------------------------------------ hot path

    /** Gathers the pairs of {@code e}; read them with {@link #size()} and the accessors, in output order. */
    void collect(LogEvent e) {
        names.reset();
        values.reset();
        count = 0;
        if (scanFields) {
            FieldTable t = e.fields();
            byte[] d = t.data();
            tableData = d;
            for (int i = 0; i < t.size(); i++) {
                int no = t.nameOffset(i);
                int nl = t.nameLength(i);
                boolean dotted = nl > 0 && d[no] == '.';
                boolean inc = (dotted && (scopes & DOT_NV_PAIRS) != 0) || (!dotted && (scopes & NV_PAIRS) != 0)
                        || ((scopes & (SDATA | RFC5424)) != 0 && StructuredData.isSdEntry(t, i));
                for (int p = 0; p < patterns.length; p++) {
                    if (patterns[p].matches(d, no, nl)) {
                        inc = include[p];
                    }
                }
                int vl = t.valueLength(i);
                if (!inc || (omitEmpty && vl == 0)) {
                    continue;
                }
                add(d, no, nl, t.valueOffset(i), vl, true); // the value is read in place, not copied
            }
        }
        for (int m = 0; m < macroValues.length; m++) {
            int at = values.length();
            macroValues[m].render(e, values);
            int vl = values.length() - at;
            if (vl > 0) {
                add(macroNames[m], 0, macroNames[m].length, at, vl, false);
            }
        }
        for (int p = 0; p < pairValues.length; p++) {
            int at = values.length();
            pairValues[p].render(e, values);
            int vl = values.length() - at;
            if (omitEmpty && vl == 0) {
                continue;
            }
            add(pairNames[p], 0, pairNames[p].length, at, vl, false);
        }
        sortAndResolve();
    }

    /** Number of pairs collected, after duplicates were resolved. */
    int size() {
        return unique;
    }

    /** The buffer all names point into. */
    byte[] nameArray() {
        return names.array();
    }

    int nameOffset(int k) {
        return nOff[order[k]];
    }

    int nameLength(int k) {
        return nLen[order[k]];
    }

    /** The buffer pair {@code k}'s value is in (the event's field table, or the rendered macros and pairs). */
    byte[] valueArray(int k) {
        return vInTable[order[k]] ? tableData : values.array();
    }

    int valueOffset(int k) {
        return vOff[order[k]];
    }

    int valueLength(int k) {
        return vLen[order[k]];
    }

    /**
     * Records a pair whose value is at {@code valueAt} in the field table ({@code inTable}) or in {@link #values};
     * the name is renamed into {@link #names}.
     */
    private void add(byte[] src, int off, int len, int valueAt, int valueLen, boolean inTable) {
        if (count == nOff.length) {
            int cap = count * 2;
            nOff = Arrays.copyOf(nOff, cap);
            nLen = Arrays.copyOf(nLen, cap);
            vOff = Arrays.copyOf(vOff, cap);
            vLen = Arrays.copyOf(vLen, cap);
            vInTable = Arrays.copyOf(vInTable, cap);
            order = new int[cap];
            sortTmp = new int[cap];
        }
        int at = names.length();
        if (rekeys.length == 0) {
            names.append(src, off, len);
        } else {
            rename(src, off, len);
            names.append(key.array(), 0, key.length());
            len = key.length();
        }
        if (initialDotToUnderscore && len > 0 && names.array()[at] == '.') {
            names.array()[at] = '_';
        }
        nOff[count] = at;
        nLen[count] = len;
        vOff[count] = valueAt;
        vLen[count] = valueLen;
        vInTable[count] = inTable;
        count++;
    }

    /** Applies the {@code --rekey} operations to a name, leaving the result in {@link #key}. */
    private void rename(byte[] src, int off, int len) {
        key.reset();
        key.append(src, off, len);
        for (Rekey r : rekeys) {
            if (!r.glob().matches(key.array(), 0, key.length())) {
                continue;
            }
            for (int o = 0; o < r.ops().length; o++) {
                switch (r.ops()[o]) {
                    case SHIFT: {
                        int n = Math.min(r.shifts()[o], key.length());
                        byte[] a = key.array();
                        System.arraycopy(a, n, a, 0, key.length() - n);
                        key.setLength(key.length() - n);
                        break;
                    }
                    case ADD_PREFIX:
                        swapIn(r.to()[o], 0);
                        break;
                    default: {
                        byte[] from = r.from()[o];
                        if (key.length() >= from.length
                                && Arrays.equals(key.array(), 0, from.length, from, 0, from.length)) {
                            swapIn(r.to()[o], from.length);
                        }
                    }
                }
            }
        }
    }

    /** key = prefix + key[skip..]. */
    private void swapIn(byte[] prefix, int skip) {
        keyTmp.reset();
        keyTmp.append(prefix);
        keyTmp.append(key.array(), skip, key.length() - skip);
        ByteBuilder t = key;
        key = keyTmp;
        keyTmp = t;
    }

    /** Sorts the pairs by name, descending (syslog-ng's order), keeping the last one added of equal names. */
    private void sortAndResolve() {
        if (sameNamesAsLastSort()) {
            return; // order and unique still hold: pair i is named as pair i was then
        }
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        mergeSort(0, count);
        byte[] a = names.array();
        int w = 0;
        for (int k = 0; k < count; k++) {
            int i = order[k];
            if (k + 1 < count) {
                int j = order[k + 1];
                if (Arrays.equals(a, nOff[i], nOff[i] + nLen[i], a, nOff[j], nOff[j] + nLen[j])) {
                    continue; // a later one of the same name follows (the sort is stable)
                }
            }
            order[w++] = i;
        }
        unique = w;
        rememberSortedNames();
    }

    /** Whether the pairs just collected have the names, in the order added, the last sort was made for. */
    private boolean sameNamesAsLastSort() {
        return count == sortedCount && names.length() == sortedNames.length()
                && Arrays.equals(nLen, 0, count, sortedLens, 0, count)
                && Arrays.equals(names.array(), 0, names.length(), sortedNames.array(), 0, names.length());
    }

    private void rememberSortedNames() {
        sortedNames.reset();
        sortedNames.append(names.array(), 0, names.length());
        if (sortedLens.length < count) {
            sortedLens = new int[nLen.length];
        }
        System.arraycopy(nLen, 0, sortedLens, 0, count);
        sortedCount = count;
    }

    private void mergeSort(int from, int to) {
        if (to - from < 2) {
            return;
        }
        if (to - from <= 8) {
            for (int i = from + 1; i < to; i++) {
                int x = order[i];
                int j = i - 1;
                while (j >= from && before(x, order[j])) {
                    order[j + 1] = order[j];
                    j--;
                }
                order[j + 1] = x;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(from, mid);
        mergeSort(mid, to);
        System.arraycopy(order, from, sortTmp, from, to - from);
        int l = from;
        int r = mid;
        for (int k = from; k < to; k++) {
            if (r >= to || (l < mid && !before(sortTmp[r], sortTmp[l]))) {
                order[k] = sortTmp[l++];
            } else {
                order[k] = sortTmp[r++];
            }
        }
    }

    /** True when pair {@code x} sorts strictly before pair {@code y}: its name is greater (descending order). */
    private boolean before(int x, int y) {
        byte[] a = names.array();
        return Arrays.compareUnsigned(a, nOff[x], nOff[x] + nLen[x], a, nOff[y], nOff[y] + nLen[y]) > 0;
    }

    // ------------------------------------------------------------------ configuration

    /**
     * Collects the options of one value-pairs specification in command-line order, as syslog-ng's
     * {@code value_pairs_new_from_cmdline} does. Cold path.
     */
    static final class Builder {
        private int scopes;
        private final List<Glob> patterns = new ArrayList<>();
        private final List<Boolean> include = new ArrayList<>();
        private final List<String> pairNames = new ArrayList<>();
        private final List<String> pairTemplates = new ArrayList<>();
        private final List<Rekey> rekeys = new ArrayList<>();
        private boolean omitEmpty;
        private boolean initialDotToUnderscore;

        private String rekeyGlob;
        private List<int[]> pendingOps;
        private List<Object[]> pendingArgs;

        Builder initialDotToUnderscore(boolean on) {
            this.initialDotToUnderscore = on;
            return this;
        }

        Builder omitEmptyValues() {
            this.omitEmpty = true;
            return this;
        }

        /** {@code --scope a,b}: one or more scope names; {@code none} clears the scopes given so far. */
        Builder scope(String list) {
            finishRekey();
            for (String s : list.split(",", -1)) {
                String n = s.trim().toLowerCase(Locale.ROOT).replace('_', '-');
                switch (n) {
                    case "nv-pairs" -> scopes |= NV_PAIRS;
                    case "dot-nv-pairs" -> scopes |= DOT_NV_PAIRS;
                    case "all-nv-pairs" -> scopes |= NV_PAIRS | DOT_NV_PAIRS;
                    case "rfc3164", "core", "base" -> scopes |= RFC3164;
                    case "rfc5424", "syslog-proto" -> scopes |= RFC5424;
                    case "all-macros" -> scopes |= ALL_MACROS;
                    case "selected-macros" -> scopes |= SELECTED_MACROS;
                    case "sdata" -> scopes |= SDATA;
                    case "everything" -> scopes |= EVERYTHING;
                    case "none" -> scopes = 0;
                    default -> throw new IllegalArgumentException("unknown scope '" + s + "': use nv-pairs, "
                            + "dot-nv-pairs, all-nv-pairs, rfc3164 (core, base), rfc5424 (syslog-proto), all-macros, "
                            + "selected-macros, sdata, everything or none");
                }
            }
            return this;
        }

        /** {@code --key GLOB[,GLOB]}: include; also starts a rekey block for following {@code --shift} etc. */
        Builder key(String list) {
            finishRekey();
            rekeyGlob = list;
            for (String g : list.split(",", -1)) {
                patterns.add(new Glob(g));
                include.add(true);
            }
            return this;
        }

        /** {@code --exclude GLOB[,GLOB]}. */
        Builder exclude(String list) {
            finishRekey();
            for (String g : list.split(",", -1)) {
                patterns.add(new Glob(g));
                include.add(false);
            }
            return this;
        }

        /** {@code --rekey GLOB}: starts a block of renaming operations for the names the glob matches. */
        Builder rekey(String glob) {
            finishRekey();
            rekeyGlob = glob;
            return this;
        }

        /** {@code --pair NAME=TEMPLATE}. */
        Builder pair(String spec) {
            finishRekey();
            int eq = spec.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("--pair needs NAME=TEMPLATE, got '" + spec + "'");
            }
            pairNames.add(spec.substring(0, eq));
            pairTemplates.add(unwrapTypeHint(spec.substring(eq + 1)));
            return this;
        }

        Builder shift(String n, String option) {
            int v;
            try {
                v = Integer.parseInt(n.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " needs a number of characters, got '" + n + "'");
            }
            if (v < 0) {
                throw new IllegalArgumentException(option + " cannot be negative, got " + v);
            }
            op(option, new int[] {SHIFT, v}, null, null);
            return this;
        }

        Builder addPrefix(String prefix) {
            op("--add-prefix", new int[] {ADD_PREFIX, 0}, null, prefix);
            return this;
        }

        Builder replacePrefix(String spec) {
            int eq = spec.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("--replace-prefix needs OLD=NEW, got '" + spec + "'");
            }
            op("--replace-prefix", new int[] {REPLACE_PREFIX, 0}, spec.substring(0, eq), spec.substring(eq + 1));
            return this;
        }

        private void op(String option, int[] op, String from, String to) {
            if (rekeyGlob == null) {
                throw new IllegalArgumentException(option + " must follow --key or --rekey (it renames the names "
                        + "that glob matches)");
            }
            if (pendingOps == null) {
                pendingOps = new ArrayList<>();
                pendingArgs = new ArrayList<>();
            }
            pendingOps.add(op);
            pendingArgs.add(new Object[] {from, to});
        }

        private void finishRekey() {
            if (pendingOps != null) {
                int n = pendingOps.size();
                int[] ops = new int[n];
                int[] shifts = new int[n];
                byte[][] from = new byte[n][];
                byte[][] to = new byte[n][];
                for (int i = 0; i < n; i++) {
                    ops[i] = pendingOps.get(i)[0];
                    shifts[i] = pendingOps.get(i)[1];
                    Object[] a = pendingArgs.get(i);
                    from[i] = a[0] == null ? null : ((String) a[0]).getBytes(StandardCharsets.UTF_8);
                    to[i] = a[1] == null ? null : ((String) a[1]).getBytes(StandardCharsets.UTF_8);
                }
                rekeys.add(new Rekey(new Glob(rekeyGlob), ops, shifts, from, to));
            }
            pendingOps = null;
            pendingArgs = null;
            rekeyGlob = null;
        }

        ValuePairs build(ZoneId zone) {
            finishRekey();
            Set<String> macros = new LinkedHashSet<>();
            if (!patterns.isEmpty()) {
                for (String m : Macro.allNames()) {
                    if (selected(m, false)) {
                        macros.add(m);
                    }
                }
            }
            if ((scopes & (RFC3164 | RFC5424 | SELECTED_MACROS)) != 0) {
                addSelected(macros, RFC3164_MACROS);
            }
            if ((scopes & RFC5424) != 0) {
                addSelected(macros, RFC5424_MACROS);
            }
            if ((scopes & SELECTED_MACROS) != 0) {
                addSelected(macros, SELECTED_MACROS_SET);
            }
            if ((scopes & ALL_MACROS) != 0) {
                addSelected(macros, Macro.allNames());
            }
            byte[][] mNames = new byte[macros.size()][];
            Template[] mValues = new Template[macros.size()];
            int i = 0;
            for (String m : macros) {
                mNames[i] = m.getBytes(StandardCharsets.UTF_8);
                mValues[i++] = Template.compile("${" + m + "}", zone);
            }
            byte[][] pNames = new byte[pairNames.size()][];
            Template[] pValues = new Template[pairNames.size()];
            for (int p = 0; p < pNames.length; p++) {
                pNames[p] = pairNames.get(p).getBytes(StandardCharsets.UTF_8);
                pValues[p] = Template.compile(pairTemplates.get(p), zone);
            }
            boolean[] inc = new boolean[include.size()];
            for (int k = 0; k < inc.length; k++) {
                inc[k] = include.get(k);
            }
            return new ValuePairs(scopes, patterns.toArray(new Glob[0]), inc, mNames, mValues, pNames, pValues,
                    rekeys.toArray(new Rekey[0]), omitEmpty, initialDotToUnderscore);
        }

        private void addSelected(Set<String> macros, List<String> set) {
            for (String m : set) {
                if (selected(m, true)) {
                    macros.add(m);
                }
            }
        }

        /** The last glob matching {@code name} decides; {@code dflt} when none matches. */
        private boolean selected(String name, boolean dflt) {
            byte[] n = name.getBytes(StandardCharsets.UTF_8);
            boolean in = dflt;
            for (int k = 0; k < patterns.size(); k++) {
                if (patterns.get(k).matches(n)) {
                    in = include.get(k);
                }
            }
            return in;
        }

        private static final Set<String> TYPE_HINTS = Set.of("string", "literal", "boolean", "int", "int32",
                "int64", "double", "datetime", "list", "json");

        /**
         * syslog-ng 3.38 accepts type hints such as {@code int32($PID)}; logrouter writes every value as a JSON
         * string, so a known hint is unwrapped to its template and an unknown one is rejected.
         */
        private static String unwrapTypeHint(String v) {
            int i = 0;
            while (i < v.length() && (Character.isLetterOrDigit(v.charAt(i)) || v.charAt(i) == '_')) {
                i++;
            }
            int open = i;
            while (open < v.length() && (v.charAt(open) == ' ' || v.charAt(open) == '\t')) {
                open++;
            }
            if (i == 0 || open >= v.length() || v.charAt(open) != '(' || !v.endsWith(")")
                    || !(Character.isLetter(v.charAt(0)) || v.charAt(0) == '_') || v.indexOf(')') != v.length() - 1) {
                return v;
            }
            String type = v.substring(0, i);
            if (!TYPE_HINTS.contains(type)) {
                throw new IllegalArgumentException("unknown type hint '" + type + "' in '" + v + "' (values are "
                        + "written as JSON strings; write the template without it)");
            }
            return v.substring(open + 1, v.length() - 1);
        }
    }
}
