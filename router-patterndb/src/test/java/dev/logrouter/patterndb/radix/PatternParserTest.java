package dev.logrouter.patterndb.radix;

import dev.logrouter.core.metrics.Counter;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every parser on the examples of spec section 5 (value and where the rest of the text continues). */
class PatternParserTest {

    private final RadixScratch scratch = new RadixScratch();

    /** Runs {@code @body@} on {@code input}: "value|rest", or null when the parser fails. */
    private String run(String body, String input) throws PatternException {
        PatternParser p = PatternParser.compile(body, name -> 0, 0, new Counter());
        byte[] b = input.getBytes(StandardCharsets.UTF_8);
        scratch.inputStart = 0;
        int n = p.parse(b, 0, b.length, scratch);
        if (n < 0) {
            return null;
        }
        String value = new String(b, scratch.valueStart, scratch.valueLength, StandardCharsets.UTF_8);
        return value + "|" + new String(b, n, b.length - n, StandardCharsets.UTF_8);
    }

    @Test
    void string() throws Exception {
        assertThat(run("STRING:v", "foo123_x")).isEqualTo("foo123|_x");
        assertThat(run("STRING:v:._-", "a.b_c-d e")).isEqualTo("a.b_c-d| e");
        assertThat(run("STRING:v", "_x")).isNull();
        assertThat(run("STRING:v", "é")).isNull();
        assertThat(run("STRING:v::/", "a:/b c")).isEqualTo("a:/b| c");
    }

    @Test
    void estring() throws Exception {
        assertThat(run("ESTRING:v: ", "foo bar")).isEqualTo("foo|bar");
        assertThat(run("ESTRING:v: ", " lead")).isEqualTo("|lead");
        assertThat(run("ESTRING:v:--", "a---b")).isEqualTo("a|-b");
        assertThat(run("ESTRING:v: ", "word")).isNull();
        assertThatThrownBy(() -> run("ESTRING:v", "x")).hasMessageContaining("Missing ESTRING parser parameters");
    }

    @Test
    void qstring() throws Exception {
        assertThat(run("QSTRING:v:\"", "\"a\\\"b\" c")).isEqualTo("a\\|b\" c");
        assertThat(run("QSTRING:v:[]", "[a [b] c]")).isEqualTo("a [b| c]");
        assertThat(run("QSTRING:v:\"", "\"\"x")).isEqualTo("|x");
        assertThat(run("QSTRING:v:\"", "\"open")).isNull();
        assertThat(run("QSTRING:v:\"", "x\"a\"")).isNull();
        // 3+ chars: opens and closes on the first char (quirk 5)
        assertThat(run("QSTRING:v:<>>", "<a<b>")).isEqualTo("a|b>");
        assertThat(run("QSTRINGxyz:v:'", "'q'")).isEqualTo("q|");
        assertThatThrownBy(() -> run("QSTRING:v", "x")).hasMessageContaining("Missing QSTRING");
    }

    @Test
    void number() throws Exception {
        assertThat(run("NUMBER:v", "1.5")).isEqualTo("1|.5");
        assertThat(run("NUMBER:v", "-0x1F")).isEqualTo("-0|x1F");
        assertThat(run("NUMBER:v", "0x1Fg")).isEqualTo("0x1F|g");
        assertThat(run("NUMBER:v", "0x")).isNull();
        assertThat(run("NUMBER:v", "99999999999999999999")).isEqualTo("99999999999999999999|");
        assertThat(run("NUMBER:v", "007")).isEqualTo("007|");
        assertThat(run("NUMBER:v", "+1")).isNull();
        assertThat(run("NUMBER:v", "-")).isNull();
    }

    @Test
    void floats() throws Exception {
        assertThat(run("FLOAT:v", ".5")).isEqualTo(".5|");
        assertThat(run("FLOAT:v", "12345.")).isEqualTo("12345.|");
        assertThat(run("FLOAT:v", "1e")).isEqualTo("1e|");
        assertThat(run("FLOAT:v", "1e-")).isEqualTo("1e-|");
        assertThat(run("FLOAT:v", "-")).isEqualTo("-|");
        assertThat(run("FLOAT:v", ".")).isEqualTo(".|");
        assertThat(run("FLOAT:v", "1.2.3")).isEqualTo("1.2|.3");
        assertThat(run("FLOAT:v", "+1.5")).isNull();
        assertThat(run("DOUBLE:v", "-2.5e10x")).isEqualTo("-2.5e10|x");
        assertThat(run("FLOAT:v", "e5")).isNull();
    }

