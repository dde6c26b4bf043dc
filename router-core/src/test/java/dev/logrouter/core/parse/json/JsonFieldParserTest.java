package dev.logrouter.core.parse.json;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.option.ConfigException;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.MessageParserFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;

import static dev.logrouter.core.parse.MessageParserFixture.allocatedBytes;
import static dev.logrouter.core.parse.MessageParserFixture.fields;
import static dev.logrouter.core.parse.MessageParserFixture.loadStep;
import static dev.logrouter.core.parse.MessageParserFixture.msg;
import static dev.logrouter.core.parse.MessageParserFixture.parse;
import static dev.logrouter.core.parse.MessageParserFixture.parserFromYaml;
import static dev.logrouter.core.parse.MessageParserFixture.syslogEvent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

/**
 * The {@code json} parser on real syslog frames: syslog-ng 3.38 json-parser naming and values, options, and the
 * failure path (rollback, tag, counter) on bad input.
 */
class JsonFieldParserTest {

    private static final int FAILED = Tags.id(".parse.json.failed");

    private final MetricGroup metrics = new MetricGroup("Parser", "test.json");

    private EventParser parser(String... options) throws Exception {
        return parserFromYaml("json", metrics, options);
    }

    private void assertFailedKeepingMessage(LogEvent e, String msg) {
        assertThat(e.hasTag(FAILED)).isTrue();
        assertThat(msg(e)).isEqualTo(msg);
        assertThat(e.fields().size()).isZero();
        assertThat(metrics.value("failed")).isEqualTo(1);
        assertThat(metrics.value("parsed")).isZero();
    }

    // ------------------------------------------------------------------ syslog-ng naming and values

    @Test
    void flatObjectBecomesFieldsUnderThePrefix() throws Exception {
        LogEvent e = parse(parser("prefix: .json."),
                "{\"user\":\"alice\",\"id\":42,\"ok\":true,\"bad\":false,\"ratio\":0.5,\"none\":null}");
        assertThat(fields(e)).containsExactly(
                entry(".json.user", "alice"),
                entry(".json.id", "42"),
                entry(".json.ok", "true"),
                entry(".json.bad", "false"),
                entry(".json.ratio", "0.500000"));
        assertThat(e.hasTag(FAILED)).isFalse();
        assertThat(metrics.value("parsed")).isEqualTo(1);
        assertThat(metrics.value("failed")).isZero();
    }

    @Test
    void defaultPrefixIsEmptyAsInSyslogNg() throws Exception {
        LogEvent e = parse(parser(), "{\"a\":\"b\"}");
        assertThat(fields(e)).containsExactly(entry("a", "b"));
    }

    @Test
    void nestedObjectsAreFlattenedWithTheKeyDelimiter() throws Exception {
        String json = "{\"user\":{\"id\":7,\"name\":{\"first\":\"Ann\"}},\"after\":1}";
        assertThat(fields(parse(parser("prefix: .json."), json))).containsExactly(
                entry(".json.user.id", "7"),
                entry(".json.user.name.first", "Ann"),
                entry(".json.after", "1"));
        assertThat(fields(parse(parser("key-delimiter: \"~\""), json))).containsExactly(
                entry("user~id", "7"),
                entry("user~name~first", "Ann"),
                entry("after", "1"));
    }

    @Test
    void arrayElementsAreNamedByIndexRecursively() throws Exception {
        LogEvent e = parse(parser("prefix: .j."),
                "{\"tags\":[\"a\",\"b\"],\"hits\":[{\"id\":1},{\"id\":2,\"x\":[true,null,[3,4]]}],\"e\":[],\"o\":{}}");
        assertThat(fields(e)).containsExactly(
                entry(".j.tags[0]", "a"),
                entry(".j.tags[1]", "b"),
                entry(".j.hits[0].id", "1"),
                entry(".j.hits[1].id", "2"),
                entry(".j.hits[1].x[0]", "true"),
                entry(".j.hits[1].x[2][0]", "3"),
                entry(".j.hits[1].x[2][1]", "4"));
    }

