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
 * {@code _}, and HOST, PROGRAM, PID and MSGID are cut at 255, 48, 128 and 32 bytes. The timestamp of the template
 * function is {@code ${ISODATE}} (the message's own time in its own offset, whole seconds: a fraction of a second
 * is not written). {@code SP MSG} is left out when MSG is empty; MSG is copied unchanged. Structured data is
 * {@code ${SDATA}}: the elements as they came, repeated SD-IDs included.
 *
 * <p>The syslog sink writes the same header in front of a message body of its own ({@link #forZone(ZoneId, int)},
 * {@link #renderHeader}), with a fraction of a second: {@code YYYY-MM-DDThh:mm:ss[.frac]+hh:mm}, the fraction with
 * as many digits as the message's stamp had ({@link LogEvent#stampFracDigits()}, at most 6) or as many as the
 * sink's {@code frac-digits} asks (the microseconds cut, or padded with zeros, to that many, as syslog-ng's
 * {@code frac-digits()}), in the stamp's own offset ({@code Z} is written {@code +00:00}).
 *
 * <p>Threads: an instance has scratch state (its date template, the offset it moves aside) and belongs to one
 * thread ({@link #copy()}).
 */
public final class FormatSyslogRfc5424 implements TemplateFunction {

    static final String NAME = "format-syslog-rfc5424";

    private static final int HOST_MAX = 255;
    private static final int APP_NAME_MAX = 48;
    private static final int PROCID_MAX = 128;
    private static final int MSGID_MAX = 32;

    /** {@link #forZone(ZoneId, int)}'s {@code fracDigits}: as many fraction digits as the stamp had. */
    public static final int FRAC_AS_RECEIVED = -1;

    private static final int[] POW10 = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000};
    /** Length of the {@code +hh:mm} that ends an ISODATE. */
    private static final int OFFSET_LENGTH = 6;

    private final Template isodate;
    /** 0..6, or {@link #FRAC_AS_RECEIVED}. */
    private final int fracDigits;
    /** The offset of a rendered ISODATE, moved aside while the fraction goes in front of it. */
    private final byte[] offset = new byte[OFFSET_LENGTH];

    private FormatSyslogRfc5424(Template isodate, int fracDigits) {
        this.isodate = isodate;
        this.fracDigits = fracDigits;
    }

    static FormatSyslogRfc5424 compile(List<String> args, ZoneId zone) {
        if (!args.isEmpty()) {
            throw new IllegalArgumentException("$(" + NAME + ") takes no arguments, got " + args);
        }
        return new FormatSyslogRfc5424(Template.compile("${ISODATE}", zone), 0);
    }

    /**
     * A renderer whose ISODATE uses {@code zone} for events without an offset of their own, in whole seconds, as the
     * template function writes it.
     */
    public static FormatSyslogRfc5424 forZone(ZoneId zone) {
        return forZone(zone, 0);
    }

    /**
     * A renderer whose timestamp has {@code fracDigits} fraction digits (0..6: the microseconds cut or padded with
     * zeros to that many; 0 writes no fraction), or, with {@link #FRAC_AS_RECEIVED}, as many as the message's stamp
     * had. {@code zone} is for events without an offset of their own.
     */
    public static FormatSyslogRfc5424 forZone(ZoneId zone, int fracDigits) {
        if (fracDigits < FRAC_AS_RECEIVED || fracDigits > LogEvent.MAX_FRAC_DIGITS) {
            throw new IllegalArgumentException("fraction digits must be 0..6 or -1 (as received), got " + fracDigits);
        }
        return new FormatSyslogRfc5424(Template.compile("${ISODATE}", zone), fracDigits);
    }

    @Override
    public FormatSyslogRfc5424 copy() {
        return new FormatSyslogRfc5424(isodate.copy(), fracDigits);
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
        int digits = fracDigits == FRAC_AS_RECEIVED ? e.stampFracDigits() : fracDigits;
        if (digits > 0) {
            appendFraction(e.stampMicros(), digits, out);
        }
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

    /** Puts {@code .frac} ({@code digits} digits of {@code micros}) between the ISODATE just written and its offset. */
    private void appendFraction(int micros, int digits, ByteBuilder out) {
        int at = out.length() - OFFSET_LENGTH;
        System.arraycopy(out.array(), at, offset, 0, OFFSET_LENGTH);
        out.setLength(at);
        out.append((byte) '.').appendPadded(micros / POW10[LogEvent.MAX_FRAC_DIGITS - digits], digits)
                .append(offset, 0, OFFSET_LENGTH);
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
