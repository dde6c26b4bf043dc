package dev.logrouter.netty.relp;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * Writes RELP frames ({@code TXNR SP COMMAND SP DATALEN [SP DATA] LF}) and reads the parts both ends need: the
 * command names, the status code of an {@code rsp}, the {@code name=value} lines of an {@code open} offer.
 *
 * <p>Threads: stateless.
 */
public final class RelpFrames {

    public static final String OPEN = "open";
    public static final String SYSLOG = "syslog";
    public static final String CLOSE = "close";
    public static final String RSP = "rsp";
    public static final String SERVERCLOSE = "serverclose";
    /** The highest transaction number; the one after it is 1 (librelp wraps the same way). */
    public static final int MAX_TXNR = 999_999_999;
    /** The RELP protocol version both ends speak (librelp's {@code relp_version=0}). */
    public static final String RELP_VERSION = "0";

    private static final byte[] SYSLOG_BYTES = bytes(" syslog ");
    private static final byte[] OK_RSP = bytes(" rsp 6 200 OK\n");

    private RelpFrames() {
    }

    /**
     * The offers of logrouter's end of a session, one {@code name=value} a line: {@code relp_version},
     * {@code relp_software} (name, version, URL) and {@code commands=syslog}; what a client sends with its
     * {@code open} (the same text as a source's answer to one).
     */
    public static String offers() {
        String v = RelpFrames.class.getPackage().getImplementationVersion();
        return "relp_version=" + RELP_VERSION + "\nrelp_software=logrouter," + (v == null ? "dev" : v)
                + ",https://github.com/logrouter\ncommands=" + SYSLOG;
    }

    /** The transaction number after {@code txnr}. */
    public static int next(int txnr) {
        return txnr >= MAX_TXNR ? 1 : txnr + 1;
    }

    /** Appends {@code TXNR rsp 6 200 OK LF}. */
    public static void appendOk(ByteBuf out, int txnr) {
        appendInt(out, txnr);
        out.writeBytes(OK_RSP);
    }

    /** Appends {@code TXNR syslog LEN MSG LF} with the message at {@code [off, off + len)} of {@code msg}. */
    public static void appendSyslog(ByteBuf out, int txnr, byte[] msg, int off, int len) {
        appendInt(out, txnr);
        out.writeBytes(SYSLOG_BYTES);
        appendInt(out, len);
        if (len > 0) {
            out.writeByte(' ');
            out.writeBytes(msg, off, len);
        }
        out.writeByte('\n');
    }

    /** Appends a frame with text data (an empty text writes {@code DATALEN 0} without the SP, as librelp does). */
    public static void append(ByteBuf out, int txnr, String command, String data) {
        byte[] d = bytes(data);
        appendInt(out, txnr);
        out.writeByte(' ');
        out.writeCharSequence(command, StandardCharsets.US_ASCII);
        out.writeByte(' ');
        appendInt(out, d.length);
        if (d.length > 0) {
            out.writeByte(' ');
            out.writeBytes(d);
        }
        out.writeByte('\n');
    }

    /** Whether the command at {@code [off, off + len)} of {@code buf} is {@code name}. */
    public static boolean is(ByteBuf buf, int off, int len, String name) {
        if (len != name.length()) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (buf.getByte(off + i) != name.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The status code an {@code rsp}'s data starts with (3 digits), or -1. */
    public static int status(ByteBuf buf, int off, int len) {
        if (len < 3) {
            return -1;
        }
        int code = 0;
        for (int i = 0; i < 3; i++) {
            byte b = buf.getByte(off + i);
            if (b < '0' || b > '9') {
                return -1;
            }
            code = code * 10 + (b - '0');
        }
        return len == 3 || buf.getByte(off + 3) == ' ' || buf.getByte(off + 3) == '\n' ? code : -1;
    }

    /** The value of {@code name=value} among the data's LF-separated lines, or null. */
    public static String offer(String data, String name) {
        for (String line : data.split("\n", -1)) {
            int eq = line.indexOf('=');
            String key = eq < 0 ? line : line.substring(0, eq);
            if (key.equals(name)) {
                return eq < 0 ? "" : line.substring(eq + 1);
            }
        }
        return null;
    }

    static void appendInt(ByteBuf out, int v) {
        if (v == 0) {
            out.writeByte('0');
            return;
        }
        int div = 1;
        while (div <= v / 10) {
            div *= 10;
        }
        for (; div > 0; div /= 10) {
            out.writeByte('0' + v / div % 10);
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