    @Test
    void numbersAreStoredAsJsonCAndPrintfWouldStoreThem() throws Exception {
        LogEvent e = parse(parser(),
                "{\"i\":-17,\"z\":-0,\"big\":123456789012345678901,\"neg\":-99999999999999999999,"
                        + "\"f\":1.25,\"e\":1e3,\"tiny\":1e-7,\"half\":0.0000005,\"r\":2.675,\"huge\":1.5e20,"
                        + "\"tie\":0.0078125,\"tie2\":0.0234375}");
        assertThat(fields(e)).containsExactly(
                entry("i", "-17"),
                entry("z", "0"),
                entry("big", "9223372036854775807"),
                entry("neg", "-9223372036854775808"),
                entry("f", "1.250000"),
                entry("e", "1000.000000"),
                entry("tiny", "0.000000"),
                entry("half", "0.000000"), // 5e-7 is slightly below the tie in binary
                entry("r", "2.675000"),
                entry("huge", "150000000000000000000.000000"),
                entry("tie", "0.007812"), // exact ties round to even, as glibc's printf
                entry("tie2", "0.023438"));
    }

    @Test
    void stringsAreUnescapedToUtf8() throws Exception {
        LogEvent e = parse(parser(),
                "{\"s\":\"tab\\tquote\\\"nl\\n\\u00e9\\ud83d\\ude00 \\\\\",\"k\\u00e9y\":\"\u00fc\"}");
        assertThat(fields(e)).containsExactly(
                entry("s", "tab\tquote\"nl\n\u00e9\ud83d\ude00 \\"),
                entry("k\u00e9y", "\u00fc"));
    }

    @Test
    void repeatedKeyKeepsTheLastValue() throws Exception {
        assertThat(fields(parse(parser(), "{\"a\":1,\"b\":2,\"a\":3}"))).containsExactly(entry("a", "3"),
                entry("b", "2"));
    }

    @Test
    void singleQuotedStringsAreAcceptedLikeJsonC() throws Exception {
        assertThat(fields(parse(parser(), "{'foo': 'bar'}"))).containsExactly(entry("foo", "bar"));
    }

    @Test
    void whitespaceAroundTheObjectIsAllowed() throws Exception {
        assertThat(fields(parse(parser(), "  {\"a\":1}  \t"))).containsExactly(entry("a", "1"));
    }

    @Test
    void templateInputParsesTheRenderedText() throws Exception {
        EventParser p = parser("template: '{\"host\":\"${HOST}\",\"msg\":\"${MSG}\"}'");
        LogEvent e = parse(p, "hello");
        assertThat(fields(e)).containsExactly(entry("host", "host1"), entry("msg", "hello"));
        assertThat(msg(e)).isEqualTo("hello");
    }

    // ------------------------------------------------------------------ marker

    @Test
    void markerIsSkippedWithTheWhitespaceAfterIt() throws Exception {
        EventParser p = parser("marker: \"@cee:\"", "prefix: .cee.");
        assertThat(fields(parse(p, "@cee: {\"a\":\"b\"}"))).containsExactly(entry(".cee.a", "b"));
        assertThat(fields(parse(p, "@cee:{\"a\":\"c\"}"))).containsExactly(entry(".cee.a", "c"));
        assertThat(metrics.value("parsed")).isEqualTo(2);
    }

    @Test
    void messageWithoutTheMarkerFails() throws Exception {
        EventParser p = parser("marker: \"@cee:\"");
        String text = "{\"a\":\"b\"} @cee:";
        assertFailedKeepingMessage(parse(p, text), text);
    }

    // ------------------------------------------------------------------ failures

    @Test
    void topLevelNonObjectFails() throws Exception {
        EventParser p = parser();
        for (String text : new String[] {"[1,2]", "\"s\"", "42", "null", "", "plain text"}) {
            LogEvent e = parse(p, text);
            assertThat(e.hasTag(FAILED)).as(text).isTrue();
            assertThat(e.fields().size()).as(text).isZero();
        }
        assertThat(metrics.value("failed")).isEqualTo(6);
    }

