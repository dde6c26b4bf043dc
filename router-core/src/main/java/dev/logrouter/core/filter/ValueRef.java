package dev.logrouter.core.filter;

import dev.logrouter.core.event.FieldName;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Macro;
import dev.logrouter.core.template.Template;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;

/**
 * Where a filter reads a value from, resolved once at compile time: a header field ({@code HOST},
 * {@code PROGRAM}, {@code PID}, {@code MSGID}, {@code MSG}/{@code MESSAGE}) or a parsed field, read in place
 * (zero copy); the source name; a constant; or anything else a template can print (other macros, several
 * references), rendered into a per-thread buffer. {@link #newReader()} gives the per-thread reader.
 *
 * <p>Threads: immutable; each {@link Reader} belongs to one thread.
 */
final class ValueRef {

    private static final int HEADER = 0;
    private static final int FIELD = 1;
    private static final int SOURCE = 2;
    private static final int TEMPLATE = 3;
    private static final int CONSTANT = 4;
    private static final int LEGACY_MATCH = 5;

    private final int kind;
    private final int header;
    private final byte[] bytes;
    /** For a FIELD, its name resolved for lookup. */
    private final FieldName fieldName;
    private final Template template;
    private final String text;

    private ValueRef(int kind, int header, byte[] bytes, Template template, String text) {
        this.kind = kind;
        this.header = header;
        this.bytes = bytes;
        this.fieldName = kind == FIELD ? FieldName.of(text) : null;
        this.template = template;
        this.text = text;
    }

    /** A header field by {@link LogEvent} field id. */
    static ValueRef header(int field, String name) {
        return new ValueRef(HEADER, field, null, null, name);
    }

    /**
     * What syslog-ng's {@code match()} without {@code value()} reads: {@code PROGRAM[PID]: MSG} (the
     * {@code [PID]} only when there is a pid, the {@code ": "} always).
     */
    static ValueRef legacyMatch() {
        return new ValueRef(LEGACY_MATCH, 0, null, null, "${PROGRAM}[${PID}]: ${MSG}");
    }

    /**
     * A value by name, as syslog-ng's {@code value("NAME")}: a macro name (upper case, as in templates) or a
     * field name such as {@code .json.user.id}. A leading {@code $} and braces are tolerated.
     */
    static ValueRef named(String name, ZoneId zone) {
        String n = name;
        if (n.startsWith("$")) {
            n = n.substring(1);
        }
        if (n.startsWith("{") && n.endsWith("}") && n.length() > 2) {
            n = n.substring(1, n.length() - 1);
        }
        if (n.isEmpty()) {
            throw new IllegalArgumentException("empty value name");
        }
        int headerField = LogEvent.headerField(n);
        if (headerField >= 0) {
            return header(headerField, n);
        }
        if (n.equals("SOURCE")) {
            return new ValueRef(SOURCE, 0, null, null, n);
        }
        String macro = n.startsWith("R_") || n.startsWith("S_") ? n.substring(2) : n;
        Macro m = Macro.lookup(macro);
        if (m != null && (m.isDate() || macro.equals(n))) {
            return new ValueRef(TEMPLATE, 0, null, Template.compile("${" + n + "}", zone), n);
        }
        return new ValueRef(FIELD, 0, null, null, n);
    }

    /**
     * A template such as {@code "${.json.status}"} or {@code "${HOST}-${PID}"}: a single reference is read in
     * place, text without references is a constant, anything else is rendered per message.
     */
    static ValueRef template(String text, ZoneId zone) {
        Template t = Template.compile(text, zone); // validates, with positions
        String single = singleReference(text);
        if (single != null) {
            return named(single, zone);
        }
        if (t.isLiteral()) {
            ByteBuilder b = new ByteBuilder(text.length());
            t.render(new LogEvent(), b);
            byte[] constant = java.util.Arrays.copyOf(b.array(), b.length());
            return new ValueRef(CONSTANT, 0, constant, null, text);
        }
        return new ValueRef(TEMPLATE, 0, null, t, text);
    }

