package dev.logrouter.core.parse;

import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.template.ByteBuilder;

import java.nio.charset.StandardCharsets;

/**
 * Writes a parser's output into an event's {@link FieldTable}: names are built as the parser's prefix
 * followed by path segments ({@code .json.} + {@code user} + {@code .} + {@code id}), values are copied
 * from bytes or encoded from chars. Nothing is allocated once the buffers are warm. The event's field limits
 * ({@code pipeline.max-fields}, {@code max-field-length}) are applied by the table itself, to every writer alike.
 *
 * <p>Threads: one instance per parser instance, used by its parse worker only.
 */
public final class FieldWriter {

    private final byte[] prefix;
    private final ByteBuilder name = new ByteBuilder(64);
    private final ByteBuilder value = new ByteBuilder(128);
    private FieldTable table;

    public FieldWriter(String prefix) {
        this.prefix = prefix.getBytes(StandardCharsets.UTF_8);
    }

    /** Starts writing into {@code t}: the name is reset to the prefix. */
    public void reset(FieldTable t) {
        this.table = t;
        name.reset();
        name.append(prefix);
    }

    /** The name being built (prefix + segments so far); append segments to it. */
    public ByteBuilder name() {
        return name;
    }

    /** The current name length, to come back to with {@link #truncateName}. */
    public int nameMark() {
        return name.length();
    }

    public void truncateName(int mark) {
        name.setLength(mark);
    }

    /** Sets the current name to a value copied from bytes. */
    public void set(byte[] v, int off, int len) {
        table.set(name.array(), 0, name.length(), v, off, len, 0);
    }

    /**
     * Sets the name made of the current name followed by {@code seg} (a key read from the input) to a value
     * copied from bytes; the current name itself is left as it was.
     */
    public void set(byte[] seg, int segOff, int segLen, byte[] v, int off, int len) {
        table.set(name.array(), 0, name.length(), seg, segOff, segLen, v, off, len, 0);
    }

    /** Sets the current name to chars encoded as UTF-8 (straight into the table). */
    public void setUtf8(char[] v, int off, int len) {
        FieldTable t = table;
        int i = t.begin(name.array(), 0, name.length(), 0);
        t.appendUtf8ToValue(i, v, off, len);
    }

    /** Sets the current name to text encoded as UTF-8 (straight into the table). */
    public void setUtf8(CharSequence v, int off, int len) {
        FieldTable t = table;
        int i = t.begin(name.array(), 0, name.length(), 0);
        t.appendUtf8ToValue(i, v, off, len);
    }

    /** A scratch buffer for composing a value (unescaping); pass it to {@link #set} when done. */
    public ByteBuilder scratchValue() {
        value.reset();
        return value;
    }

    /** The table written to (for parsers that read back what they wrote, such as repeated XML elements). */
    public FieldTable table() {
        return table;
    }
}
