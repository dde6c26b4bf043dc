package dev.logrouter.core.parse;

import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Template;

/**
 * The common shape of the message parsers (json, kv, xml, csv, regex): take an input (MSG, or the
 * output of a template, like syslog-ng's {@code template()} option), parse it into name-value pairs
 * under a prefix, and on failure leave the event exactly as it was (the table is rolled back), add the
 * tag {@code .parse.<type>.failed} and count it. A failure never throws out of {@link #parse}.
 *
 * <p>The names and values a parser writes for one message may take at most {@link #OUTPUT_PER_INPUT_BYTE} bytes
 * per input byte plus {@link #OUTPUT_EXTRA} bytes in the event's field table; more is a failure. Flattened
 * names repeat the path of their parents, so without this bound a 64 KiB JSON or XML message with one long
 * key above thousands of short members would make the table (which a ring slot keeps) grow by hundreds of MB.
 *
 * <p>Threads: one instance per parse worker; {@link #parse} is called by that worker only.
 */
public abstract class FieldParser implements EventParser {

    /** Field-table bytes a parser may write per byte of its input (see the class comment). */
    public static final int OUTPUT_PER_INPUT_BYTE = 32;
    /** Field-table bytes a parser may write whatever its input's size. */
    public static final int OUTPUT_EXTRA = 64 * 1024;

    /** The input template meaning "the message text", which is read in place without rendering. */
    public static final String MSG_INPUT = "${MSG}";

    private final Template input;
    private final ByteBuilder inputBuffer;
    private final int failedTag;
    private final Counter parsed;
    private final Counter failed;
    /** The output budget of the message being parsed. */
    private int outputBudget;
    /** Where subclasses write their fields; reset to the prefix for every message. */
    protected final FieldWriter out;

    /**
     * @param prefix        prepended to every name the parser writes
     * @param inputTemplate what to parse: {@link #MSG_INPUT} or any template
     */
    protected FieldParser(String prefix, String inputTemplate, ParseContext ctx) {
        this.out = new FieldWriter(prefix);
        boolean msg = inputTemplate.equals(MSG_INPUT) || inputTemplate.equals("$MSG");
        this.input = msg ? null : Template.compile(inputTemplate, ctx.zone());
        this.inputBuffer = msg ? null : new ByteBuilder(256);
        this.failedTag = Tags.id(".parse." + ctx.type() + ".failed");
        this.parsed = ctx.metrics().counter("parsed", "Messages this parser parsed successfully.");
        this.failed = ctx.metrics().counter("failed",
                "Messages this parser could not parse: kept unchanged, tagged .parse.<type>.failed.");
    }

    @Override
    public final void parse(LogEvent event) {
        byte[] in;
        int off;
        int len;
        if (input == null) {
            in = event.fieldArray(LogEvent.MSG);
            off = event.fieldOffset(LogEvent.MSG);
            len = event.fieldLength(LogEvent.MSG);
        } else {
            inputBuffer.reset();
            input.render(event, inputBuffer);
            in = inputBuffer.array();
            off = 0;
            len = inputBuffer.length();
        }
        FieldTable table = event.fields();
        begin(table, len);
        boolean ok;
        try {
            ok = parse(in, off, len, event);
        } catch (RuntimeException e) {
            // the output budget spent (FieldTable.OverBudgetException), a parser bug or a limit hit deep inside a
            // library: the message is kept, the failure counted
            ok = false;
        }
        if (ok) {
            table.commit();
            parsed.inc();
        } else {
            table.rollback();
            event.addTag(failedTag);
            failed.inc();
        }
    }

    /** Opens the message's transaction on {@code table}, with the output budget of {@code len} input bytes. */
    final void begin(FieldTable table, int len) {
        outputBudget = outputBudget(len);
        table.beginTransaction(outputBudget);
        out.reset(table);
    }

    /**
     * Undoes everything written for this message so far and starts again from an empty output (for a parser
     * that tries a fast path first and falls back to a general one).
     */
    protected final void discardOutput() {
        FieldTable table = out.table();
        table.rollback();
        table.beginTransaction(outputBudget);
        out.reset(table);
    }

    /** The field-table bytes a parser may write for an input of {@code inputLength} bytes. */
    public static int outputBudget(int inputLength) {
        return (int) Math.min(Integer.MAX_VALUE, (long) OUTPUT_PER_INPUT_BYTE * inputLength + OUTPUT_EXTRA);
    }

    /**
     * Parses {@code len} bytes at {@code off} of {@code in} and writes the fields through {@link #out}.
     * The input must not be modified and is only valid during the call. Returns false when the input is
     * not valid for this parser; everything written is then rolled back.
     */
    protected abstract boolean parse(byte[] in, int off, int len, LogEvent event);
}
