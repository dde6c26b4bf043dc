package dev.logrouter.core.parse;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.logrouter.core.parse.ParserFuzzing.assertBounded;
import static dev.logrouter.core.parse.ParserFuzzing.entries;
import static dev.logrouter.core.parse.ParserFuzzing.messageEvent;
import static dev.logrouter.core.parse.ParserFuzzing.parseUnguarded;
import static dev.logrouter.core.parse.ParserFuzzing.taggedFailed;
import static dev.logrouter.core.parse.ParserFuzzing.twoMessages;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the parsers a parse worker applies to every event: the syslog header (RFC 3164, RFC 5424 with its fallback
 * and the JSON envelope) and the json, kv, xml and csv message parsers. Each input stands for two messages (split
 * at the first NUL byte, else the same message twice) that one parser instance parses in turn, as a worker does.
 *
 * <p>Properties: nothing throws (the message parsers run without {@link FieldParser}'s safety net, which would
 * hide a bug); a failure is the documented outcome (rolled back and tagged {@code .parse.<type>.failed}, flagged
 * discard with {@code drop-invalid}; kv never fails; the header parser turns a bad frame into syslog-ng's
 * replacement message); field spans stay inside their buffers; the field table stays within a fixed multiple of
 * the input size; the second message gives the same result from the reused parser and event as from fresh ones,
 * and the same through the public {@code parse(LogEvent)}; no input hangs a parser ({@code @Timeout}, which Jazzer
 * also applies to each input while fuzzing).
 *
 * <p>Regression inputs: {@code src/test/resources/dev/logrouter/core/parse/ParserFuzzTestInputs/<method>/}.
 *
 * <p>Threads: the JUnit thread.
 */
class ParserFuzzTest {

    /**
     * Header table bytes per input byte: an SD parameter named after a 255-byte SD-ID costs 5 input bytes; the
     * message parsers are held to their documented budget, {@link FieldParser#outputBudget}.
     */
    private static final long HEADER_FACTOR = 64;
    private static final long HEADER_CONSTANT = FieldParser.OUTPUT_EXTRA + 4096;
    private static final long RECEIVED = 1_763_794_805_000L;
    private static final byte[] PEER = "192.0.2.7".getBytes(StandardCharsets.US_ASCII);
    private static final ZoneId ZONE = ZoneId.of("Europe/Berlin");

    private static final ParserConfig JSON = step("type: json", "prefix: \".json.\"", "max-depth: 8");
    private static final ParserConfig KV = step("type: kv", "prefix: \".kv.\"", "stray-words-value-name: stray");
    private static final ParserConfig XML = step("type: xml", "max-depth: 8", "exclude-tags: [\"skip*\"]",
            "drop-invalid: true");
    private static final ParserConfig CSV = step("type: csv", "columns: [a, b, c, d]",
            "string-delimiters: [\"::\"]", "delimiters: \",;\"", "dialect: escape-backslash-with-sequences",
            "flags: [strip-whitespace, drop-invalid]", "null-value: \"-\"");
    private static final ParserConfig CSV_GREEDY = step("type: csv", "columns: [a, b, c]",
            "dialect: escape-double-char", "flags: [greedy]");

    @FuzzTest(maxDuration = "10s")
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void rfc3164(byte[] data) {
        header(data, LogEvent.FORMAT_RFC3164);
    }

    @FuzzTest(maxDuration = "10s")
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void rfc5424(byte[] data) {
        header(data, LogEvent.FORMAT_RFC5424);
        header(data, LogEvent.FORMAT_JSON); // the kafka envelope, which falls back to the syslog parsers
    }

    @FuzzTest(maxDuration = "10s")
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void json(byte[] data) {
        message(JSON, "json", data, Outcome.MAY_FAIL);
    }

    @FuzzTest(maxDuration = "10s")
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void kv(byte[] data) {
        message(KV, "kv", data, Outcome.NEVER_FAILS);
    }

    @FuzzTest(maxDuration = "10s")
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void xml(byte[] data) {
        message(XML, "xml", data, Outcome.FAILS_WITH_DISCARD);
    }

    @FuzzTest(maxDuration = "10s")
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void csv(byte[] data) {
        message(CSV, "csv", data, Outcome.FAILS_WITH_DISCARD);
        message(CSV_GREEDY, "csv", data, Outcome.NEVER_FAILS);
    }

    /** What a parser does with input it cannot parse. */
    private enum Outcome { NEVER_FAILS, MAY_FAIL, FAILS_WITH_DISCARD }