    @Test
    void trailingGarbageFails() throws Exception {
        EventParser p = parser();
        for (String text : new String[] {"{\"a\":1} x", "{\"a\":1}{\"b\":2}", "{\"a\":1},", "{\"a\":1} {}"}) {
            assertThat(parse(p, text).hasTag(FAILED)).as(text).isTrue();
        }
    }

    @Test
    void truncatedJsonFailsAndLeavesTheEventAsItWas() throws Exception {
        String text = "{\"user\":\"alice\",\"nested\":{\"id\":1,\"tags\":[\"a\",\"b";
        assertFailedKeepingMessage(parse(parser(), text), text);
    }

    @Test
    @Timeout(60)
    void jsonCutRightAfterAValueOrAKeyFails() throws Exception {
        // the input ends on a token boundary: the parser must not keep re-reading the last complete token
        for (String text : new String[] {"{\"user\":\"bob\",\"m\":\"cut\"", "{\"n\":12", "{\"t\":true",
                "{\"a\":{\"b\":1}", "{\"a\":[1,2]", "{\"k\"", "{\"k\":", "{", "{\"a\":null"}) {
            EventParser p = parser();
            LogEvent e = parse(p, text);
            assertThat(e.hasTag(FAILED)).as(text).isTrue();
            assertThat(msg(e)).isEqualTo(text);
            assertThat(e.fields().size()).isZero();
            assertThat(fields(parse(p, "{\"after\":\"ok\"}"))).as("after %s", text)
                    .containsExactly(entry("after", "ok"));
        }
    }

    @Test
    @Timeout(60) // a parser that spins on bad input must fail the build, not hang it
    void inputEndingRightAfterAMemberNameOrValueFailsInsteadOfSpinning() throws Exception {
        // the non-blocking parser answers NOT_AVAILABLE there without changing its current token
        for (String msg : new String[] {"{ \"k\\u00e9y\"", "{\"a\"", "{\"a\":1,\"b\"", "{\"a\":\"x\",\"b\":",
            "{\"a\":[1,2", "{\"a\":{\"b\":true"}) {
            EventParser p = parser();
            LogEvent e = parse(p, msg);
            assertThat(e.hasTag(FAILED)).as(msg).isTrue();
            assertThat(e.fields().size()).as(msg).isZero();
        }
    }

    @Test
    void failureRestoresFieldsThatEarlierParsersSet() throws Exception {
        LogEvent e = syslogEvent("{\"a\":\"new\",\"b\":\"x\",");
        e.fields().set("a", "old");
        parser().parse(e);
        assertThat(fields(e)).containsExactly(entry("a", "old"));
        assertThat(e.hasTag(FAILED)).isTrue();
    }

    @Test
    void nesting1000DeepFailsCleanly() throws Exception {
        String text = "{\"a\":".repeat(1000) + "1" + "}".repeat(1000);
        assertFailedKeepingMessage(parse(parser(), text), text);
        String arrays = "{\"a\":" + "[".repeat(999) + "]".repeat(999) + "}";
        assertThat(parse(parser(), arrays).hasTag(FAILED)).isTrue();
    }

    @Test
    void nestingUpToMaxDepthIsAccepted() throws Exception {
        EventParser p = parser("max-depth: 3");
        assertThat(fields(parse(p, "{\"a\":{\"b\":{\"c\":1}}}"))).containsExactly(entry("a.b.c", "1"));
        assertThat(parse(p, "{\"a\":{\"b\":{\"c\":{\"d\":1}}}}").hasTag(FAILED)).isTrue();
        assertThat(parse(p, "{\"a\":{\"b\":[[1]]}}").hasTag(FAILED)).isTrue();
    }

    @Test
    void oneMegabyteStringFailsUnderTheDefaultLimitAndParsesWhenAllowed() throws Exception {
        String big = "x".repeat(1 << 20);
        String text = "{\"before\":1,\"big\":\"" + big + "\",\"after\":2}";
        byte[] frame = (MessageParserFixture.HEADER + text).getBytes(StandardCharsets.US_ASCII);

        LogEvent e = MessageParserFixture.syslogEvent(frame);
        parser().parse(e);
        assertFailedKeepingMessage(e, text);

        LogEvent ok = MessageParserFixture.syslogEvent(frame);
        parser("max-string-length: 2000000").parse(ok);
        assertThat(ok.hasTag(FAILED)).isFalse();
        assertThat(ok.fields().get("big")).hasSize(1 << 20);
        assertThat(ok.fields().get("after")).isEqualTo("2");
    }

