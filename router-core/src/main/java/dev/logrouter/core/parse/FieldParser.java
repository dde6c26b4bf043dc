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
 * <p>Threads: one instance per parse worker; {@link #parse} is called by that worker only.
 */
public abstract class FieldParser implements EventParser {

    /** The input template meaning "the message text", which is read in place without rendering. */
    public static final String MSG_INPUT = "${MSG}";

    private final Template input;
    private final ByteBuilder inputBuffer;
    private final int failedTag;
    private final Counter parsed;
    private final Counter failed;
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
        table.beginTransaction();
        out.reset(table);
        boolean ok;
        try {
            ok = parse(in, off, len, event);
        } catch (RuntimeException e) {
            // a parser bug or a limit hit deep inside a library: the message is kept, the failure counted
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

    /**
     * Undoes everything written for this message so far and starts again from an empty output (for a parser
     * that tries a fast path first and falls back to a general one).
     */
    protected final void discardOutput() {
        FieldTable table = out.table();
        table.rollback();
        table.beginTransaction();
        out.reset(table);
    }

    /**
     * Parses {@code len} bytes at {@code off} of {@code in} and writes the fields through {@link #out}.
     * The input must not be modified and is only valid during the call. Returns false when the input is
     * not valid for this parser; everything written is then rolled back.
     */
    protected abstract boolean parse(byte[] in, int off, int len, LogEvent event);
}
