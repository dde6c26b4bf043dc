package dev.logrouter.core.parse.kv;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.option.ConfigException;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.MessageParserFixture;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static dev.logrouter.core.parse.MessageParserFixture.allocatedBytes;
import static dev.logrouter.core.parse.MessageParserFixture.fields;
import static dev.logrouter.core.parse.MessageParserFixture.loadStep;
import static dev.logrouter.core.parse.MessageParserFixture.msg;
import static dev.logrouter.core.parse.MessageParserFixture.parse;
import static dev.logrouter.core.parse.MessageParserFixture.parserFromYaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

/** The {@code kv} parser on real syslog frames: fields, prefix, options, stray words, bad input, allocation. */
class KvFieldParserTest {

    private static final int FAILED = Tags.id(".parse.kv.failed");

    private final MetricGroup metrics = new MetricGroup("Parser", "test.kv");

    private EventParser parser(String... options) throws Exception {
        return parserFromYaml("kv", metrics, options);
    }

    @Test
    void firewallLineBecomesPrefixedFields() throws Exception {
        String text = "sn=C0EAE484E43E time=\"2016-07-08 13:42:58\" fw=132.237.143.192 pri=5 msg=\"Web site access "
                + "allowed\" usr=\"DEMO\\\\student\" src=10.2.3.64:50682:X2-V3023 arg= code=27";
        LogEvent e = parse(parser("prefix: .kv."), text);
        assertThat(fields(e)).containsExactly(
                entry(".kv.sn", "C0EAE484E43E"),
                entry(".kv.time", "2016-07-08 13:42:58"),
                entry(".kv.fw", "132.237.143.192"),
                entry(".kv.pri", "5"),
                entry(".kv.msg", "Web site access allowed"),
                entry(".kv.usr", "DEMO\\student"),
                entry(".kv.src", "10.2.3.64:50682:X2-V3023"),
                entry(".kv.arg", ""),
                entry(".kv.code", "27"));
        assertThat(msg(e)).isEqualTo(text);
        assertThat(metrics.value("parsed")).isEqualTo(1);
    }

    @Test
    void defaultPrefixIsEmptyAndRepeatedKeysKeepTheLastValue() throws Exception {
        assertThat(fields(parse(parser(), "LEN=1 TOS=0x00 LEN=2"))).containsExactly(entry("LEN", "2"),
                entry("TOS", "0x00"));
    }

    @Test
    void valueAndPairSeparatorsAreConfigurable() throws Exception {
        EventParser p = parser("value-separator: \":\"", "pair-separator: \";\"");
        assertThat(fields(parse(p, "a:1;b:two words;c:'x;y'"))).containsExactly(entry("a", "1"),
                entry("b", "two words"), entry("c", "x;y"));
    }

    @Test
    void utf8ValuesAndOddKeysAreCopiedAsBytes() throws Exception {
        // a key is the run of [A-Za-z0-9_.-] right before '=': "n\u00e9v" gives "v", "*weird.key-1" gives "weird.key-1"
        LogEvent e = parse(parser(), "*weird.key-1=ok, n\u00e9v=x, user=J\u00fcrgen \u00fcber=1 *k=v");
        // "\u00fcber=1" and "*k=v" do not start a key, so they stay in the unquoted value before them
        assertThat(fields(e)).containsExactly(entry("weird.key-1", "ok"), entry("v", "x"),
                entry("user", "J\u00fcrgen \u00fcber=1 *k=v"));
    }

    @Test
    void strayWordsGoToTheirFieldUnprefixed() throws Exception {
        EventParser p = parser("prefix: .kv.", "stray-words-value-name: .kv.stray");
        LogEvent e = parse(p, "PF: filter/forward DROP IN=eth0 OUT= \"quoted\" x");
        // each run of text between pairs is one list element, quoted when it holds spaces
        assertThat(fields(e)).containsExactly(entry(".kv.IN", "eth0"), entry(".kv.OUT", "quoted"),
                entry(".kv.stray", "\"PF: filter/forward DROP\",x"));
        LogEvent none = parse(p, "a=1");
        assertThat(none.fields().get(".kv.stray")).isEmpty();
    }

