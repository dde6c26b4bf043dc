package dev.logrouter.core.template;

import dev.logrouter.core.event.LogEvent;

import java.time.ZoneId;
import java.util.List;

/**
 * {@code $(format-syslog-rfc5424)}, a logrouter extension (syslog-ng has no template function for this; its
 * {@code syslog()} destination serialises itself): the event as one RFC 5424 message,
 * {@code <PRI>1 ISODATE HOST PROGRAM PID MSGID SDATA MSG}, without an octet-count prefix or trailing newline
 * (the template or the sink's framing adds those).
 *
 * <p>An empty header field, or no structured data, is written as the NILVALUE {@code -}. Header fields are
 * made valid for their RFC 5424 slot: bytes outside printable US-ASCII (33..126, so spaces too) become
 * {@code _}, and HOST, PROGRAM, PID and MSGID are cut at 255, 48, 128 and 32 bytes. The timestamp is
 * {@code ${ISODATE}} (the message's own time in its own offset, whole seconds). {@code SP MSG} is left out
 * when MSG is empty; MSG is copied unchanged.
 *
 * <p>The syslog sink writes the same header in front of a message body of its own ({@link #forZone},
 * {@link #renderHeader}).
 *
 * <p>Threads: an instance has scratch state (its date template) and belongs to one thread ({@link #copy()}).
 */
public final class FormatSyslogRfc5424 implements TemplateFunction {

    static final String NAME = "format-syslog-rfc5424";

    private static final int HOST_MAX = 255;
    private static final int APP_NAME_MAX = 48;
    private static final int PROCID_MAX = 128;
    private static final int MSGID_MAX = 32;

    private final Template isodate;

    private FormatSyslogRfc5424(Template isodate) {
        this.isodate = isodate;
    }

    static FormatSyslogRfc5424 compile(List<String> args, ZoneId zone) {
        if (!args.isEmpty()) {
            throw new IllegalArgumentException("$(" + NAME + ") takes no arguments, got " + args);
        }
        return new FormatSyslogRfc5424(Template.compile("${ISODATE}", zone));
    }

    /** A renderer whose ISODATE uses {@code zone} for events without an offset of their own. */
    public static FormatSyslogRfc5424 forZone(ZoneId zone) {
        return compile(List.of(), zone);
    }

    @Override
    public FormatSyslogRfc5424 copy() {
        return new FormatSyslogRfc5424(isodate.copy());
    }

    @Override
    public void render(LogEvent e, ByteBuilder out) {
        renderHeader(e, out);
        int msgLen = e.fieldLength(LogEvent.MSG);
        if (msgLen > 0) {
            out.append((byte) ' ').append(e.fieldArray(LogEvent.MSG), e.fieldOffset(LogEvent.MSG), msgLen);
        }
    }

    /** Everything before {@code SP MSG}: {@code <PRI>1 ISODATE HOST PROGRAM PID MSGID SDATA}. */
    public void renderHeader(LogEvent e, ByteBuilder out) {
        out.append((byte) '<').appendDecimal(e.pri()).append((byte) '>').append((byte) '1').append((byte) ' ');
        isodate.render(e, out);
        out.append((byte) ' ');
        headerField(e, LogEvent.HOST, HOST_MAX, out);
        out.append((byte) ' ');
        headerField(e, LogEvent.PROGRAM, APP_NAME_MAX, out);
        out.append((byte) ' ');
        headerField(e, LogEvent.PID, PROCID_MAX, out);
        out.append((byte) ' ');
        headerField(e, LogEvent.MSGID, MSGID_MAX, out);
        out.append((byte) ' ');
        int mark = out.length();
        Template.appendSdata(e.fields(), out);
        if (out.length() == mark) {
            out.append((byte) '-');
        }
    }

    private static void headerField(LogEvent e, int field, int max, ByteBuilder out) {
        int len = Math.min(e.fieldLength(field), max);
        if (len == 0) {
            out.append((byte) '-');
            return;
        }
        byte[] a = e.fieldArray(field);
        int off = e.fieldOffset(field);
        out.ensure(len);
        for (int i = off; i < off + len; i++) {
            byte b = a[i];
            out.append(b >= 33 && b <= 126 ? b : (byte) '_');
        }
    }
}
