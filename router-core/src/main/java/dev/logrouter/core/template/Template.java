package dev.logrouter.core.template;

import dev.logrouter.core.event.CivilTime;
import dev.logrouter.core.event.EventContext;
import dev.logrouter.core.event.FieldName;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.SingleEventContext;
import dev.logrouter.core.event.StructuredData;
import dev.logrouter.core.event.SyslogNames;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.event.ZoneOffsetCache;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * A compiled syslog-ng style template such as {@code "${ISODATE} ${HOST} ${PROGRAM}[${PID}]: ${MSG}\n"}:
 * literal text, {@code $NAME} / {@code ${NAME}} macros (see {@link Macro}) and field references
 * ({@code ${.SDATA.meta.sequenceId}}, parsed fields by name), and template functions
 * {@code $(name args...)} (see {@link TemplateFunctions}) compiled with the template. {@code $$} is a
 * literal {@code $}. A reference to an unset field renders as nothing.
 *
 * <p>Over a context (an event whose {@link LogEvent#context()} is set, see {@link EventContext}; the event is the
 * last message of the list): {@code ${NAME}@N} and {@code $(func ...)@N} read the message N places back from the
 * last ({@code @0} = the last); a reference beyond the oldest message renders as nothing; without a context the
 * event alone is the list, so {@code @0} is the event and {@code @1} and beyond are empty. A function with
 * {@code @N} sees that one message as its whole context ({@code $(context-length)@1} is 1), as in syslog-ng. As in
 * syslog-ng 3.38 (spec quirk 9) a multi-digit N is read as {@code n += n * 10 + digit}, so {@code @10} addresses
 * message 11 and {@code @12} message 13; {@code @} after an <em>unbraced</em> {@code $NAME} is literal text (the
 * reference reads {@code @N} only after {@code ${...}} and {@code $(...)}); an {@code @} after a reference that is
 * not followed by a digit stays literal, and {@code @@} there is one literal {@code @}. {@code $CONTEXT_ID} (alias
 * {@code $_}) prints the context id. A template without {@code @N} pays for this one branch per render, none per
 * part.
 *
 * <p>Rendering writes bytes into a caller-owned {@link ByteBuilder} and allocates nothing.
 *
 * <p>Threads: compile once per owning thread; an instance keeps scratch state and is not thread-safe
 * ({@link #copy()} gives another thread its own).
 */
public final class Template {

    private static final int LITERAL = 0;
    private static final int MACRO = 1;
    private static final int FIELD = 2;
    private static final int FUNCTION = 3;

    /** Date source of a macro part. */
    private static final int STAMP_TIME = 0;
    private static final int RECV_TIME = 1;

    private final String source;
    private final ZoneId receiverZone;
    private final int[] kinds;
    private final Macro[] macros;
    private final int[] timeSources;
    private final byte[][] bytes;
    private final TemplateFunction[] functions;
    /** For each FIELD part, its name resolved for lookup (shared by copies). */
    private final FieldName[] fieldNames;
    /** For each part its message reference (0 = none, else N + 1 as syslog-ng stores it); null when no part has one. */
    private final int[] msgRefs;
    private final boolean literalOnly;

    private final ZoneOffsetCache recvZone;
    /** Civil fields of the last date printed ({@link CivilTime#fields}) and, at index 7, the day of the year (0-based). */
    private final int[] civil = new int[8];
    /** The second and offset {@link #civil} holds the fields of (kept across renders: most messages share them). */
    private long civilFor = Long.MIN_VALUE;
    private int civilOffset;
    /**
     * Per date part, the text it last printed and the second and offset it printed it for: most messages share their
     * second, so a date is formatted once per second and copied otherwise ({@code ${ISODATE}} digit by digit was 6 %
     * of the router's CPU in a Kafka sink's profile). Not for {@code ${USEC}}/{@code ${MSEC}}. Created on first use.
     */
    private byte[][] dateText;
    private long[] dateFor;
    private int[] dateOffset;
    /** Scratch for a composite value when values are escaped ({@link #rawTarget}); created on first need. */
    private ByteBuilder rawScratch;
    /** The one-message context a {@code $(func)@N} part is called with; created on first need. */
    private SingleEventContext single;

    private Template(String source, ZoneId receiverZone, int[] kinds, Macro[] macros, int[] timeSources,
                     byte[][] bytes, FieldName[] fieldNames, int[] msgRefs, TemplateFunction[] functions) {
        this.source = source;
        this.receiverZone = receiverZone;
        this.kinds = kinds;
        this.macros = macros;
        this.timeSources = timeSources;
        this.bytes = bytes;
        this.functions = functions;
        this.recvZone = new ZoneOffsetCache(receiverZone);
        this.fieldNames = fieldNames;
        this.msgRefs = msgRefs;
        boolean lit = true;
        for (int k : kinds) {
            lit &= k == LITERAL;
        }
        this.literalOnly = lit;
    }

    /**
     * Checks a config option's template (null: absent, fine): a template error becomes an
     * {@link IllegalArgumentException} naming the option, which config validation reports with its path.
     */
    public static void checkOption(String option, String text) {
        if (text == null) {
            return;
        }
        try {
            compile(text, java.time.ZoneOffset.UTC);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
        }
    }

    /**
     * The directory a path template's rendered paths must stay in: its literal text before the first macro, up to
     * the last {@code /} ({@code "/"} for a leading slash only, {@code "."} when there is none). Values substituted
     * through {@link PathValueEscaper} cannot leave it; only the literal text could.
     */
    public static String literalDirectory(String pathTemplate) {
        int macro = pathTemplate.indexOf('$');
        String literal = macro < 0 ? pathTemplate : pathTemplate.substring(0, macro);
        int slash = literal.lastIndexOf('/');
        return slash < 0 ? "." : (slash == 0 ? "/" : literal.substring(0, slash));
    }

    /**
     * Compiles a template. Throws {@link IllegalArgumentException} with the position of the error for an
     * unterminated {@code ${} or {@code $(}, an empty name, an unknown template function or bad function
     * arguments.
     */
    public static Template compile(String text, ZoneId receiverZone) {
        List<Integer> kinds = new ArrayList<>();
        List<Macro> macros = new ArrayList<>();
        List<Integer> times = new ArrayList<>();
        List<byte[]> bytes = new ArrayList<>();
        List<TemplateFunction> functions = new ArrayList<>();
        List<Integer> refs = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        int[] cursor = new int[1];
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c != '$') {
                lit.append(c);
                i++;
                continue;
            }
            if (i + 1 < text.length() && text.charAt(i + 1) == '$') {
                lit.append('$');
                i += 2;
                continue;
            }
            if (i + 1 < text.length() && text.charAt(i + 1) == '(') {
                int end = TemplateFunctions.closingParen(text, i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated '$(' at column " + (i + 1) + " of template \""
                            + text + "\": add the closing ')'");
                }
                TemplateFunction f;
                try {
                    f = TemplateFunctions.compile(text.substring(i + 2, end), receiverZone);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(e.getMessage() + " (at column " + (i + 1) + " of template \""
                            + text + "\")", e);
                }
                flushLiteral(lit, kinds, macros, times, bytes, functions, refs);
                kinds.add(FUNCTION);
                macros.add(null);
                times.add(0);
                bytes.add(null);
                functions.add(f);
                cursor[0] = end + 1;
                refs.add(parseMsgRef(text, cursor));
                i = cursor[0];
                continue;
            }
            String name;
            int ref = 0;
            if (i + 1 < text.length() && text.charAt(i + 1) == '{') {
                int end = text.indexOf('}', i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated '${' at column " + (i + 1) + " of template \""
                            + text + "\": add the closing '}'");
                }
                name = text.substring(i + 2, end);
                cursor[0] = end + 1;
                ref = parseMsgRef(text, cursor);
                i = cursor[0];
            } else {
                int j = i + 1;
                while (j < text.length() && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '_')) {
                    j++;
                }
                name = text.substring(i + 1, j);
                i = j;
            }
            if (name.isEmpty()) {
                throw new IllegalArgumentException("empty macro name at column " + i + " of template \"" + text
                        + "\": write $$ for a literal '$'");
            }
            flushLiteral(lit, kinds, macros, times, bytes, functions, refs);
            refs.add(ref);
            int time = STAMP_TIME;
            String macroName = name;
            if (name.startsWith("R_")) {
                time = RECV_TIME;
                macroName = name.substring(2);
            } else if (name.startsWith("S_")) {
                macroName = name.substring(2);
            }
            Macro m = Macro.lookup(macroName);
            if (m != null && (m.isDate() || macroName.equals(name))) {
                kinds.add(MACRO);
                macros.add(m);
                times.add(time);
                bytes.add(null);
            } else {
                kinds.add(FIELD);
                macros.add(null);
                times.add(0);
                bytes.add(name.getBytes(StandardCharsets.UTF_8));
            }
            functions.add(null);
        }
        flushLiteral(lit, kinds, macros, times, bytes, functions, refs);
        int n = kinds.size();
        int[] r = null;
        for (int x = 0; x < n; x++) {
            if (refs.get(x) != 0) {
                if (r == null) {
                    r = new int[n];
                }
                r[x] = refs.get(x);
            }
        }
        int[] k = new int[n];
        int[] t = new int[n];
        for (int x = 0; x < n; x++) {
            k[x] = kinds.get(x);
            t[x] = times.get(x);
        }
        byte[][] b = bytes.toArray(new byte[0][]);
        FieldName[] names = new FieldName[n];
        for (int x = 0; x < n; x++) {
            if (k[x] == FIELD) {
                names[x] = FieldName.of(b[x]);
                b[x] = null; // a field part keeps its name in names[x] only
            }
        }
        return new Template(text, receiverZone, k, macros.toArray(new Macro[0]), t, b, names, r,
                functions.toArray(new TemplateFunction[0]));
    }

    /** Largest message reference kept; anything larger addresses no message of any real context. */
    private static final int MAX_REF = 1 << 30;

    /**
     * syslog-ng's {@code parse_msg_ref}, after a {@code ${...}} or {@code $(...)} that ends at {@code cursor[0]}:
     * {@code @} and digits give the reference (N + 1, with the reference's multi-digit quirk
     * {@code n += n * 10 + digit}) and move the cursor past them; {@code @@} moves it past the first {@code @} only
     * (the second is then literal text); any other {@code @} is left in place as literal text. Returns 0 for none.
     */
    static int parseMsgRef(String text, int[] cursor) {
        int i = cursor[0];
        if (i >= text.length() || text.charAt(i) != '@') {
            return 0;
        }
        int j = i + 1;
        if (j < text.length() && text.charAt(j) >= '0' && text.charAt(j) <= '9') {
            long n = 0;
            while (j < text.length() && text.charAt(j) >= '0' && text.charAt(j) <= '9') {
                n = Math.min(n + n * 10 + (text.charAt(j) - '0'), MAX_REF);
                j++;
            }
            cursor[0] = j;
            return (int) n + 1;
        }
        if (j < text.length() && text.charAt(j) == '@') {
            cursor[0] = j;
        }
        return 0;
    }

    private static void flushLiteral(StringBuilder lit, List<Integer> kinds, List<Macro> macros, List<Integer> times,
                                     List<byte[]> bytes, List<TemplateFunction> functions, List<Integer> refs) {
        if (lit.length() > 0) {
            kinds.add(LITERAL);
            macros.add(null);
            times.add(0);
            bytes.add(lit.toString().getBytes(StandardCharsets.UTF_8));
            functions.add(null);
            refs.add(0);
            lit.setLength(0);
        }
    }

    /** A fresh instance of the same template for another thread (template functions get their own scratch). */
    public Template copy() {
        TemplateFunction[] fs = functions.clone();
        for (int i = 0; i < fs.length; i++) {
            if (fs[i] != null) {
                fs[i] = fs[i].copy();
            }
        }
        return new Template(source, receiverZone, kinds, macros, timeSources, bytes, fieldNames, msgRefs, fs);
    }

    /** The template text as configured. */
    public String source() {
        return source;
    }

    /** True when the template has no macro or field: it renders the same bytes for every event. */
    public boolean isLiteral() {
        return literalOnly;
    }

    /** Renders with values written unchanged. */
    public void render(LogEvent e, ByteBuilder out) {
        render(e, out, ValueEscaper.NONE);
    }

    /**
     * Renders, passing every substituted value through {@code esc}. A part with an {@code @N} reference reads the
     * message it names (nothing when out of range); {@code $CONTEXT_ID} is always the context of {@code e}.
     */
    public void render(LogEvent e, ByteBuilder out, ValueEscaper esc) {
        for (int p = 0; p < kinds.length; p++) {
            int ref = msgRefs == null ? 0 : msgRefs[p];
            LogEvent src = ref == 0 ? e : referenced(e, ref);
            if (src == null) {
                continue;
            }
            switch (kinds[p]) {
                case LITERAL:
                    out.append(bytes[p]);
                    break;
                case FIELD:
                    appendField(src, fieldNames[p], out, esc);
                    break;
                case FUNCTION:
                    if (ref == 0) {
                        appendFunction(functions[p], e, out, esc);
                    } else {
                        appendFunctionOnOne(functions[p], src, e.context(), out, esc);
                    }
                    break;
                default:
                    Macro m = macros[p];
                    if (m.isDate()) {
                        appendDateMacro(p, m, src, out);
                    } else {
                        appendMacro(m, m == Macro.CONTEXT_ID ? e : src, out, esc);
                    }
            }
        }
    }

    /** The message reference {@code ref} (N + 1) addresses, counting back from {@code e}; null when out of range. */
    private static LogEvent referenced(LogEvent e, int ref) {
        EventContext c = e.context();
        if (c == null) {
            return ref == 1 ? e : null;
        }
        return ref > c.size() ? null : c.back(ref - 1);
    }

    /** Calls {@code f} on {@code src} as a one-message context (what {@code $(f)@N} sees). */
    private void appendFunctionOnOne(TemplateFunction f, LogEvent src, EventContext parent, ByteBuilder out,
                                     ValueEscaper esc) {
        if (single == null) {
            single = new SingleEventContext();
        }
        single.enter(src, parent);
        try {
            appendFunction(f, src, out, esc);
        } finally {
            single.exit();
        }
    }

    private void appendDateMacro(int p, Macro m, LogEvent e, ByteBuilder out) {
        long sec;
        int off;
        int usec;
        if (timeSources[p] == RECV_TIME) {
            long ms = e.receivedMillis();
            sec = Math.floorDiv(ms, 1000L);
            usec = (int) Math.floorMod(ms, 1000L) * 1000;
            off = recvZone.offsetAt(sec);
        } else {
            sec = e.stampEpochSecond();
            usec = e.stampMicros();
            off = e.stampOffsetSeconds();
        }
        boolean cacheable = m != Macro.USEC && m != Macro.MSEC;
        if (cacheable && dateText != null && dateText[p] != null && dateFor[p] == sec && dateOffset[p] == off) {
            byte[] t = dateText[p];
            out.append(t, 1, t[0]); // t[0]: its length (a date is shorter than 128 bytes)
            return;
        }
        if (sec != civilFor || off != civilOffset) {
            CivilTime.fields(sec, off, civil);
            civil[7] = (int) (Math.floorDiv(sec + off, 86400L) - CivilTime.daysFromCivil(civil[0], 1, 1));
            civilFor = sec;
            civilOffset = off;
        }
        int at = out.length();
        appendDate(m, sec, usec, off, out);
        if (cacheable) {
            remember(p, sec, off, out.array(), at, out.length() - at);
        }
    }

    /** Keeps the text date part {@code p} printed for {@code sec}/{@code off}, for the next message of that second. */
    private void remember(int p, long sec, int off, byte[] b, int at, int n) {
        if (n > 127) {
            return;
        }
        if (dateText == null) {
            dateText = new byte[kinds.length][];
            dateFor = new long[kinds.length];
            dateOffset = new int[kinds.length];
        }
        byte[] t = dateText[p];
        if (t == null || t.length < n + 1) {
            t = dateText[p] = new byte[Math.max(32, n + 1)];
        }
        t[0] = (byte) n;
        System.arraycopy(b, at, t, 1, n);
        dateFor[p] = sec;
        dateOffset[p] = off;
    }

    private void appendFunction(TemplateFunction f, LogEvent e, ByteBuilder out, ValueEscaper esc) {
        ByteBuilder raw = rawTarget(out, esc);
        f.render(e, raw);
        flushRaw(raw, out, esc);
    }

    /**
     * Where a composite value (a function's output, {@code ${SDATA}}, {@code ${TAGS}}) is written: straight into
     * {@code out}, or, when values are escaped, into a reused scratch buffer so that {@link #flushRaw} escapes
     * it as one value (in a path, the whole list is one directory name).
     */
    private ByteBuilder rawTarget(ByteBuilder out, ValueEscaper esc) {
        if (esc == ValueEscaper.NONE) {
            return out;
        }
        if (rawScratch == null) {
            rawScratch = new ByteBuilder(256);
        }
        rawScratch.reset();
        return rawScratch;
    }

    private static void flushRaw(ByteBuilder raw, ByteBuilder out, ValueEscaper esc) {
        if (raw != out) {
            esc.append(out, raw.array(), 0, raw.length());
        }
    }

    private void appendMacro(Macro m, LogEvent e, ByteBuilder out, ValueEscaper esc) {
        switch (m) {
            case HOST:
                appendHeader(e, LogEvent.HOST, out, esc);
                break;
            case PROGRAM:
                appendHeader(e, LogEvent.PROGRAM, out, esc);
                break;
            case PID:
                appendHeader(e, LogEvent.PID, out, esc);
                break;
            case MSGID:
                appendHeader(e, LogEvent.MSGID, out, esc);
                break;
            case MSG:
            case MESSAGE:
                appendHeader(e, LogEvent.MSG, out, esc);
                break;
            case MSGHDR:
            case LEGACY_MSGHDR:
                if (e.fieldLength(LogEvent.PROGRAM) > 0) {
                    appendHeader(e, LogEvent.PROGRAM, out, esc);
                    if (e.fieldLength(LogEvent.PID) > 0) {
                        out.append((byte) '[');
                        appendHeader(e, LogEvent.PID, out, esc);
                        out.append((byte) ']');
                    }
                    out.append((byte) ':').append((byte) ' ');
                }
                break;
            case FACILITY: {
                byte[] name = SyslogNames.facility(e.facility());
                if (name != null) {
                    out.append(name);
                } else {
                    out.appendDecimal(e.facility());
                }
                break;
            }
            case FACILITY_NUM:
                out.appendDecimal(e.facility());
                break;
            case SEVERITY:
            case LEVEL:
            case PRIORITY:
                out.append(SyslogNames.severity(e.severity()));
                break;
            case SEVERITY_NUM:
            case LEVEL_NUM:
                out.appendDecimal(e.severity());
                break;
            case PRI:
                out.appendDecimal(e.pri());
                break;
            case SDATA: {
                ByteBuilder raw = rawTarget(out, esc);
                appendSdata(e.fields(), raw);
                flushRaw(raw, out, esc);
                break;
            }
            case SOURCE:
                esc.append(out, e.sourceName(), 0, e.sourceName().length);
                break;
            case SOURCEIP:
            case HOST_FROM:
            case FULLHOST_FROM:
                esc.append(out, e.peer(), 0, e.peerLength());
                break;
            case TAGS: {
                ByteBuilder raw = rawTarget(out, esc);
                appendTags(e, raw);
                flushRaw(raw, out, esc);
                break;
            }
            case TAG:
                out.appendHexByte(e.pri());
                break;
            case BSDTAG:
                out.appendDecimal(e.severity()).append((byte) ('A' + e.facility()));
                break;
            case LOGHOST: {
                byte[] h = LocalHostName.get();
                esc.append(out, h, 0, h.length);
                break;
            }
            case CONTEXT_ID: {
                EventContext c = e.context(); // an escaper sees the empty value too (a path's empty value is _)
                if (c == null) {
                    esc.append(out, EMPTY, 0, 0);
                } else {
                    esc.append(out, c.idArray(), c.idOffset(), c.idLength());
                }
                break;
            }
            default:
                throw new IllegalStateException("not a value macro: " + m);
        }
    }

    private static final byte[] EMPTY = new byte[0];

    /** {@code ${TAGS}}: the event's tag names in the order they were added, separated by commas. */
    private static void appendTags(LogEvent e, ByteBuilder out) {
        int n = e.tagCount();
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out.append((byte) ',');
            }
            out.append(Tags.name(e.tagAt(i)));
        }
    }

    private void appendDate(Macro m, long sec, int usec, int off, ByteBuilder out) {
        int[] c = civil;
        switch (m) {
            case YEAR:
                out.appendPadded(c[0], 4);
                break;
            case MONTH:
                out.appendPadded(c[1], 2);
                break;
            case MONTH_ABBREV:
                out.append(SyslogNames.month(c[1]));
                break;
            case MONTH_NAME:
                out.append(SyslogNames.monthName(c[1]));
                break;
            case DAY:
                out.appendPadded(c[2], 2);
                break;
            case HOUR:
                out.appendPadded(c[3], 2);
                break;
            case MIN:
                out.appendPadded(c[4], 2);
                break;
            case SEC:
                out.appendPadded(c[5], 2);
                break;
            case USEC:
                out.appendPadded(usec, 6);
                break;
            case MSEC:
                out.appendPadded(usec / 1000, 3);
                break;
            case WEEKDAY:
            case WEEK_DAY_ABBREV:
                out.append(SyslogNames.weekday(c[6]));
                break;
            case ISODATE:
                out.appendPadded(c[0], 4).append((byte) '-').appendPadded(c[1], 2).append((byte) '-')
                        .appendPadded(c[2], 2).append((byte) 'T');
                appendClock(c, out);
                appendOffset(off, out);
                break;
            case DATE:
            case STAMP:
                out.append(SyslogNames.month(c[1])).append((byte) ' ');
                if (c[2] < 10) {
                    out.append((byte) ' ');
                }
                out.appendDecimal(c[2]).append((byte) ' ');
                appendClock(c, out);
                break;
            case FULLDATE:
                out.appendPadded(c[0], 4).append((byte) ' ').append(SyslogNames.month(c[1])).append((byte) ' ');
                if (c[2] < 10) {
                    out.append((byte) ' ');
                }
                out.appendDecimal(c[2]).append((byte) ' ');
                appendClock(c, out);
                break;
            case UNIXTIME:
                out.appendDecimal(sec);
                break;
            case TZOFFSET:
            case TZ:
                appendOffset(off, out);
                break;
            case YEAR_DAY:
                out.appendPadded(c[7] + 1, 3);
                break;
            case MONTH_WEEK:
                out.appendDecimal(c[2] / 7 + (c[6] > 0 && c[2] % 7 >= c[6] ? 1 : 0));
                break;
            case HOUR12:
                out.appendPadded(c[3] % 12 == 0 ? 12 : c[3] % 12, 2);
                break;
            case AMPM:
                out.append((byte) (c[3] < 12 ? 'A' : 'P')).append((byte) 'M');
                break;
            case WEEK_DAY:
                out.appendDecimal(c[6] + 1);
                break;
            case WEEK_DAY_NAME:
                out.append(SyslogNames.weekdayName(c[6]));
                break;
            case WEEK:
                out.appendPadded((c[7] - (c[6] - 1 + 7) % 7 + 7) / 7, 2);
                break;
            case ISOWEEK:
                out.appendPadded(isoWeek(c[0], c[7], c[6]), 2);
                break;
            default:
                throw new IllegalStateException("not a date macro: " + m);
        }
    }

    /** ISO 8601 week number of a date given as year, day of year (0-based) and day of week (0 = Sunday). */
    static int isoWeek(int year, int yday, int wday) {
        int isoDow = wday == 0 ? 7 : wday;
        int week = (yday + 1 - isoDow + 10) / 7;
        if (week < 1) {
            return isoWeeksIn(year - 1);
        }
        if (week > isoWeeksIn(year)) {
            return 1;
        }
        return week;
    }

    /** 52 or 53: a year has 53 ISO weeks when it starts on a Thursday, or on a Wednesday in a leap year. */
    private static int isoWeeksIn(int year) {
        int jan1 = (int) Math.floorMod(CivilTime.daysFromCivil(year, 1, 1) + 4, 7L);
        boolean leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        return jan1 == 4 || (leap && jan1 == 3) ? 53 : 52;
    }

    private static void appendClock(int[] c, ByteBuilder out) {
        out.appendPadded(c[3], 2).append((byte) ':').appendPadded(c[4], 2).append((byte) ':').appendPadded(c[5], 2);
    }

    private static void appendOffset(int off, ByteBuilder out) {
        int a = Math.abs(off);
        out.append((byte) (off < 0 ? '-' : '+')).appendPadded(a / 3600, 2).append((byte) ':')
                .appendPadded((a / 60) % 60, 2);
    }

    private static void appendHeader(LogEvent e, int field, ByteBuilder out, ValueEscaper esc) {
        int len = e.fieldLength(field);
        if (len > 0 || esc != ValueEscaper.NONE) {
            esc.append(out, e.fieldArray(field), e.fieldOffset(field), len);
        }
    }

    private static void appendField(LogEvent e, FieldName name, ByteBuilder out, ValueEscaper esc) {
        FieldTable t = e.fields();
        int i = t.indexOf(name);
        if (i >= 0) {
            esc.append(out, t.data(), t.valueOffset(i), t.valueLength(i));
        } else if (esc != ValueEscaper.NONE) {
            esc.append(out, t.data(), 0, 0);
        }
    }

    /**
     * Re-serialises structured data as RFC 5424 SD-ELEMENTs: one element per SD-ID and occurrence
     * ({@link StructuredData}), in the order each first appears, with every param of it; {@code "}, {@code \} and
     * {@code ]} in values are escaped with a backslash. A message that repeated an SD-ID
     * ({@code [meta a="1"][x@1 b="2"][meta c="3"]}) is written as it came; a param a rewrite added to an SD-ID
     * (occurrence 0) joins its first element, even after other elements.
     */
    static void appendSdata(FieldTable t, ByteBuilder out) {
        byte[] d = t.data();
        int n = t.size();
        for (int i = 0; i < n; i++) {
            if (!StructuredData.isSdEntry(t, i) || elementSeenBefore(t, i)) {
                continue;
            }
            int idOff = sdIdOffset(t, i);
            int idLen = sdIdLength(t, i);
            int occurrence = StructuredData.occurrence(t.tag(i));
            out.append((byte) '[').append(d, idOff, idLen);
            for (int k = i; k < n; k++) {
                if (k == i || (StructuredData.isSdEntry(t, k) && sameElement(t, k, idOff, idLen, occurrence))) {
                    appendSdParam(t, k, idLen, out);
                }
            }
            out.append((byte) ']');
        }
    }

    private static int sdIdOffset(FieldTable t, int i) {
        return t.nameOffset(i) + StructuredData.PREFIX.length;
    }

    private static int sdIdLength(FieldTable t, int i) {
        return Math.min(StructuredData.idLength(t.tag(i)), t.nameLength(i) - StructuredData.PREFIX.length);
    }

    /** True when entry {@code k} has the SD-ID {@code d[idOff, idOff + idLen)} and the same occurrence. */
    private static boolean sameElement(FieldTable t, int k, int idOff, int idLen, int occurrence) {
        int off = sdIdOffset(t, k);
        return StructuredData.occurrence(t.tag(k)) == occurrence && sdIdLength(t, k) == idLen
                && java.util.Arrays.equals(t.data(), off, off + idLen, t.data(), idOff, idOff + idLen);
    }

    /** True when an earlier structured-data entry is in the same element as entry {@code i} (written with it). */
    private static boolean elementSeenBefore(FieldTable t, int i) {
        int idOff = sdIdOffset(t, i);
        int idLen = sdIdLength(t, i);
        int occurrence = StructuredData.occurrence(t.tag(i));
        for (int j = i - 1; j >= 0; j--) { // a param's element is usually the entry just before
            if (StructuredData.isSdEntry(t, j) && sameElement(t, j, idOff, idLen, occurrence)) {
                return true;
            }
        }
        return false;
    }

    /** Writes {@code  name="value"} for entry {@code k} (nothing for an element without params). */
    private static void appendSdParam(FieldTable t, int k, int idLen, ByteBuilder out) {
        byte[] d = t.data();
        int nOff = t.nameOffset(k);
        int paramOff = nOff + StructuredData.PREFIX.length + idLen + 1;
        int paramLen = nOff + t.nameLength(k) - paramOff;
        if (paramLen <= 0) {
            return;
        }
        out.append((byte) ' ').append(d, paramOff, paramLen).append((byte) '=').append((byte) '"');
        int vOff = t.valueOffset(k);
        for (int b = vOff; b < vOff + t.valueLength(k); b++) {
            byte c = d[b];
            if (c == '"' || c == '\\' || c == ']') {
                out.append((byte) '\\');
            }
            out.append(c);
        }
        out.append((byte) '"');
    }

    @Override
    public String toString() {
        return source;
    }
}