    private static void message(ParserConfig cfg, String type, byte[] data, Outcome outcome) {
        byte[][] msgs = twoMessages(data);
        FieldParser reused = create(cfg, type);
        boolean ok = false;
        LogEvent e = null;
        for (byte[] msg : msgs) {
            e = messageEvent(msg);
            ok = parseUnguarded(reused, e);
            FieldTable t = e.fields();
            if (!ok) {
                assertThat(outcome).as("%s failed on input it must accept", type).isNotEqualTo(Outcome.NEVER_FAILS);
                assertThat(t.size()).as("a failed parse is rolled back").isZero();
                assertThat(e.hasFlag(LogEvent.FLAG_DISCARD)).as("drop-invalid discards a failed message")
                        .isEqualTo(outcome == Outcome.FAILS_WITH_DISCARD);
            } else {
                assertThat(e.hasFlag(LogEvent.FLAG_DISCARD)).as("a parsed message is not discarded").isFalse();
            }
            assertBounded(t, msg.length, msg.length, FieldParser.OUTPUT_PER_INPUT_BYTE, FieldParser.OUTPUT_EXTRA);
        }
        LogEvent fresh = messageEvent(msgs[1]);
        create(cfg, type).parse(fresh);
        assertThat(taggedFailed(fresh, type)).as("the public path's verdict").isEqualTo(!ok);
        assertThat(entries(fresh.fields())).as("a fresh parser gives what the reused one gave")
                .isEqualTo(entries(e.fields()));
    }

    private static void header(byte[] data, byte hint) {
        byte[][] msgs = twoMessages(data);
        SyslogHeaderParser reused = new SyslogHeaderParser(ZONE);
        LogEvent e = new LogEvent();
        int longest = 0;
        for (byte[] msg : msgs) {
            fill(e, msg, hint); // one ring slot, cleared and refilled
            reused.parse(e);
            longest = Math.max(longest, msg.length);
            checkHeader(e, msg.length, longest);
        }
        LogEvent fresh = new LogEvent();
        fill(fresh, msgs[1], hint);
        new SyslogHeaderParser(ZONE).parse(fresh);
        assertThat(snapshot(fresh)).as("a fresh event and parser give what the reused ones gave")
                .isEqualTo(snapshot(e));
    }

    private static void fill(LogEvent e, byte[] frame, byte hint) {
        e.clear();
        e.setRaw(frame, 0, frame.length);
        e.setPeer(PEER, 0, PEER.length);
        e.setSource(1, PEER, hint, 0L);
        e.setReceivedMillis(RECEIVED);
    }

    private static void checkHeader(LogEvent e, int length, int longest) {
        for (int f = LogEvent.HOST; f <= LogEvent.MSG; f++) {
            if (e.isFieldSet(f)) {
                assertThat(e.fieldOffset(f)).as("field %d offset", f).isBetween(0, e.fieldArray(f).length);
                assertThat(e.fieldLength(f)).as("field %d length", f).isBetween(0,
                        e.fieldArray(f).length - e.fieldOffset(f));
            }
        }
        assertThat(e.pri()).as("PRI (out-of-range values are kept, as syslog-ng keeps them)").isBetween(0, 0xFFFF);
        assertThat(e.isStampSet()).as("stamp set").isTrue();
        assertThat(e.stampMicros()).as("stamp micros").isBetween(0, 999_999);
        // zones are not range-checked (+81:00 is kept, as syslog-ng keeps it), but never beyond what ±hh:mm says
        assertThat(e.stampOffsetSeconds()).as("zone offset").isBetween(-(99 * 3600 + 99 * 60), 99 * 3600 + 99 * 60);
        if (e.hasFlag(LogEvent.FLAG_PARSE_ERROR)) {
            assertThat(text(e, LogEvent.MSG)).as("replacement message").startsWith("Error processing log message: ");
        }
        assertBounded(e.fields(), length, longest, HEADER_FACTOR, HEADER_CONSTANT);
    }

    /** Everything the header parser sets, except the replacement message's sequence number (a global count). */
    private static List<String> snapshot(LogEvent e) {
        List<String> s = new ArrayList<>();
        for (int f = LogEvent.HOST; f <= LogEvent.MSG; f++) {
            s.add(e.isFieldSet(f) ? text(e, f) : "<unset>");
        }
        s.add("pri=" + e.pri() + " flags=" + e.flags() + " stamp=" + e.stampEpochSecond() + "." + e.stampMicros()
                + "@" + e.stampOffsetSeconds() + " tags=" + e.tagCount());
        for (String entry : entries(e.fields())) {
            if (!entry.startsWith(".SDATA.meta.sequenceId=")) {
                s.add(entry);
            }
        }
        return s;
    }

    private static String text(LogEvent e, int field) {
        return new String(e.fieldArray(field), e.fieldOffset(field), e.fieldLength(field),
                StandardCharsets.ISO_8859_1);
    }

    private static FieldParser create(ParserConfig cfg, String type) {
        return (FieldParser) cfg.create(new ParseContext("fuzz." + type, type, ZoneOffset.UTC,
                new MetricGroup("Parser", "fuzz." + type)));
    }

    private static ParserConfig step(String... lines) {
        try {
            return MessageParserFixture.loadStep(lines);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
