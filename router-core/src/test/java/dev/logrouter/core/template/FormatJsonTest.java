package dev.logrouter.core.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code $(format-json)} on events parsed from real syslog lines by the real header parser, against the
 * outputs syslog-ng 3.38 gives for the same options (its {@code modules/json/tests/test_format_json.c}
 * cases, re-created on our events): scopes, key order, nesting at dots, the leading dot, globs, pairs,
 * rekeying and string escaping. Every output is also checked to be valid JSON.
 */
class FormatJsonTest {

    private static final long RECEIVED = Instant.parse("2026-11-22T06:14:00.123Z").toEpochMilli();
    private static final String BSD = "<34>Oct 11 22:14:15 mymachine su[123]: 'su root' failed";
    private static final String IETF = "<165>1 2003-10-11T22:14:15.000003-07:00 mymachine.example.com evntslog 77 ID47 "
            + "[exampleSDID@32473 iut=\"3\" eventSource=\"Application\"][origin ip=\"10.0.0.1\"] An application event";

    private static final ObjectMapper JSON = new ObjectMapper();

    static LogEvent parsed(byte[] raw, byte hint) {
        LogEvent e = new LogEvent();
        e.clear();
        e.setRaw(raw, 0, raw.length);
        byte[] peer = "192.0.2.7".getBytes(StandardCharsets.US_ASCII);
        e.setPeer(peer, 0, peer.length);
        e.setSource(1, "net-in".getBytes(StandardCharsets.US_ASCII), hint, 1L);
        e.setReceivedMillis(RECEIVED);
        new SyslogHeaderParser(ZoneOffset.UTC).parse(e);
        assertThat(e.hasFlag(LogEvent.FLAG_PARSE_ERROR)).isFalse();
        return e;
    }

    static LogEvent bsd(String line) {
        return parsed(line.getBytes(StandardCharsets.UTF_8), LogEvent.FORMAT_RFC3164);
    }

    static LogEvent ietf(String line) {
        return parsed(line.getBytes(StandardCharsets.UTF_8), LogEvent.FORMAT_RFC5424);
    }

    private static String render(String template, LogEvent e) throws Exception {
        ByteBuilder out = new ByteBuilder(16);
        Template.compile(template, ZoneOffset.UTC).render(e, out);
        String s = out.toString();
        if (s.startsWith("{")) {
            JSON.readTree(s); // must be valid JSON
        }
        return s;
    }

    // ------------------------------------------------------------------ scopes

    @Test
    void oneTemplateRenderingEventsWithChangingNamesPrintsWhatAFreshOnePrints() throws Exception {
        // the sort of the names is skipped while they repeat: events alternate between name sets, one of them with
        // the same count and name lengths as another but other bytes, and duplicate names that must resolve again
        String tpl = "$(format-json --scope rfc5424 --scope nv-pairs --pair x=${PROGRAM} --pair y=$HOST)";
        Template reused = Template.compile(tpl, ZoneOffset.UTC);
        LogEvent[] events = {
            ietf(IETF),
            ietf("<13>1 2026-11-22T10:00:00Z h app - - [a b=\"1\" c=\"2\"] m"),
            ietf("<13>1 2026-11-22T10:00:00Z h app - - [a b=\"1\" d=\"2\"] m"),
            ietf("<13>1 2026-11-22T10:00:00Z h app - - [a d=\"1\" b=\"2\"] m"),
            ietf("<13>1 2026-11-22T10:00:00Z h app - - [a b=\"1\" c=\"2\"] m"),
            bsd(BSD),
            ietf(IETF),
        };
        events[4].fields().set("x", "from the table"); // then the pair x=${PROGRAM}: the later one wins
        for (LogEvent e : events) {
            ByteBuilder out = new ByteBuilder(16);
            reused.render(e, out);
            assertThat(out.toString()).isEqualTo(render(tpl, e));
        }
    }

    @Test
    void rfc3164ScopeHasTheLegacyHeaderInDescendingKeyOrder() throws Exception {
        assertThat(render("$(format-json --scope rfc3164)", bsd(BSD))).isEqualTo("{\"PROGRAM\":\"su\","
                + "\"PRIORITY\":\"crit\",\"PID\":\"123\",\"MESSAGE\":\"'su root' failed\",\"HOST\":\"mymachine\","
                + "\"FACILITY\":\"auth\",\"DATE\":\"Oct 11 22:14:15\"}");
        // core and base are synonyms; a scope given twice is the same scope
        assertThat(render("$(format-json --scope core,base)", bsd(BSD)))
                .isEqualTo(render("$(format-json --scope rfc3164)", bsd(BSD)));
    }

