package dev.logrouter.core.parse.syslog;

import dev.logrouter.core.event.CivilTime;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.StructuredData;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test-side helpers: builds events like a source would and renders a parsed event as the syslog-diff harness
 * record {@code ISODATE|HOST|PROGRAM|PID|MSGID|SDATA|MSG}, with bytes decoded the way send.py stores them
 * (UTF-8, invalid bytes as {@code \xhh}).
 */
final class SyslogRecord {

    static final byte[] PEER = "127.0.0.1".getBytes(StandardCharsets.US_ASCII);

    private SyslogRecord() {
    }

    static LogEvent event(byte[] payload, byte hint, long receivedMillis) {
        LogEvent e = new LogEvent();
        fill(e, payload, hint, receivedMillis);
        return e;
    }

    static void fill(LogEvent e, byte[] payload, byte hint, long receivedMillis) {
        e.clear();
        e.setRaw(payload, 0, payload.length);
        e.setPeer(PEER, 0, PEER.length);
        e.setSource(1, PEER, hint, 0L);
        e.setReceivedMillis(receivedMillis);
    }

    static String render(LogEvent e) {
        return isoDate(e) + '|' + field(e, LogEvent.HOST) + '|' + field(e, LogEvent.PROGRAM) + '|'
                + field(e, LogEvent.PID) + '|' + field(e, LogEvent.MSGID) + '|' + sdata(e.fields()) + '|'
                + field(e, LogEvent.MSG);
    }

    static String field(LogEvent e, int id) {
        return decode(e.fieldArray(id), e.fieldOffset(id), e.fieldLength(id));
    }

    static String isoDate(LogEvent e) {
        int[] f = new int[7];
        int off = e.stampOffsetSeconds();
        CivilTime.fields(e.stampEpochSecond(), off, f);
        int abs = Math.abs(off);
        return String.format("%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", f[0], f[1], f[2], f[3], f[4], f[5],
                off < 0 ? '-' : '+', abs / 3600, (abs / 60) % 60);
    }

    /** Re-serialises structured data: consecutive entries of one SD-ID form one element. */
    static String sdata(FieldTable t) {
        StringBuilder sb = new StringBuilder();
        String currentId = null;
        int prefix = StructuredData.PREFIX.length;
        for (int i = 0; i < t.size(); i++) {
            if (!StructuredData.isSdEntry(t, i)) {
                continue;
            }
            String name = t.name(i);
            int idLen = StructuredData.idLength(t.tag(i));
            String id = name.substring(prefix, prefix + idLen);
            String param = name.length() > prefix + idLen ? name.substring(prefix + idLen + 1) : null;
            if (!id.equals(currentId)) {
                if (currentId != null) {
                    sb.append(']');
                }
                sb.append('[').append(id);
                currentId = id;
            }
            if (param != null) {
                sb.append(' ').append(param).append("=\"");
                String v = decode(t.data(), t.valueOffset(i), t.valueLength(i));
                for (int k = 0; k < v.length(); k++) {
                    char c = v.charAt(k);
                    if (c == '"' || c == '\\' || c == ']') {
                        sb.append('\\');
                    }
                    sb.append(c);
                }
                sb.append('"');
            }
        }
        if (currentId != null) {
            sb.append(']');
        }
        return sb.toString();
    }

    /** UTF-8 with invalid bytes rendered as {@code \xhh}, like Python's backslashreplace. */
    static String decode(byte[] b, int off, int len) {
        StringBuilder sb = new StringBuilder(len);
        int end = off + len;
        int i = off;
        while (i < end) {
            int c = b[i] & 0xFF;
            int n = c < 0x80 ? 1
                    : c >= 0xC2 && c <= 0xDF ? 2
                    : c >= 0xE0 && c <= 0xEF ? 3
                    : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
            boolean ok = n > 0 && i + n <= end;
            for (int k = 1; ok && k < n; k++) {
                ok = (b[i + k] & 0xC0) == 0x80;
            }
            if (ok) {
                sb.append(new String(b, i, n, StandardCharsets.UTF_8));
                i += n;
            } else {
                sb.append(String.format("\\x%02x", c));
                i++;
            }
        }
        return sb.toString();
    }

    /** send.py's payload escapes: {@code \n \r \t \\ \xHH}, then {@code @LONGn@} = n times {@code x}. */
    static byte[] decodePayload(String s) {
        byte[] in = s.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i < in.length) {
            byte c = in[i];
            if (c == '\\' && i + 1 < in.length) {
                byte n = in[i + 1];
                if (n == 'n' || n == 'r' || n == 't' || n == '\\') {
                    out.write(n == 'n' ? '\n' : n == 'r' ? '\r' : n == 't' ? '\t' : '\\');
                    i += 2;
                    continue;
                }
                if (n == 'x' && i + 3 < in.length && hex(in[i + 2]) >= 0 && hex(in[i + 3]) >= 0) {
                    out.write(hex(in[i + 2]) * 16 + hex(in[i + 3]));
                    i += 4;
                    continue;
                }
            }
            out.write(c);
            i++;
        }
        String latin = new String(out.toByteArray(), StandardCharsets.ISO_8859_1);
        Matcher m = Pattern.compile("@LONG(\\d+)@").matcher(latin);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, "x".repeat(Integer.parseInt(m.group(1))));
        }
        m.appendTail(sb);
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static int hex(byte c) {
        return Character.digit(c, 16);
    }
}