    @Test
    void ipv4() throws Exception {
        assertThat(run("IPv4:v", "01.002.3.4")).isEqualTo("01.002.3.4|");
        assertThat(run("IPv4:v", "192.168.1.1.2")).isEqualTo("192.168.1.1|.2");
        assertThat(run("IPv4:v", "1.2.3.256")).isNull();
        assertThat(run("IPv4:v", "1.2.3")).isNull();
        assertThat(run("IPv4:v", "1..3.4")).isNull();
        assertThat(run("IPv4:v", "192.168.1.1huhu")).isEqualTo("192.168.1.1|huhu");
    }

    @Test
    void ipv6() throws Exception {
        assertThat(run("IPv6:v", "::0: ")).isEqualTo("::0|: ");
        assertThat(run("IPv6:v", "1:2:3:4:5:6:7")).isNull();
        assertThat(run("IPv6:v", "1:2:3:4:5:6:7:8:9")).isEqualTo("1:2:3:4:5:6:7:8|:9");
        assertThat(run("IPv6:v", "fe80::1%eth0")).isEqualTo("fe80::1|%eth0");
        assertThat(run("IPv6:v", "2001:db8::34d2::1")).isNull();
        assertThat(run("IPv6:v", "::")).isEqualTo("::|");
        assertThat(run("IPv6:v", "::1")).isEqualTo("::1|");
        assertThat(run("IPv6:v", "::ffff:1.2.3.4")).isEqualTo("::ffff:1.2.3.4|");
        assertThat(run("IPv6:v", "1.2.3.4")).isNull();
        assertThat(run("IPv6:v", "12345::1")).isNull();
        assertThat(run("IPv6:v", "2001:db8::1.")).isEqualTo("2001:db8::1|.");
    }

    @Test
    void ipvany() throws Exception {
        assertThat(run("IPvANY:v", "10.0.0.1 x")).isEqualTo("10.0.0.1| x");
        assertThat(run("IPvANY:v", "2001:db8::1]")).isEqualTo("2001:db8::1|]");
        assertThat(run("IPvANY:v", "x")).isNull();
    }

    @Test
    void macaddrAndLladdr() throws Exception {
        assertThat(run("MACADDR:v", "00:11:22:33:44:55 x")).isEqualTo("00:11:22:33:44:55| x");
        assertThat(run("MACADDR:v", "00:11:22")).isEqualTo("00:11:22|");
        assertThat(run("MACADDR:v", "00-11-22-33-44-55")).isEqualTo("00|-11-22-33-44-55");
        assertThat(run("MACADDR:v", "00:11:22:33:44:5")).isEqualTo("00:11:22:33:44|:5");
        assertThat(run("MACADDR:v", "00:11:22:33:44:55:66")).isEqualTo("00:11:22:33:44:55|:66");
        assertThat(run("MACADDR:v", "0:11")).isNull();
        assertThat(run("LLADDR:v:3", "aa:bb:cc:dd")).isEqualTo("aa:bb:cc|:dd");
        assertThat(run("LLADDR:v", "aa:bb:cc:dd")).isEqualTo("aa:bb:cc:dd|");
    }

    @Test
    void email() throws Exception {
        assertThat(run("EMAIL:v", "a@b")).isNull();
        assertThat(run("EMAIL:v", "a@b.c x")).isEqualTo("a@b.c| x");
        assertThat(run("EMAIL:v", "a@b.c.")).isEqualTo("a@b.c.|");
        assertThat(run("EMAIL:v:[<]>", "<user@example.com> x")).isEqualTo("user@example.com| x");
        assertThat(run("EMAIL:v:<>", "<<user@example.com x")).isEqualTo("user@example.com| x");
        assertThat(run("EMAIL:v", ".a@b.c")).isNull();
        assertThat(run("EMAIL:v", "a.@b.c")).isNull();
        assertThat(run("EMAIL:v", "first.last+tag@sub.example.org")).isEqualTo("first.last+tag@sub.example.org|");
    }

