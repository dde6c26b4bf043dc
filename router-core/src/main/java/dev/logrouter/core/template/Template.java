package dev.logrouter.core.template;

import dev.logrouter.core.event.CivilTime;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.StructuredData;
import dev.logrouter.core.event.SyslogNames;
import dev.logrouter.core.event.ZoneOffsetCache;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * A compiled syslog-ng style template such as {@code "${ISODATE} ${HOST} ${PROGRAM}[${PID}]: ${MSG}\n"}:
 * literal text, {@code $NAME} / {@code ${NAME}} macros (see {@link Macro}) and field references
 * ({@code ${.SDATA.meta.sequenceId}}, parsed fields by name). {@code $$} is a literal {@code $}. A
 * reference to an unset field renders as nothing.
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

    /** Date source of a macro part. */
    private static final int STAMP_TIME = 0;
    private static final int RECV_TIME = 1;

    private final String source;
    private final ZoneId receiverZone;
    private final int[] kinds;
    private final Macro[] macros;
    private final int[] timeSources;
    private final byte[][] bytes;
    private final boolean literalOnly;

    private final ZoneOffsetCache recvZone;
    private final int[] civil = new int[7];

    private Template(String source, ZoneId receiverZone, int[] kinds, Macro[] macros, int[] timeSources,
                     byte[][] bytes) {
        this.source = source;
        this.receiverZone = receiverZone;
        this.kinds = kinds;
        this.macros = macros;
        this.timeSources = timeSources;
        this.bytes = bytes;
        this.recvZone = new ZoneOffsetCache(receiverZone);
        boolean lit = true;
        for (int k : kinds) {
            lit &= k == LITERAL;
        }
        this.literalOnly = lit;
    }

    /**
     * Compiles a template. Throws {@link IllegalArgumentException} with the position of the error for an
     * unterminated {@code ${} or an empty name.
     */
    public static Template compile(String text, ZoneId receiverZone) {
        List<Integer> kinds = new ArrayList<>();
        List<Macro> macros = new ArrayList<>();
        List<Integer> times = new ArrayList<>();
        List<byte[]> bytes = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
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
            String name;
            if (i + 1 < text.length() && text.charAt(i + 1) == '{') {
                int end = text.indexOf('}', i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated '${' at column " + (i + 1) + " of template \""
                            + text + "\": add the closing '}'");
                }
                name = text.substring(i + 2, end);
                i = end + 1;
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
            if (lit.length() > 0) {
                kinds.add(LITERAL);
                macros.add(null);
                times.add(0);
                bytes.add(lit.toString().getBytes(StandardCharsets.UTF_8));
                lit.setLength(0);
            }
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
        }
        if (lit.length() > 0) {
            kinds.add(LITERAL);
            macros.add(null);
            times.add(0);
            bytes.add(lit.toString().getBytes(StandardCharsets.UTF_8));
        }
        int n = kinds.size();
        int[] k = new int[n];
        int[] t = new int[n];
        for (int x = 0; x < n; x++) {
            k[x] = kinds.get(x);
            t[x] = times.get(x);
        }
        return new Template(text, receiverZone, k, macros.toArray(new Macro[0]), t, bytes.toArray(new byte[0][]));
    }

    /** A fresh instance of the same template for another thread. */
    public Template copy() {
        return new Template(source, receiverZone, kinds, macros, timeSources, bytes);
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

    /** Renders, passing every substituted value through {@code esc}. */
    public void render(LogEvent e, ByteBuilder out, ValueEscaper esc) {
        long civilFor = Long.MIN_VALUE;
        int civilOffset = 0;
        for (int p = 0; p < kinds.length; p++) {
            switch (kinds[p]) {
                case LITERAL:
                    out.append(bytes[p]);
                    break;
                case FIELD:
                    appendField(e, bytes[p], out, esc);
                    break;
                default:
                    Macro m = macros[p];
                    if (m.isDate()) {
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
                        if (sec != civilFor || off != civilOffset) {
                            CivilTime.fields(sec, off, civil);
                            civilFor = sec;
                            civilOffset = off;
                        }
                        appendDate(m, sec, usec, off, out);
                    } else {
                        appendMacro(m, e, out, esc);
                    }
            }
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
            case SDATA:
                appendSdata(e.fields(), out, esc);
                break;
            case SOURCE:
                esc.append(out, e.sourceName(), 0, e.sourceName().length);
                break;
            case SOURCEIP:
            case HOST_FROM:
            case FULLHOST_FROM:
                esc.append(out, e.peer(), 0, e.peerLength());
                break;
            default:
                throw new IllegalStateException("not a value macro: " + m);
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
            default:
                throw new IllegalStateException("not a date macro: " + m);
        }
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

    private static void appendField(LogEvent e, byte[] name, ByteBuilder out, ValueEscaper esc) {
        FieldTable t = e.fields();
        int i = t.indexOf(name, 0, name.length);
        if (i >= 0) {
            esc.append(out, t.data(), t.valueOffset(i), t.valueLength(i));
        } else if (esc != ValueEscaper.NONE) {
            esc.append(out, t.data(), 0, 0);
        }
    }

    /**
     * Re-serialises structured data as RFC 5424 SD-ELEMENTs: consecutive entries with the same SD-ID form
     * one element; {@code "}, {@code \} and {@code ]} in values are escaped with a backslash.
     */
    static void appendSdata(FieldTable t, ByteBuilder out, ValueEscaper esc) {
        if (esc != ValueEscaper.NONE) {
            // In a path, serialise into the output first and neutralise the whole span.
            int mark = out.length();
            appendSdata(t, out, ValueEscaper.NONE);
            int n = out.length() - mark;
            byte[] tmp = java.util.Arrays.copyOfRange(out.array(), mark, mark + n);
            out.setLength(mark);
            esc.append(out, tmp, 0, n);
            return;
        }
        byte[] d = t.data();
        int prefix = StructuredData.PREFIX.length;
        int openIdOff = -1;
        int openIdLen = 0;
        for (int i = 0; i < t.size(); i++) {
            if (!StructuredData.isSdEntry(t, i)) {
                continue;
            }
            int nOff = t.nameOffset(i);
            int nLen = t.nameLength(i);
            int idOff = nOff + prefix;
            int idLen = Math.min(t.tag(i), nLen - prefix);
            boolean same = openIdOff >= 0 && idLen == openIdLen
                    && java.util.Arrays.equals(d, idOff, idOff + idLen, d, openIdOff, openIdOff + openIdLen);
            if (!same) {
                if (openIdOff >= 0) {
                    out.append((byte) ']');
                }
                out.append((byte) '[').append(d, idOff, idLen);
                openIdOff = idOff;
                openIdLen = idLen;
            }
            int paramOff = idOff + idLen + 1;
            int paramLen = nOff + nLen - paramOff;
            if (paramLen > 0) {
                out.append((byte) ' ').append(d, paramOff, paramLen).append((byte) '=').append((byte) '"');
                int vOff = t.valueOffset(i);
                for (int k = vOff; k < vOff + t.valueLength(i); k++) {
                    byte b = d[k];
                    if (b == '"' || b == '\\' || b == ']') {
                        out.append((byte) '\\');
                    }
                    out.append(b);
                }
                out.append((byte) '"');
            }
        }
        if (openIdOff >= 0) {
            out.append((byte) ']');
        }
    }

    @Override
    public String toString() {
        return source;
    }
}
