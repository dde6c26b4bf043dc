package dev.logrouter.patterndb.radix;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.util.BoundedCharSequence;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One parser segment of a pattern ({@code @TYPE:name:param@}) compiled at load time, and its byte-level
 * scanner (spec 5). A scanner looks at the rest of the message from a position, and either fails or consumes
 * one length, greedily and without internal backtracking; it also says which slice of the consumed bytes is the
 * value (QSTRING, ESTRING and EMAIL strip delimiters). Bytes past the end of the input read as 0, as the
 * reference's NUL-terminated strings do, so the scanners' edge cases follow syslog-ng 3.38's {@code r_parser_*}.
 *
 * <p>Identity for sharing tree nodes (spec 6.2) is (kind, name, param): see {@link #sameAs}.
 *
 * <p>Threads: immutable after construction; {@link #parse} is called by any number of threads at once, each with
 * its own {@link RadixScratch} (a PCRE keeps its {@link Matcher} there).
 */
public final class PatternParser {

    private static final boolean[] ALNUM = new boolean[256];
    private static final boolean[] EMAIL_LOCAL = new boolean[256];

    static {
        for (int c = 0; c < 256; c++) {
            ALNUM[c] = isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
            EMAIL_LOCAL[c] = ALNUM[c];
        }
        for (byte c : "!#$%&'*+-/=?^_`{|}~.".getBytes(StandardCharsets.US_ASCII)) {
            EMAIL_LOCAL[c] = true;
        }
    }

    private final ParserKind kind;
    private final String name;
    private final int nameIndex;
    private final String param;
    private final int first;
    private final int last;
    /** STRING: alnum + extra; SET/OPTIONALSET: the set; EMAIL: strip chars (null when no param). */
    private final boolean[] table;
    /** ESTRING: the end string; QSTRING: {open, close}. */
    private final byte[] bytes;
    /** LLADDR/MACADDR: max groups. */
    private final int parts;
    private final Pattern pcre;
    private final int pcreSlot;
    private final Counter pcreBudgetExceeded;

    private PatternParser(ParserKind kind, String name, int nameIndex, String param, int first, int last,
                          boolean[] table, byte[] bytes, int parts, Pattern pcre, int pcreSlot, Counter budget) {
        this.kind = kind;
        this.name = name;
        this.nameIndex = nameIndex;
        this.param = param;
        this.first = first;
        this.last = last;
        this.table = table;
        this.bytes = bytes;
        this.parts = parts;
        this.pcre = pcre;
        this.pcreSlot = pcreSlot;
        this.pcreBudgetExceeded = budget;
    }

    /** Names of capture values, interned to dense indexes by the tree builder. */
    interface NameTable {
        int indexOf(String name);
    }

    /**
     * Compiles the text between the two {@code @} of a parser segment (split on {@code :} into at most three
     * parts, so the param may contain {@code :}). Throws {@link PatternException} with the reference's message
     * for an unknown type, a missing mandatory param or a PCRE that does not compile.
     */
    static PatternParser compile(String body, NameTable names, int pcreSlot, Counter pcreBudgetExceeded)
            throws PatternException {
        String[] p = splitThree(body);
        ParserKind kind = ParserKind.forType(p[0]);
        if (kind == null) {
            throw new PatternException("Unknown parser type specified; type='" + p[0] + "'");
        }
        String name = p.length > 1 ? p[1] : "";
        String param = p.length > 2 ? p[2] : null;
        int nameIndex = name.isEmpty() ? -1 : names.indexOf(name);
        int first = 0;
        int last = 255;
        boolean[] table = null;
        byte[] bytes = null;
        int parts = 0;
        Pattern pcre = null;
        switch (kind) {
            case IPV4 -> {
                first = '0';
                last = '9';
            }
            case NUMBER, FLOAT -> {
                first = '-';
                last = '9';
            }
            case STRING -> {
                table = ALNUM.clone();
                if (param != null) {
                    mark(table, param);
                }
            }
            case ESTRING -> {
                requireParam(kind, param, "Missing ESTRING parser parameters");
                bytes = param.getBytes(StandardCharsets.UTF_8);
            }
            case QSTRING -> {
                requireParam(kind, param, "Missing QSTRING parser parameters");
                byte[] q = param.getBytes(StandardCharsets.UTF_8);
                if (q.length == 0) {
                    // the reference's gate is then the NUL byte: nothing can ever start with it
                    first = 256;
                    bytes = new byte[] {0, 0};
                } else {
                    // 3.38: a 3+ char param closes on its first char (quirk 5)
                    bytes = new byte[] {q[0], q.length == 2 ? q[1] : q[0]};
                    first = q[0] & 0xFF;
                    last = first;
                }
            }
            case SET, OPTIONALSET -> {
                requireParam(kind, param, "Missing " + kind.typeName() + " parser parameters");
                table = new boolean[256];
                mark(table, param);
            }
            case EMAIL -> {
                if (param != null) {
                    table = new boolean[256];
                    mark(table, param);
                }
            }
            case MACADDR -> parts = 6;
            case LLADDR -> {
                if (param == null) {
                    parts = 20;
                } else {
                    int n = 0;
                    for (int i = 0; i < param.length() && isDigit(param.charAt(i)); i++) {
                        n = Math.min(n * 10 + (param.charAt(i) - '0'), 100_000);
                    }
                    parts = n;
                }
            }
            case NLSTRING -> {
                if (param != null) {
                    throw new PatternException("Too many arguments to NLSTRING, no 3rd parameter supported");
                }
            }
            case PCRE -> {
                requireParam(kind, param, "Missing regular expression as 3rd argument");
                // PCRE without UTF-8 mode works on bytes: compile the regex over the Latin-1 reading of its
                // UTF-8 bytes and match it against the Latin-1 view of the message (one char per byte)
                String latin1 = new String(param.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
                try {
                    pcre = Pattern.compile(latin1);
                } catch (PatternSyntaxException e) {
                    throw new PatternException("Error while compiling regular expression; regular_expression='"
                            + param + "', error_message='" + e.getDescription() + "', error_offset="
                            + e.getIndex());
                }
            }
            default -> {
                // ANYSTRING, HOSTNAME, IPV6, IPVANY: no param, any first byte
            }
        }
        return new PatternParser(kind, name, nameIndex, param, first, last, table, bytes, parts, pcre,
                kind == ParserKind.PCRE ? pcreSlot : -1, pcreBudgetExceeded);
    }

    private static void requireParam(ParserKind kind, String param, String message) throws PatternException {
        if (param == null) {
            throw new PatternException(message + "; type='" + kind.typeName() + "'");
        }
    }

    private static void mark(boolean[] table, String chars) {
        for (byte b : chars.getBytes(StandardCharsets.UTF_8)) {
            table[b & 0xFF] = true;
        }
    }

    /** {@code g_strsplit(s, ":", 3)}. */
    private static String[] splitThree(String s) {
        int a = s.indexOf(':');
        if (a < 0) {
            return new String[] {s};
        }
        int b = s.indexOf(':', a + 1);
        if (b < 0) {
            return new String[] {s.substring(0, a), s.substring(a + 1)};
        }
        return new String[] {s.substring(0, a), s.substring(a + 1, b), s.substring(b + 1)};
    }

    /** True when a node of {@code other} can be shared with this one: same function, value name and param. */
    boolean sameAs(PatternParser other) {
        return kind == other.kind && name.equals(other.name) && Objects.equals(param, other.param);
    }

    public ParserKind kind() {
        return kind;
    }

    /** Index of the value name in the tree's name table, -1 when unnamed. */
    public int nameIndex() {
        return nameIndex;
    }

    /**
     * Runs the parser on {@code b[pos, end)}: returns the consumed length, or -1. On success the value slice is
     * in {@code s.valueStart} (relative to {@code pos}) and {@code s.valueLength}. The first-character gate of
     * the reference ({@code r_new_pnode}'s first/last) is applied here; like every parser edge, it is only
     * called with at least one byte left.
     */
    int parse(byte[] b, int pos, int end, RadixScratch s) {
        int c0 = b[pos] & 0xFF;
        if (c0 < first || c0 > last) {
            return -1;
        }
        s.valueStart = 0;
        int n;
        switch (kind) {
            case STRING, SET -> {
                n = run(table, b, pos, end);
                if (n == 0) {
                    return -1;
                }
            }
            case OPTIONALSET -> n = run(table, b, pos, end);
            case ESTRING -> {
                if (bytes.length == 0) {
                    // degenerate empty END: the reference's strchr finds the terminating NUL, so the value is the
                    // rest and one byte past the end is consumed; the lookup then only accepts a partial match of
                    // this node (see RadixTree)
                    s.valueLength = end - pos;
                    return end - pos + 1;
                }
                int at = indexOf(b, pos, end, bytes);
                if (at < 0) {
                    return -1;
                }
                s.valueLength = at - pos;
                return at + bytes.length - pos;
            }
            case QSTRING -> {
                byte close = bytes[1];
                for (int i = pos + 1; i < end; i++) {
                    if (b[i] == close) {
                        s.valueStart = 1;
                        s.valueLength = i - pos - 1;
                        return i - pos + 1;
                    }
                }
                return -1;
            }
            case NUMBER -> n = number(b, pos, end);
            case FLOAT -> n = floating(b, pos, end);
            case IPV4 -> n = ipv4(b, pos, end);
            case IPV6 -> n = ipv6(b, pos, end);
            case IPVANY -> {
                n = ipv4(b, pos, end);
                if (n < 0) {
                    n = ipv6(b, pos, end);
                }
            }
            case MACADDR, LLADDR -> n = lladdr(b, pos, end, parts * 3 - 1, parts);
            case EMAIL -> {
                return email(b, pos, end, s);
            }
            case HOSTNAME -> n = hostname(b, pos, end);
            case ANYSTRING -> n = end - pos;
            case NLSTRING -> {
                int i = pos;
                while (i < end && b[i] != '\n') {
                    i++;
                }
                if (i == end) {
                    return -1;
                }
                if (i - pos >= 1 && b[i - 1] == '\r') {
                    i--;
                }
                n = i - pos;
            }
            case PCRE -> n = pcre(b, pos, end, s);
            default -> throw new IllegalStateException(kind.name());
        }
        s.valueLength = n;
        return n;
    }

    private static int at(byte[] b, int i, int end) {
        return i < end ? b[i] & 0xFF : 0;
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private static int hexValue(int c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    private static int run(boolean[] table, byte[] b, int pos, int end) {
        int i = pos;
        while (i < end && table[b[i] & 0xFF]) {
            i++;
        }
        return i - pos;
    }

    private static int indexOf(byte[] b, int pos, int end, byte[] needle) {
        byte n0 = needle[0];
        int lastStart = end - needle.length;
        outer:
        for (int i = pos; i <= lastStart; i++) {
            if (b[i] != n0) {
                continue;
            }
            for (int k = 1; k < needle.length; k++) {
                if (b[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** {@code 0x}/{@code 0X} + hex digits (at least one), or [-] + decimal digits (at least one). */
    static int number(byte[] b, int pos, int end) {
        int len;
        int min = 1;
        if (at(b, pos, end) == '0' && (at(b, pos + 1, end) == 'x' || at(b, pos + 1, end) == 'X')) {
            len = 2;
            min += 2;
            while (hexValue(at(b, pos + len, end)) >= 0) {
                len++;
            }
        } else {
            len = 0;
            if (at(b, pos, end) == '-') {
                len++;
                min++;
            }
            while (isDigit(at(b, pos + len, end))) {
                len++;
            }
        }
        return len >= min ? len : -1;
    }

    /** {@code [-]digits*[.digits*][(e|E)[-]digits*]}, at least one byte. */
    static int floating(byte[] b, int pos, int end) {
        int len = 0;
        boolean dot = false;
        if (at(b, pos, end) == '-') {
            len++;
        }
        while (true) {
            int c = at(b, pos + len, end);
            if (isDigit(c)) {
                len++;
            } else if (!dot && c == '.') {
                dot = true;
                len++;
            } else {
                break;
            }
        }
        int c = at(b, pos + len, end);
        if (len > 0 && (c == 'e' || c == 'E')) {
            len++;
            if (at(b, pos + len, end) == '-') {
                len++;
            }
            while (isDigit(at(b, pos + len, end))) {
                len++;
            }
        }
        return len > 0 ? len : -1;
    }

    /** Four dot-separated decimal octets <= 255; stops at a 4th dot or any other byte. */
    static int ipv4(byte[] b, int pos, int end) {
        int len = 0;
        int dots = 0;
        int octet = -1;
        while (true) {
            int c = at(b, pos + len, end);
            if (c == '.') {
                if (octet > 255 || octet == -1) {
                    return -1;
                }
                if (dots == 3) {
                    break;
                }
                dots++;
                octet = -1;
            } else if (isDigit(c)) {
                octet = Math.min((octet == -1 ? 0 : octet * 10) + (c - '0'), 1000);
            } else {
                break;
            }
            len++;
        }
        if (dots != 3 || octet > 255 || octet == -1) {
            return -1;
        }
        return len;
    }

    /** The reference's hand-written IPv6 scanner, step for step (see spec 5.7). */
    static int ipv6(byte[] b, int pos, int end) {
        int colons = 0;
        int dots = 0;
        int octet = 0;
        int digit = 16;
        boolean shortened = false;
        int len = 0;
        while (true) {
            int c = at(b, pos + len, end);
            if (c == ':') {
                if (octet > 0xffff || (octet == -1 && shortened)) {
                    return -1;
                }
                if (colons == 7 || dots == 3) {
                    break;
                }
                if (digit == 10) {
                    return -1;
                }
                if (octet == -1) {
                    shortened = true;
                }
                colons++;
                octet = -1;
            } else if (hexValue(c) >= 0) {
                octet = Math.min((octet == -1 ? 0 : octet * digit) + hexValue(c), 0x100000);
            } else if (c == '.') {
                if (digit == 10 && octet > 255) {
                    return -1;
                }
                if ((digit == 16 && octet > 597) || octet == -1 || colons == 7 || dots == 3) {
                    break;
                }
                dots++;
                octet = -1;
                digit = 10;
            } else {
                break;
            }
            len++;
        }
        if (len > 0 && at(b, pos + len - 1, end) == '.') {
            len--;
            dots--;
        } else if (len > 1 && at(b, pos + len - 1, end) == ':' && at(b, pos + len - 2, end) != ':') {
            len--;
            colons--;
        }
        if (colons < 2 || colons > 7 || (digit == 10 && octet > 255) || (digit == 16 && octet > 0xffff)
                || !(dots == 0 || dots == 3) || (!shortened && colons < 7 && dots == 0)) {
            return -1;
        }
        return len;
    }

    /** Colon-separated groups of two hex digits, 1 up to {@code parts} groups, at most {@code count} bytes. */
    static int lladdr(byte[] b, int pos, int end, int count, int parts) {
        int len = 0;
        for (int i = 1; i <= parts; i++) {
            if (hexValue(at(b, pos + len, end)) < 0 || hexValue(at(b, pos + len + 1, end)) < 0) {
                if (i > 1) {
                    len -= 1;
                    break;
                }
                return -1;
            }
            if (i == parts) {
                len += 2;
            } else if (at(b, pos + len + 2, end) != ':') {
                len += 2;
                break;
            } else {
                len += 3;
            }
        }
        if (len > count) {
            return -1;
        }
        return parts <= 0 ? -1 : len;
    }

    /** Labels of {@code [A-Za-z0-9-]+} each optionally followed by one dot; returns the length and the label count. */
    private static long labels(byte[] b, int pos, int end) {
        int len = 0;
        int count = 0;
        while (ALNUM[at(b, pos + len, end)] || at(b, pos + len, end) == '-') {
            len++;
            count++;
            while (ALNUM[at(b, pos + len, end)] || at(b, pos + len, end) == '-') {
                len++;
            }
            if (at(b, pos + len, end) == '.') {
                len++;
            }
        }
        return ((long) count << 32) | len;
    }

    /** At least two labels; a trailing dot is included. */
    static int hostname(byte[] b, int pos, int end) {
        long r = labels(b, pos, end);
        return (r >>> 32) < 2 ? -1 : (int) r;
    }

    private int email(byte[] b, int pos, int end, RadixScratch s) {
        int len = 0;
        if (table != null) {
            while (pos + len < end && table[b[pos + len] & 0xFF]) {
                len++;
            }
        }
        int valueStart = len;
        if (at(b, pos + len, end) == '.') {
            return -1;
        }
        while (pos + len < end && EMAIL_LOCAL[b[pos + len] & 0xFF]) {
            len++;
        }
        // the reference looks at the byte before, even when the local part is empty
        int before = pos + len - 1;
        if (before >= s.inputStart && b[before] == '.') {
            return -1;
        }
        if (at(b, pos + len, end) != '@') {
            return -1;
        }
        len++;
        long r = labels(b, pos + len, end);
        if ((r >>> 32) < 2) {
            return -1;
        }
        len += (int) r;
        int valueEnd = len;
        if (table != null) {
            while (pos + len < end && table[b[pos + len] & 0xFF]) {
                len++;
            }
        }
        s.valueStart = valueStart;
        s.valueLength = valueEnd - valueStart;
        return len;
    }

    private int pcre(byte[] b, int pos, int end, RadixScratch s) {
        Matcher m = s.matcher(pcreSlot, pcre);
        BoundedCharSequence in = s.bounded.reset(s.latin1.reset(b, pos, end - pos));
        m.reset(in);
        BoundedCharSequence.Outcome r = in.lookingAt(m);
        if (r == BoundedCharSequence.Outcome.MATCH) {
            return m.end();
        }
        if (r == BoundedCharSequence.Outcome.BUDGET_EXCEEDED && pcreBudgetExceeded != null) {
            pcreBudgetExceeded.inc();
        }
        return -1;
    }

    /** {@code @TYPE:name@} as {@code pdbtool dump} prints it. */
    String dumpLabel() {
        return "@" + kind.typeName() + ":" + name + "@";
    }

    @Override
    public String toString() {
        return "@" + kind.typeName() + ":" + name + (param != null ? ":" + param : "") + "@";
    }
}
