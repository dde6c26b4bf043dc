package dev.logrouter.core.parse.xml;

import static dev.logrouter.core.parse.MessageParserFixture.context;
import static dev.logrouter.core.parse.MessageParserFixture.loadStep;
import static dev.logrouter.core.parse.MessageParserFixture.msg;
import static dev.logrouter.core.parse.MessageParserFixture.syslogEvent;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class XmlParserTest {

    private static final int FAILED = Tags.id(".parse.xml.failed");

    private final MetricGroup metrics = new MetricGroup("Parser", "test.xml");

    private EventParser parser(XmlParserConfig cfg) {
        return cfg.create(context("xml", metrics));
    }

    private static XmlParserConfig cfg(String prefix, boolean strip, List<String> exclude, int maxDepth,
                                       boolean dropInvalid) {
        return new XmlParserConfig(null, prefix, "${MSG}", strip, exclude, maxDepth, dropInvalid);
    }

    /** A real RFC 5424 line with {@code msg} as its MSG, header parsed. */
    private static LogEvent event(String msg) {
        return syslogEvent("<134>1 2024-05-01T12:34:56.789Z dc01 winlog 4242 ID47 - ", msg);
    }

    private LogEvent parse(XmlParserConfig cfg, String msg) {
        LogEvent e = event(msg);
        parser(cfg).parse(e);
        return e;
    }

    private LogEvent parse(String msg) {
        return parse(XmlParserConfig.defaults(), msg);
    }

    private void assertFailed(LogEvent e, String msg, long failures) {
        assertThat(e.hasTag(FAILED)).as("tagged").isTrue();
        assertThat(e.fields().size()).as("fields rolled back").isZero();
        assertThat(msg(e)).isEqualTo(msg);
        assertThat(metrics.value("failed")).isEqualTo(failures);
    }

    @Test
    void elementTextAndAttributesBecomeDottedFields() {
        LogEvent e = parse("<event id=\"4625\"><system><computer>dc01.corp</computer><level>2</level></system>"
                + "<data><user domain=\"CORP\">jdoe</user></data></event>");
        FieldTable f = e.fields();
        assertThat(f.get(".xml.event._id")).isEqualTo("4625");
        assertThat(f.get(".xml.event.system.computer")).isEqualTo("dc01.corp");
        assertThat(f.get(".xml.event.system.level")).isEqualTo("2");
        assertThat(f.get(".xml.event.data.user")).isEqualTo("jdoe");
        assertThat(f.get(".xml.event.data.user._domain")).isEqualTo("CORP");
        assertThat(f.get(".xml.event")).as("an element without own text writes nothing").isNull();
        assertThat(f.size()).isEqualTo(5);
        assertThat(e.hasTag(FAILED)).isFalse();
        assertThat(metrics.value("parsed")).isEqualTo(1);
        assertThat(metrics.value("failed")).isZero();
    }

    @Test
    void syslogNgTestCases() {
        assertThat(parse("<tag1>value1</tag1>").fields().get(".xml.tag1")).isEqualTo("value1");
        assertThat(parse("<tag1 attr='attr_value'>value1</tag1>").fields().get(".xml.tag1._attr"))
                .isEqualTo("attr_value");
        assertThat(parse("<tag1><tag2>value2</tag2></tag1>").fields().get(".xml.tag1.tag2")).isEqualTo("value2");
        assertThat(parse("<tag1>part1<tag2>value2</tag2>part2</tag1>").fields().get(".xml.tag1"))
                .isEqualTo("part1part2");
        LogEvent e = parse("<tag1><tag11></tag11><tag12><tag121 attr1='1' attr2='2'>value</tag121></tag12></tag1>");
        assertThat(e.fields().get(".xml.tag1.tag12.tag121")).isEqualTo("value");
        assertThat(e.fields().get(".xml.tag1.tag12.tag121._attr1")).isEqualTo("1");
        assertThat(e.fields().get(".xml.tag1.tag12.tag121._attr2")).isEqualTo("2");
    }

    @Test
    void repeatedElementsConcatenateInDocumentOrder() {
        LogEvent e = parse("<list><item>a</item><item>b</item><item>c</item></list>");
        assertThat(e.fields().get(".xml.list.item")).isEqualTo("abc");
    }

    @Test
    void whitespaceIsKeptUnlessStripped() {
        String doc = "<a>\n  <b> x y </b>\n</a>";
        LogEvent kept = parse(doc);
        assertThat(kept.fields().get(".xml.a")).isEqualTo("\n  \n");
        assertThat(kept.fields().get(".xml.a.b")).isEqualTo(" x y ");
        LogEvent stripped = parse(cfg(".xml.", true, List.of(), 32, false), doc);
        assertThat(stripped.fields().get(".xml.a")).isNull();
        assertThat(stripped.fields().get(".xml.a.b")).isEqualTo("x y");
        assertThat(parse(cfg(".xml.", true, List.of(), 32, false), "<a> one <b/> two </a>").fields().get(".xml.a"))
                .isEqualTo("onetwo");
    }

    @Test
    void entitiesCdataCommentsAndUtf8() {
        LogEvent e = parse("<?xml version=\"1.0\" encoding=\"UTF-8\"?><m a=\"&lt;&amp;&quot;\">caf\u00e9 &#x263A; "
                + "<![CDATA[<raw>]]><!-- note --><?pi data?>&gt;</m>");
        assertThat(e.fields().get(".xml.m")).isEqualTo("caf\u00e9 \u263a <raw>>");
        assertThat(e.fields().get(".xml.m._a")).isEqualTo("<&\"");
    }

    @Test
    void severalTopLevelElementsAndPrefixedNamesAsInGlibMarkup() {
        LogEvent e = parse("<a>1</a><b x='y'>2</b> <ns:c xmlns:ns='urn:x'>3</ns:c>");
        assertThat(e.fields().get(".xml.a")).isEqualTo("1");
        assertThat(e.fields().get(".xml.b")).isEqualTo("2");
        assertThat(e.fields().get(".xml.b._x")).isEqualTo("y");
        assertThat(e.fields().get(".xml.ns:c")).isEqualTo("3");
        assertThat(e.fields().get(".xml.ns:c._xmlns:ns")).isEqualTo("urn:x");
    }

    @Test
    void prefixIsJoinedWithADot() {
        assertThat(parse(cfg(".win", false, List.of(), 32, false), "<e><c>1</c></e>").fields().get(".win.e.c"))
                .isEqualTo("1");
        assertThat(parse(cfg("", false, List.of(), 32, false), "<e><c>1</c></e>").fields().get("e.c"))
                .isEqualTo("1");
    }

    @Test
    void excludedTagsSkipTheirWholeSubtree() {
        XmlParserConfig c = cfg(".xml.", false, List.of("tag1", "tag2", "inner*"), 32, false);
        LogEvent e = parse(c, "<tag1>Text1</tag1><tag2>Text2</tag2><tag3>Text3<innertag a='1'>TextInner<x>y</x>"
                + "</innertag></tag3>");
        assertThat(e.fields().get(".xml.tag3")).isEqualTo("Text3");
        assertThat(e.fields().size()).isEqualTo(1);
        LogEvent q = parse(cfg(".xml.", false, List.of("lon?ta?"), 32, false), "<longtag>T</longtag><long>U</long>");
        assertThat(q.fields().get(".xml.longtag")).isNull();
        assertThat(q.fields().get(".xml.long")).isEqualTo("U");
        LogEvent u = parse(cfg(".xml.", false, List.of("caf?"), 32, false), "<caf\u00e9>T</caf\u00e9><cafe1>U</cafe1>");
        assertThat(u.fields().get(".xml.caf\u00e9")).as("? is one character, not one byte").isNull();
        assertThat(u.fields().get(".xml.cafe1")).isEqualTo("U");
    }

    @ParameterizedTest
    @ValueSource(strings = {"simple string", "<tag></missingtag>", "<tag></tag></extraclosetag>", "<tag><tag></tag>",
            "<tag1><tag2>closewrongorder</tag1></tag2>", "<tag id=\"missingquote></tag>",
            "<tag id='missingquote></tag>", "<tag id=missingquote\"></tag>", "<space in tag/>", "</>",
            "<tag></tag>>", "<tag>", "<a>&undeclared;</a>", "text<a/>", "<a/>text", "<?xml version='1.0'"})
    void malformedXmlFailsAndKeepsTheMessage(String doc) {
        LogEvent e = parse(doc);
        assertFailed(e, doc, 1);
        assertThat(metrics.value("parsed")).isZero();
        assertThat(e.hasFlag(LogEvent.FLAG_DISCARD)).isFalse();
    }

    @Test
    void dropInvalidAlsoDiscardsTheMessage() {
        LogEvent e = parse(cfg(".xml.", false, List.of(), 32, true), "<tag>");
        assertFailed(e, "<tag>", 1);
        assertThat(e.hasFlag(LogEvent.FLAG_DISCARD)).isTrue();
        LogEvent ok = parse(cfg(".xml.", false, List.of(), 32, true), "<tag>x</tag>");
        assertThat(ok.hasFlag(LogEvent.FLAG_DISCARD)).isFalse();
        assertThat(ok.fields().get(".xml.tag")).isEqualTo("x");
    }

    @Test
    void depthBeyondMaxDepthFails() {
        XmlParserConfig c = cfg(".xml.", false, List.of(), 3, false);
        assertThat(parse(c, "<a><b><c>3</c></b></a>").fields().get(".xml.a.b.c")).isEqualTo("3");
        String deep = "<a><b><c><d>4</d></c></b></a>";
        assertFailed(parse(c, deep), deep, 1);
        String thousand = "<a>".repeat(1000) + "</a>".repeat(1000);
        assertFailed(parse(thousand), thousand, 2);
    }

    @Test
    void externalEntityIsNeverResolved() throws Exception {
        Path secret = Files.createTempFile("xxe", ".txt");
        try {
            Files.writeString(secret, "TOP-SECRET-CONTENT");
            for (String target : List.of("file:///etc/passwd", secret.toUri().toString())) {
                String doc = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY xxe SYSTEM \"" + target + "\">]>"
                        + "<r>&xxe;</r>";
                LogEvent e = parse(doc);
                assertThat(e.hasTag(FAILED)).isTrue();
                assertThat(msg(e)).isEqualTo(doc);
                for (int i = 0; i < e.fields().size(); i++) {
                    assertThat(e.fields().value(i)).doesNotContain("root:").doesNotContain("TOP-SECRET");
                }
            }
            // the same entity used in an attribute, and a parameter entity
            String attr = "<!DOCTYPE r [<!ENTITY xxe SYSTEM \"" + secret.toUri() + "\">]><r a=\"&xxe;\"/>";
            assertThat(parse(attr).hasTag(FAILED)).isTrue();
            String param = "<!DOCTYPE r [<!ENTITY % p SYSTEM \"" + secret.toUri() + "\"> %p;]><r>x</r>";
            LogEvent pe = parse(param);
            assertThat(pe.hasTag(FAILED)).isTrue();
            assertThat(pe.fields().size()).isZero();
            assertThat(metrics.value("failed")).isEqualTo(4);
        } finally {
            Files.delete(secret);
        }
    }

    @Test
    void billionLaughsFailsFast() {
        StringBuilder dtd = new StringBuilder("<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">");
        for (int i = 1; i <= 9; i++) {
            dtd.append("<!ENTITY lol").append(i).append(" \"");
            dtd.append(("&lol" + (i == 1 ? "" : String.valueOf(i - 1)) + ";").repeat(10)).append("\">");
        }
        String doc = dtd + "]><lolz>&lol9;</lolz>";
        EventParser p = parser(XmlParserConfig.defaults());
        for (int i = 0; i < 1000; i++) {
            LogEvent e = event(doc);
            p.parse(e);
            assertThat(e.hasTag(FAILED)).isTrue();
            assertThat(e.fields().size()).isZero();
            assertThat(msg(e)).isEqualTo(doc);
        }
        // 1000 documents in well under a test timeout; an expanding parser would need 3 GB per document
        assertThat(metrics.value("failed")).isEqualTo(1000);
    }

    @Test
    void aFailureKeepsFieldsOfEarlierParsersAndAnInstanceIsReusable() {
        EventParser p = parser(XmlParserConfig.defaults());
        LogEvent e = event("<a><b>1</b><c>");
        e.fields().set(".xml.a.b", "earlier");
        p.parse(e);
        assertThat(e.fields().get(".xml.a.b")).isEqualTo("earlier");
        assertThat(e.fields().size()).isEqualTo(1);
        LogEvent next = event("<a><b>2</b></a>");
        p.parse(next);
        assertThat(next.fields().get(".xml.a.b")).isEqualTo("2");
        assertThat(metrics.value("parsed")).isEqualTo(1);
        assertThat(metrics.value("failed")).isEqualTo(1);
    }

    @Test
    void templateInputParsesThatInstead() {
        XmlParserConfig c = new XmlParserConfig(null, ".x.", "<h>${HOST}</h>", false, List.of(), 32, false);
        LogEvent e = parse(c, "not xml at all");
        assertThat(e.fields().get(".x.h")).isEqualTo("dc01");
    }

    @Test
    void optionsAreCheckedAndDefaultedFromYaml() throws Exception {
        assertThatThrownBy(() -> cfg(".xml.", false, List.of(), 0, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max-depth");
        assertThat(loadStep("type: xml", "exclude-tags: ['Binary*']")).isEqualTo(new XmlParserConfig(null, ".xml.", "${MSG}", false, List.of("Binary*"), 32, false));
    }

    @Test
    void oneReaderReadsMessageAfterMessageAndEveryTruncationFails() {
        EventParser p = parser(XmlParserConfig.defaults());
        String[] bad = {"<a/><!--_--><![CDATA[", "<a/><!--_", "<a x='1", "<a/><!--", "<a/><?pi", "<a/>&amp",
                "<a/><b", "<a/><!--_--></_>", "<a/>&undeclared;<!--_-->"};
        for (String doc : bad) {
            LogEvent e = event(doc);
            p.parse(e);
            assertThat(e.hasTag(FAILED)).as(doc).isTrue();
            LogEvent next = event("<a><b k=\"v\">1</b></a>");
            p.parse(next);
            assertThat(next.hasTag(FAILED)).as("after " + doc).isFalse();
            assertThat(next.fields().get(".xml.a.b")).isEqualTo("1");
            assertThat(next.fields().get(".xml.a.b._k")).isEqualTo("v");
        }
        LogEvent own = event("<a>1</a><!--_-->");
        p.parse(own);
        assertThat(own.fields().get(".xml.a")).isEqualTo("1");
        assertThat(metrics.value("failed")).isEqualTo(bad.length);
        // well past the input after which the reader is renewed
        for (int i = 0; i < 2 * XmlParser.RENEW_AFTER_BYTES / 40; i++) {
            LogEvent e = event("<e" + (i % 5000) + " a='" + i + "'>x</e" + (i % 5000) + ">");
            p.parse(e);
            assertThat(e.fields().get(".xml.e" + (i % 5000) + "._a")).isEqualTo(String.valueOf(i));
        }
    }

    @Test
    void attributeValuesKeepTheirWhitespaceAndEmptyValues() {
        EventParser p = parser(XmlParserConfig.defaults());
        String[][] cases = {{" lead", "trail ", " both "}, {"", " ", "x"}, {"a b", "&#9;t", "c&#32;"},
                {"v", "w", "last "}, {"1", "2", "3"}};
        for (String[] v : cases) {
            LogEvent e = event("<n a='" + v[0] + "' b=\"" + v[1] + "\" c='" + v[2] + "'/>");
            p.parse(e);
            assertThat(e.fields().get(".xml.n._a")).isEqualTo(v[0].replace("&#9;", "\t").replace("&#32;", " "));
            assertThat(e.fields().get(".xml.n._b")).isEqualTo(v[1].replace("&#9;", "\t").replace("&#32;", " "));
            assertThat(e.fields().get(".xml.n._c")).isEqualTo(v[2].replace("&#9;", "\t").replace("&#32;", " "));
        }
    }

    @Test
    void namesAreNamesWithoutNamespaces() {
        LogEvent e = parse("<Event xmlns='http://schemas.microsoft.com/win/2004/08/events/event'><p:x q:y='1'>2</p:x>"
                + "</Event>");
        assertThat(e.fields().get(".xml.Event._xmlns")).isEqualTo("http://schemas.microsoft.com/win/2004/08/events/event");
        assertThat(e.fields().get(".xml.Event.p:x")).isEqualTo("2");
        assertThat(e.fields().get(".xml.Event.p:x._q:y")).isEqualTo("1");
    }

    @Test
    void malformedUtf8AndUncheckedTextInExcludedElementsFail() {
        byte[] raw = "<134>1 2024-05-01T12:34:56.789Z dc01 winlog 4242 ID47 - <a\u00e9/>".getBytes(StandardCharsets.UTF_8);
        raw[raw.length - 3] = (byte) 0xFF; // the second byte of é
        LogEvent e = new LogEvent();
        e.setRaw(raw, 0, raw.length);
        new SyslogHeaderParser(ZoneOffset.UTC).parse(e);
        parser(XmlParserConfig.defaults()).parse(e);
        assertThat(e.hasTag(FAILED)).isTrue();
        XmlParserConfig c = cfg(".xml.", false, List.of("skip"), 32, false);
        assertThat(parse(c, "<a><skip>&undeclared;</skip></a>").hasTag(FAILED)).isTrue();
        assertThat(parse(c, "<a><skip><!-- a -- b --></skip></a>").hasTag(FAILED)).isTrue();
        assertThat(parse(c, "<a><skip><b><c/></b></skip>x</a>").fields().get(".xml.a")).isEqualTo("x");
        XmlParserConfig shallow = cfg(".xml.", false, List.of("skip"), 2, false);
        assertThat(parse(shallow, "<a><skip><b/></skip></a>").hasTag(FAILED)).as("depth counts in excluded").isTrue();
    }
}