    @Test
    void emptyMacrosAreLeftOut() throws Exception {
        String out = render("$(format-json --scope rfc3164)", bsd("<13>Oct 11 22:14:15 host cron: no pid"));
        assertThat(out).doesNotContain("PID").contains("\"PROGRAM\":\"cron\"");
    }

    @Test
    void rfc5424ScopeAddsMsgidAndStructuredDataNestedUnderAnUnderscore() throws Exception {
        String out = render("$(format-json --scope rfc5424)", ietf(IETF));
        assertThat(out).isEqualTo("{\"_SDATA\":{\"origin\":{\"ip\":\"10.0.0.1\"},\"exampleSDID@32473\":"
                + "{\"iut\":\"3\",\"eventSource\":\"Application\"}},\"PROGRAM\":\"evntslog\",\"PRIORITY\":\"notice\","
                + "\"PID\":\"77\",\"MSGID\":\"ID47\",\"MESSAGE\":\"An application event\","
                + "\"HOST\":\"mymachine.example.com\",\"FACILITY\":\"local4\",\"DATE\":\"Oct 11 22:14:15\"}");
        assertThat(render("$(format-json --scope syslog-proto)", ietf(IETF))).isEqualTo(out);
    }

    @Test
    void nvPairsDotNvPairsAndSdataSelectFieldsByTheirName() throws Exception {
        LogEvent e = ietf(IETF);
        e.fields().set("app.user", "alice");
        e.fields().set(".json.level", "warn");
        assertThat(render("$(format-json --scope nv-pairs)", e)).isEqualTo("{\"app\":{\"user\":\"alice\"}}");
        assertThat(render("$(format-json --scope dot-nv-pairs)", e)).isEqualTo("{\"_json\":{\"level\":\"warn\"},"
                + "\"_SDATA\":{\"origin\":{\"ip\":\"10.0.0.1\"},\"exampleSDID@32473\":{\"iut\":\"3\","
                + "\"eventSource\":\"Application\"}}}");
        assertThat(render("$(format-json --scope sdata)", e)).isEqualTo("{\"_SDATA\":{\"origin\":"
                + "{\"ip\":\"10.0.0.1\"},\"exampleSDID@32473\":{\"iut\":\"3\",\"eventSource\":\"Application\"}}}");
        JsonNode all = JSON.readTree(render("$(format-json --scope all-nv-pairs)", e));
        assertThat(all.at("/app/user").asText()).isEqualTo("alice");
        assertThat(all.at("/_json/level").asText()).isEqualTo("warn");
        assertThat(all.has("HOST")).isFalse();
    }

    @Test
    void selectedMacrosAddTagsAndSourceIp() throws Exception {
        LogEvent e = bsd(BSD);
        e.addTag(Tags.id("alma"));
        e.addTag(Tags.id("korte"));
        JsonNode n = JSON.readTree(render("$(format-json --scope selected-macros)", e));
        assertThat(n.get("TAGS").asText()).isEqualTo("alma,korte");
        assertThat(n.get("SOURCEIP").asText()).isEqualTo("192.0.2.7");
        assertThat(n.get("HOST").asText()).isEqualTo("mymachine");
        assertThat(n.has("SEQNUM")).isFalse();
        assertThat(render("$(format-json --scope selected_macros)", e)).isEqualTo(n.toString());
    }

    @Test
    void everythingHasAllMacrosAndAllFields() throws Exception {
        LogEvent e = ietf(IETF);
        e.fields().set("app.user", "alice");
        JsonNode n = JSON.readTree(render("$(format-json --scope everything)", e));
        assertThat(n.get("ISODATE").asText()).isEqualTo("2003-10-11T22:14:15-07:00");
        assertThat(n.get("R_ISODATE").asText()).isEqualTo("2026-11-22T06:14:00+00:00");
        assertThat(n.get("PRI").asText()).isEqualTo("165");
        assertThat(n.get("MSG").asText()).isEqualTo("An application event");
        assertThat(n.at("/app/user").asText()).isEqualTo("alice");
        assertThat(n.at("/_SDATA/origin/ip").asText()).isEqualTo("10.0.0.1");
    }

