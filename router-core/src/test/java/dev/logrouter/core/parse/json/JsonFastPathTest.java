package dev.logrouter.core.parse.json;

import static dev.logrouter.core.parse.MessageParserFixture.loadStep;
import static dev.logrouter.core.parse.MessageParserFixture.syslogEvent;
import static org.assertj.core.api.Assertions.assertThat;

import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.parse.FieldWriter;
import dev.logrouter.core.parse.MessageParserFixture;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The json parser's byte-level fast path against its Jackson path: on random documents and on random damage to
 * them (truncation, stray bytes, quotes, non-ASCII, invalid UTF-8), both must write the same fields byte for byte
 * and fail on the same inputs.
 */
class JsonFastPathTest {

    private static final int FAILED = Tags.id(".parse.json.failed");
    private static final String[] KEYS = {"a", "user", "k\\u00e9y", "x_y", "", "s p", "\u00fc", "q\\\"t", "n1"};
    private static final String[] STRINGS = {"plain", "", "tab\\tq\\\"nl\\n\\\\ \\/ \\b\\f\\r", "\\u00e9\\u20ac",
        "\\ud83d\\ude00", "\\ud83d", "caf\u00e9 \u20ac", "a\\x", "\\u12G4", "it's", "single 'q'"};
    private static final String[] NUMBERS = {"0", "-0", "7", "-17", "123456789012345678", "1234567890123456789",
        "-99999999999999999999", "1.25", "-0.5", "1e3", "1E-7", "2.675", "1.5e+20", "01", "1.", ".5", "-", "+1",
        "1e", "0x10", "1e400", "NaN"};
    private static final String NOISE = "{}[],:\"'\\ \t\n0123456789-+.eEtrufalsn\u00e9x";

    private final Random rnd = new Random(7);

    private JsonFieldParser parser(boolean fast, String... options) throws Exception {
        String[] lines = new String[options.length + 2];
        lines[0] = "type: json";
        lines[1] = "prefix: .j.";
        System.arraycopy(options, 0, lines, 2, options.length);
        JsonParserConfig cfg = (JsonParserConfig) loadStep(lines);
        JsonFieldParser p = (JsonFieldParser) cfg.create(
                MessageParserFixture.context("json", new MetricGroup("Parser", "test.json")));
        if (!fast) {
            p.disableFastPath();
        }
        return p;
    }

    @Test
    @Timeout(60) // a parser that spins on bad input must fail the build, not hang it
    void bothPathsAgreeOnRandomDocumentsAndTheirDamage() throws Exception {
        compare(parser(true), parser(false), 4000);
    }

    @Test
    @Timeout(60) // a parser that spins on bad input must fail the build, not hang it
    void bothPathsAgreeAtTheDepthAndLengthLimits() throws Exception {
        compare(parser(true, "max-depth: 3", "max-string-length: 6"),
                parser(false, "max-depth: 3", "max-string-length: 6"), 4000);
    }

    @Test
    void theFastPathCoversTheCommonCase() {
        // guards against a fast path that hands everything to Jackson: an ASCII document must be read by it
        FieldTable t = new FieldTable();
        FieldWriter out = new FieldWriter(".j.");
        out.reset(t);
        JsonFastPath path = new JsonFastPath(out, new byte[] {'.'}, 64, 100);
        byte[] msg = "{\"a\":{\"b\":[1,\"x\\ty\",true,null,-0,2.5]},\"c\":\"d\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(path.parse(msg, 0, msg.length)).isEqualTo(JsonFastPath.DONE);
        assertThat(t.get(".j.a.b[0]")).isEqualTo("1");
        assertThat(t.get(".j.a.b[1]")).isEqualTo("x\ty");
        assertThat(t.get(".j.a.b[2]")).isEqualTo("true");
        assertThat(t.get(".j.a.b[4]")).isEqualTo("0");
        assertThat(t.get(".j.a.b[5]")).isEqualTo("2.500000");
        assertThat(t.get(".j.c")).isEqualTo("d");
        assertThat(t.size()).isEqualTo(6);
    }