    @Test
    void longMemberNameIsBoundedToo() throws Exception {
        String text = "{\"" + "k".repeat(100) + "\":1}";
        assertThat(parse(parser("max-string-length: 50"), text).hasTag(FAILED)).isTrue();
        assertThat(parse(parser("max-string-length: 100"), text).hasTag(FAILED)).isFalse();
    }

    @Test
    void parserKeepsWorkingAfterFailures() throws Exception {
        EventParser p = parser();
        assertThat(parse(p, "{\"a\":").hasTag(FAILED)).isTrue();
        assertThat(parse(p, "{\"a\":" + "[".repeat(500)).hasTag(FAILED)).isTrue();
        assertThat(fields(parse(p, "{\"a\":2}"))).containsExactly(entry("a", "2"));
    }

    // ------------------------------------------------------------------ configuration

    @Test
    void defaultsComeFromTheOptionDeclarations() throws Exception {
        assertThat(loadStep("type: json")).isEqualTo(
                new JsonParserConfig(null, "", "${MSG}", null, ".", 64, 65536));
    }

    @Test
    void badOptionsAreRejectedWithTheirName() {
        assertThatThrownBy(() -> loadStep("type: json", "key-delimiter: \"::\""))
                .isInstanceOf(ConfigException.class).hasMessageContaining("key-delimiter");
        assertThatThrownBy(() -> loadStep("type: json", "max-depth: 0"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("max-depth");
        assertThatThrownBy(() -> loadStep("type: json", "marker: \"\""))
                .isInstanceOf(ConfigException.class).hasMessageContaining("marker");
        assertThatThrownBy(() -> loadStep("type: json", "max-string-length: -1"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("max-string-length");
    }

    // ------------------------------------------------------------------ allocation

    @Test
    void warmParserAllocatesLittlePerMessage() throws Exception {
        EventParser p = parser("prefix: .json.");
        byte[] frame = (MessageParserFixture.HEADER
                + "{\"user\":{\"id\":7,\"name\":\"Ann\"},\"tags\":[\"a\",\"b\"],\"ms\":0.042,\"ok\":true}")
                .getBytes(StandardCharsets.US_ASCII);
        LogEvent e = MessageParserFixture.syslogEvent(frame);
        int n = 3_000;
        long perMessage = allocatedBytes(p, e, 20_000, n) / n;
        assertThat(e.fields().get(".json.user.name")).isEqualTo("Ann");
        // any per-message object (a Jackson parser is ~700 B) would show; the measurement itself may cost a little
        assertThat(perMessage).isLessThan(8);
    }

    @Test
    void reusedParserStaysCorrectAcrossManyMessagesAndRenewals() throws Exception {
        EventParser p = parser("prefix: .j.");
        long fed = 0;
        int n = 0;
        while (fed < 3 * JsonFieldParser.RENEW_AFTER_BYTES) {
            String text = "{\"n\":" + n + ",\"k" + (n % 97) + "\":\"" + "v".repeat(n % 300) + "\",\"a\":[" + n + "]}"
                    + (n % 3 == 0 ? " \n" : "");
            LogEvent e = parse(p, n % 50 == 7 ? text.substring(0, text.length() / 2) : text);
            if (n % 50 == 7) {
                assertThat(e.hasTag(FAILED)).isTrue();
            } else {
                assertThat(fields(e)).as(text).containsExactly(entry(".j.n", Integer.toString(n)),
                        entry(".j.k" + (n % 97), "v".repeat(n % 300)), entry(".j.a[0]", Integer.toString(n)));
            }
            fed += text.length();
            n++;
        }
        assertThat(metrics.value("failed") + metrics.value("parsed")).isEqualTo(n);
    }
}