    @Test
    void theIssuesJsonLinesExample() throws Exception {
        LogEvent e = ietf(IETF);
        e.fields().set("http.status", "200");
        JsonNode n = JSON.readTree(render("$(format-json --scope rfc5424 --scope nv-pairs)", e));
        assertThat(n.at("/http/status").asText()).isEqualTo("200");
        assertThat(n.get("MSGID").asText()).isEqualTo("ID47");
        assertThat(n.at("/_SDATA/exampleSDID@32473/iut").asText()).isEqualTo("3");
    }

    // ------------------------------------------------------------------ globs

    @Test
    void keyAddsMacrosAndFieldsByGlob() throws Exception {
        LogEvent e = bsd(BSD);
        assertThat(render("$(format-json --key PID)", e)).isEqualTo("{\"PID\":\"123\"}");
        assertThat(render("$(format-json --key HOST --key MESSAGE)", e))
                .isEqualTo("{\"MESSAGE\":\"'su root' failed\",\"HOST\":\"mymachine\"}");
        assertThat(render("$(format-json --key PRI)", e)).isEqualTo("{\"PRI\":\"34\"}");
        assertThat(render("$(format-json -k HOST,PID)", e)).isEqualTo("{\"PID\":\"123\",\"HOST\":\"mymachine\"}");
        e.fields().set("app.a", "1");
        e.fields().set("app.b", "2");
        e.fields().set("other", "3");
        assertThat(render("$(format-json --key app.*)", e)).isEqualTo("{\"app\":{\"b\":\"2\",\"a\":\"1\"}}");
        assertThat(render("$(format-json app.?)", e)).isEqualTo("{\"app\":{\"b\":\"2\",\"a\":\"1\"}}");
    }

    @Test
    void excludeRemovesAndTheLastMatchingGlobWins() throws Exception {
        LogEvent e = bsd(BSD);
        assertThat(render("$(format-json --scope rfc3164 --exclude P* --exclude DATE)", e))
                .isEqualTo("{\"MESSAGE\":\"'su root' failed\",\"HOST\":\"mymachine\",\"FACILITY\":\"auth\"}");
        assertThat(render("$(format-json --scope rfc3164 --exclude P* --key PID --exclude DATE,MESSAGE,FACILITY)", e))
                .isEqualTo("{\"PID\":\"123\",\"HOST\":\"mymachine\"}");
        e.fields().set(".SDATA.x.y", "1");
        e.fields().set("keep", "2");
        assertThat(render("$(format-json --scope all-nv-pairs --exclude .SDATA.*)", e)).isEqualTo("{\"keep\":\"2\"}");
    }

    // ------------------------------------------------------------------ pairs and names

    @Test
    void pairsNestAtDotsLikeSyslogNg() throws Exception {
        LogEvent e = bsd(BSD);
        assertThat(render("$(format-json msg.text=$MSG msg.id=42 host=${HOST})", e))
                .isEqualTo("{\"msg\":{\"text\":\"'su root' failed\",\"id\":\"42\"},\"host\":\"mymachine\"}");
        assertThat(render("$(format-json kernel.SUBSYSTEM=pci kernel.DEVICE.type=pci kernel.DEVICE.name=0000:02:00.0 "
                + "MSGID=801 MESSAGE=test)", e)).isEqualTo("{\"kernel\":{\"SUBSYSTEM\":\"pci\",\"DEVICE\":{\"type\":"
                + "\"pci\",\"name\":\"0000:02:00.0\"}},\"MSGID\":\"801\",\"MESSAGE\":\"test\"}");
        assertThat(render("$(format-json sdata.win@18372.4.fruit=pear sdata.win@18372.4.taste=good)", e))
                .isEqualTo("{\"sdata\":{\"win@18372.4\":{\"taste\":\"good\",\"fruit\":\"pear\"}}}");
        assertThat(render("$(format-json @program=${PROGRAM})", e)).isEqualTo("{\"@program\":\"su\"}");
        assertThat(render("$(format-json @program.123=${PROGRAM})", e)).isEqualTo("{\"@program\":{\"123\":\"su\"}}");
        assertThat(render("$(format-json @.program=${PROGRAM})", e)).isEqualTo("{\"@\":{\"program\":\"su\"}}");
        assertThat(render("$(format-json --pair p=$PID -p q=x)", e)).isEqualTo("{\"q\":\"x\",\"p\":\"123\"}");
    }