    @Test
    void hostname() throws Exception {
        assertThat(run("HOSTNAME:v", "localhost")).isNull();
        assertThat(run("HOSTNAME:v", "1.2.3.4")).isEqualTo("1.2.3.4|");
        assertThat(run("HOSTNAME:v", "-a.b")).isEqualTo("-a.b|");
        assertThat(run("HOSTNAME:v", "a..b")).isNull();
        assertThat(run("HOSTNAME:v", "a_b.c")).isNull();
        assertThat(run("HOSTNAME:v", "www.example.com. x")).isEqualTo("www.example.com.| x");
    }

    @Test
    void anystring() throws Exception {
        assertThat(run("ANYSTRING:v", "all of it")).isEqualTo("all of it|");
    }

    @Test
    void nlstring() throws Exception {
        assertThat(run("NLSTRING:v", "line\r\nnext")).isEqualTo("line|\r\nnext");
        assertThat(run("NLSTRING:v", "line\nnext")).isEqualTo("line|\nnext");
        assertThat(run("NLSTRING:v", "\nrest")).isEqualTo("|\nrest");
        assertThat(run("NLSTRING:v", "no newline")).isNull();
        assertThatThrownBy(() -> run("NLSTRING:v:x", "a\n")).hasMessageContaining("NLSTRING");
    }

    @Test
    void sets() throws Exception {
        assertThat(run("SET:v:abc", "abcabx")).isEqualTo("abcab|x");
        assertThat(run("SET:v:abc", "xabc")).isNull();
        assertThat(run("OPTIONALSET:v:abc", "xabc")).isEqualTo("|xabc");
        assertThat(run("OPTIONALSET:v: ", "  x")).isEqualTo("  |x");
        assertThatThrownBy(() -> run("SET:v", "a")).hasMessageContaining("Missing SET");
        assertThatThrownBy(() -> run("OPTIONALSET:v", "a")).hasMessageContaining("Missing OPTIONALSET");
    }

    @Test
    void pcre() throws Exception {
        assertThat(run("PCRE:v:(a|ab)", "abc")).isEqualTo("a|bc");
        assertThat(run("PCRE:v:[0-9]+:[0-9]+", "12:34 x")).isEqualTo("12:34| x");
        assertThat(run("PCRE:v:[0-9]+", "x12")).isNull();
        assertThat(run("PCRE:v:x*", "abc")).isEqualTo("|abc");
        assertThatThrownBy(() -> run("PCRE:v:(", "a")).hasMessageContaining("Error while compiling regular expression");
        assertThatThrownBy(() -> run("PCRE:v", "a")).hasMessageContaining("Missing regular expression");
    }

    @Test
    void pcreWorksOnBytes() throws Exception {
        // "é" is two bytes; "." matches one byte as PCRE without UTF-8 mode does
        assertThat(run("PCRE:v:..", "éx")).isEqualTo("é|x");
        assertThat(run("PCRE:v:é", "éx")).isEqualTo("é|x");
    }

    @Test
    void pathologicalPcreIsAbandonedAndCounted() throws Exception {
        Counter budget = new Counter();
        PatternParser p = PatternParser.compile("PCRE:v:((a+)+)+$", name -> 0, 0, budget);
        byte[] b = ("a".repeat(40) + "!").getBytes(StandardCharsets.US_ASCII);
        assertThat(p.parse(b, 0, b.length, scratch)).isEqualTo(-1);
        assertThat(budget.get()).isEqualTo(1);
    }

    @Test
    void firstCharacterGates() throws Exception {
        // NUMBER and FLOAT only start in '-'..'9', IPv4 in '0'..'9', QSTRING on its opening quote
        assertThat(run("NUMBER:v", "a1")).isNull();
        assertThat(run("IPv4:v", "-1.2.3.4")).isNull();
    }

    @Test
    void unknownType() {
        assertThatThrownBy(() -> run("WORD:v", "x")).hasMessageContaining("Unknown parser type specified");
        assertThatThrownBy(() -> run("string:v", "x")).hasMessageContaining("Unknown parser type specified");
    }
}