    private void compare(JsonFieldParser fast, JsonFieldParser jackson, int documents) {
        int failures = 0;
        for (int n = 0; n < documents; n++) {
            StringBuilder doc = new StringBuilder();
            object(doc, 0);
            byte[] text = doc.toString().getBytes(StandardCharsets.UTF_8);
            failures += same(fast, jackson, text) ? 0 : 1;
            failures += same(fast, jackson, damage(text)) ? 0 : 1;
        }
        // the damage must really produce failures, or the comparison proves little
        assertThat(failures).isGreaterThan(documents / 4);
    }

    /** Parses {@code msg} with both parsers and asserts the same outcome; returns whether it parsed. */
    private boolean same(JsonFieldParser fast, JsonFieldParser jackson, byte[] msg) {
        byte[] frame = concat(MessageParserFixture.HEADER.getBytes(StandardCharsets.US_ASCII), msg);
        LogEvent a = syslogEvent(frame);
        LogEvent b = syslogEvent(frame);
        a.fields().set(".j.before", "kept"); // a rollback must keep what was there
        b.fields().set(".j.before", "kept");
        fast.parse(a);
        jackson.parse(b);
        String what = new String(msg, StandardCharsets.ISO_8859_1);
        assertThat(a.hasTag(FAILED)).as(what).isEqualTo(b.hasTag(FAILED));
        assertThat(entries(a)).as(what).isEqualTo(entries(b));
        return !a.hasTag(FAILED);
    }

    private static List<String> entries(LogEvent e) {
        FieldTable t = e.fields();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < t.size(); i++) {
            out.add(new String(t.data(), t.nameOffset(i), t.nameLength(i), StandardCharsets.ISO_8859_1) + "="
                    + new String(t.data(), t.valueOffset(i), t.valueLength(i), StandardCharsets.ISO_8859_1));
        }
        return out;
    }

    private byte[] damage(byte[] text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = rnd.nextInt(text.length + 1);
        switch (rnd.nextInt(5)) {
            case 0: // truncated
                out.write(text, 0, at);
                break;
            case 1: // a byte replaced
            case 2: { // a byte inserted
                out.write(text, 0, at);
                byte[] noise = String.valueOf(NOISE.charAt(rnd.nextInt(NOISE.length())))
                        .getBytes(StandardCharsets.UTF_8);
                out.write(noise, 0, noise.length);
                int skip = rnd.nextInt(2) == 1 && at < text.length ? 1 : 0;
                out.write(text, at + skip, text.length - at - skip);
                break;
            }
            case 3: // invalid UTF-8
                out.write(text, 0, at);
                out.write(rnd.nextBoolean() ? 0xC3 : 0xFF);
                out.write(text, at, text.length - at);
                break;
            default: // trailing bytes
                out.write(text, 0, text.length);
                out.write(rnd.nextBoolean() ? ' ' : 'x');
                break;
        }
        return out.toByteArray();
    }

    private void object(StringBuilder b, int depth) {
        b.append(ws()).append('{');
        int n = rnd.nextInt(5);
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append(ws()).append('"').append(KEYS[rnd.nextInt(KEYS.length)]).append('"').append(ws()).append(':');
            value(b, depth + 1);
        }
        b.append(ws()).append('}').append(ws());
    }

    private void value(StringBuilder b, int depth) {
        b.append(ws());
        int kind = rnd.nextInt(depth > 4 ? 5 : 7);
        switch (kind) {
            case 0:
                b.append('"').append(STRINGS[rnd.nextInt(STRINGS.length)]).append('"');
                break;
            case 1:
                b.append(NUMBERS[rnd.nextInt(NUMBERS.length)]);
                break;
            case 2:
                b.append(rnd.nextBoolean() ? "true" : rnd.nextBoolean() ? "false" : "null");
                break;
            case 3:
                b.append(rnd.nextInt(4) == 0 ? "'single'" : "\"" + "v".repeat(rnd.nextInt(10)) + "\"");
                break;
            case 4:
                b.append(NUMBERS[rnd.nextInt(7)]);
                break;
            case 5:
                object(b, depth);
                break;
            default: {
                b.append('[');
                int n = rnd.nextInt(4);
                for (int i = 0; i < n; i++) {
                    if (i > 0) {
                        b.append(',');
                    }
                    value(b, depth + 1);
                }
                b.append(ws()).append(']');
                break;
            }
        }
        b.append(ws());
    }

    private String ws() {
        int r = rnd.nextInt(10);
        return r < 7 ? "" : r == 7 ? " " : r == 8 ? "\t" : " \n ";
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = new byte[a.length + b.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