    @Test
    void aLeadingDotBecomesAnUnderscoreUnlessLeft() throws Exception {
        LogEvent e = bsd(BSD);
        assertThat(render("$(format-json .foo=bar)", e)).isEqualTo("{\"_foo\":\"bar\"}");
        assertThat(render("$(format-json .program.n@me=${PROGRAM})", e)).isEqualTo("{\"_program\":{\"n@me\":\"su\"}}");
        assertThat(render("$(format-json --leave-initial-dot .program.@name=${PROGRAM})", e))
                .isEqualTo("{\".program\":{\"@name\":\"su\"}}");
    }

    @Test
    void aPairBeatsAMacroOfTheSameNameAndAValueBesideAnObjectGoesInside() throws Exception {
        LogEvent e = bsd(BSD);
        assertThat(render("$(format-json --key HOST HOST=other)", e)).isEqualTo("{\"HOST\":\"other\"}");
        assertThat(render("$(format-json a=1 a.b=2)", e)).isEqualTo("{\"a\":{\"b\":\"2\",\"a\":\"1\"}}");
    }

    @Test
    void rekeyShiftsAndPrefixesNames() throws Exception {
        LogEvent e = bsd(BSD);
        assertThat(render("$(format-json .msg.text=dotted --rekey .* --shift 1 --add-prefix _)", e))
                .isEqualTo("{\"_msg\":{\"text\":\"dotted\"}}");
        e.fields().set(".json.user", "alice");
        assertThat(render("$(format-json --key .json.* --replace-prefix .json.=app.)", e))
                .isEqualTo("{\"app\":{\"user\":\"alice\"}}");
        assertThat(render("$(format-json --key .json.* --shift=6)", e)).isEqualTo("{\"user\":\"alice\"}");
    }

    @Test
    void omitEmptyValues() throws Exception {
        LogEvent e = bsd(BSD);
        e.fields().set("empty", "");
        assertThat(render("$(format-json msg.set=value msg.unset='' --key empty)", e))
                .isEqualTo("{\"msg\":{\"unset\":\"\",\"set\":\"value\"},\"empty\":\"\"}");
        assertThat(render("$(format-json --omit-empty-values msg.set=value msg.unset='' --key empty)", e))
                .isEqualTo("{\"msg\":{\"set\":\"value\"}}");
    }

    @Test
    void quotedArgumentsKeepTheirBlanks() throws Exception {
        LogEvent e = bsd(BSD);
        assertThat(render("$(format-json 'line=${HOST} ${PROGRAM}' \"q=a \\\"b\\\"\")", e))
                .isEqualTo("{\"q\":\"a \\\"b\\\"\",\"line\":\"mymachine su\"}");
        assertThat(render("$(format-json x=int32($PID))", e)).isEqualTo("{\"x\":\"123\"}");
    }

    // ------------------------------------------------------------------ escaping

    @Test
    void valuesAreEscapedAsSyslogNgDoes() throws Exception {
        List<Byte> raw = new ArrayList<>();
        for (byte b : "<13>Oct 11 22:14:15 host app: q\"b\\t\tn\ne".getBytes(StandardCharsets.UTF_8)) {
            raw.add(b);
        }
        byte[] tail = {0x01, 0x00, 'x', (byte) 0xad, ' ', (byte) 0xc3, (byte) 0xa1, ' ', (byte) 0xc3, ' ',
            (byte) 0xe2, (byte) 0x82, (byte) 0xac, ' ', (byte) 0xf0, (byte) 0x9f, (byte) 0x98, (byte) 0x80, ' ',
            (byte) 0xed, (byte) 0xa0, (byte) 0x80, ' ', (byte) 0xc0, (byte) 0xaf, 0x7f};
        for (byte b : tail) {
            raw.add(b);
        }
        byte[] line = new byte[raw.size()];
        for (int i = 0; i < line.length; i++) {
            line[i] = raw.get(i);
        }
        LogEvent e = parsed(line, LogEvent.FORMAT_RFC3164);
        String out = render("$(format-json --key MESSAGE)", e);
        assertThat(out).isEqualTo("{\"MESSAGE\":\"q\\\"b\\\\t\\tn\\ne\\u0001\\u0000x\\\\xad \u00e1 \\\\xc3 \u20ac "
                + "\uD83D\uDE00 \\\\xed\\\\xa0\\\\x80 \\\\xc0\\\\xaf\u007f\"}");
        assertThat(JSON.readTree(out).get("MESSAGE").asText()).startsWith("q\"b\\t\tn\ne\u0001\u0000x\\xad");
    }

