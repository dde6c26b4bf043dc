package dev.logrouter.core.parse;

import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Test-side helpers for the parser fuzz tests ({@link ParserFuzzTest}): events built from raw fuzz input, a way to
 * run a {@link FieldParser} without its safety net, and the checks every parser's output must pass.
 *
 * <p>Threads: the JUnit thread.
 */
public final class ParserFuzzing {

    private static final byte[] PEER = {'1', '2', '7', '.', '0', '.', '0', '.', '1'};

    private ParserFuzzing() {
    }

    /** A fresh event whose raw frame and MSG are {@code msg}, as a parse worker has it after the syslog header. */
    public static LogEvent messageEvent(byte[] msg) {
        LogEvent e = new LogEvent();
        e.setRaw(msg, 0, msg.length);
        e.setPeer(PEER, 0, PEER.length);
        e.setSource(1, PEER, LogEvent.FORMAT_AUTO, 0L);
        e.setReceivedMillis(1_763_794_805_000L);
        e.setField(LogEvent.MSG, 0, msg.length);
        return e;
    }

    /**
     * Does what {@link FieldParser#parse(LogEvent)} does for a {@code ${MSG}} input, except that a
     * {@link RuntimeException} from the parser (other than the spent output budget) escapes instead of being
     * counted as a failure: the production safety net would hide a parser bug from the fuzzer. Returns the
     * parser's verdict.
     */
    public static boolean parseUnguarded(FieldParser p, LogEvent e) {
        FieldTable table = e.fields();
        int len = e.fieldLength(LogEvent.MSG);
        p.begin(table, len);
        boolean ok;
        try {
            ok = p.parse(e.fieldArray(LogEvent.MSG), e.fieldOffset(LogEvent.MSG), len, e);
        } catch (FieldTable.OverBudgetException over) {
            ok = false; // the documented outcome of output far larger than the input
        }
        if (ok) {
            table.commit();
        } else {
            table.rollback();
        }
        return ok;
    }

    /** Whether the public path tagged the event as failed by a parser of {@code type}. */
    public static boolean taggedFailed(LogEvent e, String type) {
        return e.hasTag(Tags.id(".parse." + type + ".failed"));
    }

    /** The bytes of the live names and values (what the parser kept). */
    public static long liveBytes(FieldTable t) {
        long n = 0;
        for (int i = 0; i < t.size(); i++) {
            n += t.nameLength(i) + t.valueLength(i);
        }
        return n;
    }

    /**
     * The table holds at most {@code factor} bytes per input byte plus {@code constant}: what it keeps for a message
     * of {@code inputLength} bytes, and the buffer it grew to (dead values included) for the longest message it
     * ever held, {@code longestInput} (a reused table keeps its buffer): a parser must not turn a message into
     * unbounded memory.
     */
    public static void assertBounded(FieldTable t, int inputLength, int longestInput, long factor, long constant) {
        assertThat(liveBytes(t)).as("field bytes kept for %d input bytes", inputLength)
                .isLessThanOrEqualTo(factor * inputLength + constant);
        assertThat((long) t.data().length).as("field buffer for at most %d input bytes", longestInput)
                .isLessThanOrEqualTo(2 * (factor * longestInput + constant) + 256);
    }

    /** Every entry as "name=value" (names and values as bytes in ISO-8859-1, so no byte is lost), in order. */
    public static List<String> entries(FieldTable t) {
        List<String> out = new ArrayList<>(t.size());
        byte[] d = t.data();
        for (int i = 0; i < t.size(); i++) {
            out.add(new String(d, t.nameOffset(i), t.nameLength(i), java.nio.charset.StandardCharsets.ISO_8859_1)
                    + "=" + new String(d, t.valueOffset(i), t.valueLength(i),
                    java.nio.charset.StandardCharsets.ISO_8859_1) + "#" + t.tag(i));
        }
        return out;
    }

    /**
     * The two messages one fuzz input stands for: split at the first NUL byte, or the input twice (so that each
     * input also checks that a parser reused for a second message behaves as a fresh one).
     */
    public static byte[][] twoMessages(byte[] data) {
        for (int i = 0; i < data.length; i++) {
            if (data[i] == 0) {
                return new byte[][] {Arrays.copyOfRange(data, 0, i), Arrays.copyOfRange(data, i + 1, data.length)};
            }
        }
        return new byte[][] {data, data};
    }
}