    /** A constant (a bare number in a comparison). */
    static ValueRef constant(String text) {
        return new ValueRef(CONSTANT, 0, text.getBytes(StandardCharsets.UTF_8), null, text);
    }

    /** The name in {@code ${NAME}} or {@code $NAME} when that is the whole template, else null. */
    private static String singleReference(String text) {
        if (text.length() > 3 && text.startsWith("${") && text.indexOf('}') == text.length() - 1) {
            return text.substring(2, text.length() - 1);
        }
        if (text.length() > 1 && text.charAt(0) == '$') {
            for (int i = 1; i < text.length(); i++) {
                char c = text.charAt(i);
                if (!(Character.isLetterOrDigit(c) || c == '_')) {
                    return null;
                }
            }
            return text.substring(1);
        }
        return null;
    }

    String text() {
        return text;
    }

    Reader newReader() {
        return new Reader(this);
    }

    /**
     * Reads the value of one message: after {@link #read}, the bytes are
     * {@code array[offset, offset + length)}, owned by the event or by this reader, valid until the next read or
     * until the event changes. An unset value reads as empty.
     *
     * <p>Threads: belongs to one thread.
     */
    static final class Reader {
        private static final byte[] EMPTY = new byte[0];

        private final ValueRef ref;
        private final Template template;
        private final ByteBuilder scratch;

        byte[] array = EMPTY;
        int offset;
        int length;

        Reader(ValueRef ref) {
            this.ref = ref;
            this.template = ref.template == null ? null : ref.template.copy();
            this.scratch = ref.kind == TEMPLATE || ref.kind == LEGACY_MATCH ? new ByteBuilder(256) : null;
        }

        /** For a constant, reads it now (it never changes) and returns true; false for anything else. */
        boolean readConstant() {
            if (ref.kind != CONSTANT) {
                return false;
            }
            array = ref.bytes;
            offset = 0;
            length = array.length;
            return true;
        }

        void read(LogEvent e) {
            switch (ref.kind) {
                case HEADER: {
                    int f = ref.header;
                    array = e.fieldArray(f);
                    offset = e.fieldOffset(f);
                    length = e.fieldLength(f);
                    break;
                }
                case FIELD: {
                    FieldTable t = e.fields();
                    int i = t.indexOf(ref.fieldName);
                    if (i < 0) {
                        array = EMPTY;
                        offset = 0;
                        length = 0;
                    } else {
                        array = t.data();
                        offset = t.valueOffset(i);
                        length = t.valueLength(i);
                    }
                    break;
                }
                case SOURCE:
                    array = e.sourceName();
                    offset = 0;
                    length = array.length;
                    break;
                case CONSTANT:
                    readConstant();
                    break;
                case TEMPLATE:
                    scratch.reset();
                    template.render(e, scratch);
                    setScratch();
                    break;
                default:
                    legacy(e);
            }
        }

        private void legacy(LogEvent e) {
            ByteBuilder b = scratch;
            b.reset();
            b.append(e.fieldArray(LogEvent.PROGRAM), e.fieldOffset(LogEvent.PROGRAM), e.fieldLength(LogEvent.PROGRAM));
            int pidLen = e.fieldLength(LogEvent.PID);
            if (pidLen > 0) {
                b.append((byte) '[').append(e.fieldArray(LogEvent.PID), e.fieldOffset(LogEvent.PID), pidLen)
                        .append((byte) ']');
            }
            b.append((byte) ':').append((byte) ' ');
            b.append(e.fieldArray(LogEvent.MSG), e.fieldOffset(LogEvent.MSG), e.fieldLength(LogEvent.MSG));
            setScratch();
        }

        private void setScratch() {
            array = scratch.array();
            offset = 0;
            length = scratch.length();
        }
    }
}