    @Test
    void keysAreEscapedToo() throws Exception {
        LogEvent e = bsd(BSD);
        e.fields().set("we\"ird\tkey", "v");
        assertThat(render("$(format-json --scope nv-pairs)", e)).isEqualTo("{\"we\\\"ird\\tkey\":\"v\"}");
    }

    // ------------------------------------------------------------------ compile errors and threads

    @Test
    void unknownFunctionsAndOptionsFailAtCompileWithTheColumn() {
        assertThatThrownBy(() -> Template.compile("x $(format-xml --scope rfc5424)", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown template function 'format-xml'")
                .hasMessageContaining("column 3")
                .hasMessageContaining("format-json");
        assertThatThrownBy(() -> Template.compile("$(format-json --scope nope)", ZoneOffset.UTC))
                .hasMessageContaining("unknown scope 'nope'").hasMessageContaining("column 1");
        assertThatThrownBy(() -> Template.compile("$(format-json --frobnicate)", ZoneOffset.UTC))
                .hasMessageContaining("unknown option: --frobnicate");
        assertThatThrownBy(() -> Template.compile("$(format-json --scope)", ZoneOffset.UTC))
                .hasMessageContaining("--scope needs a value");
        assertThatThrownBy(() -> Template.compile("$(format-json --shift 1)", ZoneOffset.UTC))
                .hasMessageContaining("--shift must follow --key or --rekey");
        assertThatThrownBy(() -> Template.compile("ab $(format-json x=1", ZoneOffset.UTC))
                .hasMessageContaining("unterminated '$(' at column 4");
        assertThatThrownBy(() -> Template.compile("$(format-json 'x=1)", ZoneOffset.UTC))
                .hasMessageContaining("unterminated");
        assertThatThrownBy(() -> Template.compile("$()", ZoneOffset.UTC)).hasMessageContaining("empty template");
        assertThatThrownBy(() -> Template.compile("$(format-json x=nosuch(1))", ZoneOffset.UTC))
                .hasMessageContaining("unknown type hint 'nosuch'");
    }

    @Test
    void aCopyRendersTheSameWithItsOwnScratch() throws Exception {
        Template t = Template.compile("$(format-json --scope rfc5424 --scope nv-pairs)\n", ZoneOffset.UTC);
        Template c = t.copy();
        LogEvent a = ietf(IETF);
        LogEvent b = bsd(BSD);
        ByteBuilder x = new ByteBuilder(16);
        ByteBuilder y = new ByteBuilder(16);
        t.render(a, x);
        c.render(b, y);
        ByteBuilder x2 = new ByteBuilder(16);
        c.render(a, x2);
        assertThat(x.toString()).isEqualTo(x2.toString()).endsWith("}\n");
        assertThat(y.toString()).contains("\"HOST\":\"mymachine\"");
    }

    @Test
    void functionOutputInAPathIsEscapedAsOneValue() {
        LogEvent e = bsd(BSD);
        ByteBuilder out = new ByteBuilder(16);
        Template.compile("logs/$(format-json --key HOST)", ZoneOffset.UTC).render(e, out, PathValueEscaper.INSTANCE);
        assertThat(out.toString()).isEqualTo("logs/{\"HOST\":\"mymachine\"}");
        e.fields().set("p", "../x");
        out.reset();
        Template.compile("logs/$(format-json --key p)", ZoneOffset.UTC).render(e, out, PathValueEscaper.INSTANCE);
        assertThat(out.toString()).isEqualTo("logs/{\"p\":\".._x\"}");
    }
}