    @Test
    void templateInputIsParsed() throws Exception {
        LogEvent e = parse(parser("template: \"host=${HOST} prog=${PROGRAM}\""), "no pairs here");
        assertThat(fields(e)).containsExactly(entry("host", "host1"), entry("prog", "app"));
    }

    @Test
    void inputWithoutPairsIsNotAFailure() throws Exception {
        LogEvent e = parse(parser(), "Linux version 4.6.3 (gcc version 5.4.0) #201606241434 SMP");
        assertThat(e.fields().size()).isZero();
        assertThat(e.hasTag(FAILED)).isFalse();
        assertThat(metrics.value("parsed")).isEqualTo(1);
    }

    @Test
    void unbalancedQuoteKeepsTheRawRestAsValueAndTheMessageIntact() throws Exception {
        String text = "user=alice msg=\"unterminated quote, id=42 end";
        LogEvent e = parse(parser(), text);
        assertThat(fields(e)).containsExactly(
                entry("user", "alice"),
                entry("msg", "\"unterminated quote, id=42 end"),
                entry("id", "42 end"));
        assertThat(msg(e)).isEqualTo(text);
        // like syslog-ng's kv-parser, this is not a failure: nothing is tagged or counted as failed
        assertThat(e.hasTag(FAILED)).isFalse();
        assertThat(metrics.value("failed")).isZero();
        assertThat(metrics.value("parsed")).isEqualTo(1);
    }

    @Test
    void singleQuoteAtTheEndAndBackslashAtTheEnd() throws Exception {
        assertThat(fields(parse(parser(), "a='x\\"))).containsExactly(entry("a", "'x\\"));
        assertThat(fields(parse(parser(), "a=\"x\" b='"))).containsExactly(entry("a", "x"), entry("b", "'"));
    }

    @Test
    void defaultsComeFromTheOptionDeclarations() throws Exception {
        assertThat(loadStep("type: kv")).isEqualTo(new KvParserConfig(null, "", "${MSG}", "=", ", ", null));
    }

    @Test
    void badOptionsAreRejectedWithTheirName() {
        assertThatThrownBy(() -> loadStep("type: kv", "value-separator: \"==\""))
                .isInstanceOf(ConfigException.class).hasMessageContaining("value-separator");
        assertThatThrownBy(() -> loadStep("type: kv", "value-separator: \" \""))
                .isInstanceOf(ConfigException.class).hasMessageContaining("value-separator");
        assertThatThrownBy(() -> loadStep("type: kv", "value-separator: \"\u00e9\""))
                .isInstanceOf(ConfigException.class).hasMessageContaining("ASCII");
        assertThatThrownBy(() -> loadStep("type: kv", "pair-separator: \"\""))
                .isInstanceOf(ConfigException.class).hasMessageContaining("pair-separator");
        assertThatThrownBy(() -> loadStep("type: kv", "stray-words-value-name: \"\""))
                .isInstanceOf(ConfigException.class).hasMessageContaining("stray-words-value-name");
    }

    @Test
    void warmParserAllocatesNothingPerMessage() throws Exception {
        EventParser p = parser("prefix: .kv.", "stray-words-value-name: stray");
        byte[] frame = (MessageParserFixture.HEADER + "word fw=10.0.0.1 msg=\"Connection \\\"opened\\\"\" n=16351 "
                + "src=10.0.5.200:57719:X0 dst=71.250.0.14:53:X1 proto=udp/dns sent=66")
                .getBytes(StandardCharsets.US_ASCII);
        LogEvent e = MessageParserFixture.syslogEvent(frame);
        long allocated = allocatedBytes(p, e, 20_000, 3_000);
        assertThat(e.fields().get(".kv.msg")).isEqualTo("Connection \"opened\"");
        assertThat(e.fields().get("stray")).isEqualTo("word");
        assertThat(allocated).isLessThan(3_000);
    }
}
