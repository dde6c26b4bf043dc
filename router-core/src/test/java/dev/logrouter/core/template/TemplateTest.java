package dev.logrouter.core.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.logrouter.core.event.EventField;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * Every {@link Macro} rendered from events filled like a source fills them and parsed by the real
 * {@link SyslogHeaderParser}; field references, {@code $$}, compile errors and path escaping.
 */
class TemplateTest {

    /** 2026-11-22T06:14:00.123Z: the receive time of every event unless a test says otherwise. */
    private static final long RECEIVED = Instant.parse("2026-11-22T06:14:00.123Z").toEpochMilli();
    private static final String PEER = "192.0.2.7";
    private static final String SOURCE = "net-in";

    private static final String BSD = "<34>Oct 11 22:14:15 mymachine su[123]: 'su root' failed";
    private static final String SDATA = "[exampleSDID@32473 iut=\"3\" eventSource=\"App\\\"lication\" "
            + "path=\"C:\\\\x\" br=\"a\\]b\"][origin ip=\"10.0.0.1\"]";
    private static final String IETF = "<165>1 2003-10-11T22:14:15.000003-07:00 mymachine.example.com evntslog 77 ID47 "
            + SDATA + " An application event";

    private static LogEvent parsed(String raw, byte hint, long receivedMillis) {
        LogEvent e = new LogEvent();
        e.clear();
        byte[] b = raw.getBytes(StandardCharsets.UTF_8);
        e.setRaw(b, 0, b.length);
        byte[] peer = PEER.getBytes(StandardCharsets.US_ASCII);
        e.setPeer(peer, 0, peer.length);
        e.setSource(3, SOURCE.getBytes(StandardCharsets.US_ASCII), hint, 1L);
        e.setReceivedMillis(receivedMillis);
        new SyslogHeaderParser(ZoneOffset.UTC).parse(e);
        return e;
    }

    private static LogEvent bsd(String raw) {
        return parsed(raw, LogEvent.FORMAT_RFC3164, RECEIVED);
    }

    private static LogEvent ietf(String raw) {
        return parsed(raw, LogEvent.FORMAT_RFC5424, RECEIVED);
    }

    private static String render(String template, LogEvent e) {
        return render(template, ZoneOffset.UTC, e);
    }

    private static String render(String template, ZoneId zone, LogEvent e) {
        ByteBuilder out = new ByteBuilder(16);
        Template.compile(template, zone).render(e, out);
        return out.toString();
    }

    private static String renderPath(String template, LogEvent e) {
        ByteBuilder out = new ByteBuilder(16);
        Template.compile(template, ZoneOffset.UTC).render(e, out, PathValueEscaper.INSTANCE);
        return out.toString();
    }

    // ------------------------------------------------------------------ header macros

    @Test
    void headerMacrosOfALegacyMessage() {
        LogEvent e = bsd(BSD);
        assertThat(e.hasFlag(LogEvent.FLAG_PARSE_ERROR)).isFalse();
        assertThat(render("${HOST}|${PROGRAM}|${PID}|${MSGID}|${MSG}|${MESSAGE}", e))
                .isEqualTo("mymachine|su|123||'su root' failed|'su root' failed");
        assertThat(render("${MSGHDR}${MSG}", e)).isEqualTo("su[123]: 'su root' failed");
        assertThat(render("${LEGACY_MSGHDR}", e)).isEqualTo("su[123]: ");
    }

    @Test
    void headerMacrosOfAnRfc5424Message() {
        LogEvent e = ietf(IETF);
        assertThat(e.hasFlag(LogEvent.FLAG_PARSE_ERROR)).isFalse();
        assertThat(render("${HOST}|${PROGRAM}|${PID}|${MSGID}|${MSG}", e))
                .isEqualTo("mymachine.example.com|evntslog|77|ID47|An application event");
    }

    @Test
    void msghdrWithoutPidAndWithoutProgram() {
        assertThat(render("${MSGHDR}", bsd("<13>Oct 11 22:14:15 host cron: x"))).isEqualTo("cron: ");
        LogEvent noProgram = ietf("<13>1 2024-01-01T00:00:00Z h - - - - only text");
        assertThat(render("[${MSGHDR}]${MSG}", noProgram)).isEqualTo("[]only text");
    }

    @Test
    void hostIsTheSenderWhenTheMessageNamesNone() {
        LogEvent e = bsd("<13>prog: no stamp, no host");
        assertThat(render("${HOST}|${PROGRAM}|${MSG}", e)).isEqualTo(PEER + "|prog|no stamp, no host");
    }

    @Test
    void sourceAndSenderMacros() {
        LogEvent e = bsd(BSD);
        assertThat(render("${SOURCE} ${SOURCEIP} ${HOST_FROM} ${FULLHOST_FROM}", e))
                .isEqualTo(SOURCE + " " + PEER + " " + PEER + " " + PEER);
    }

    // ------------------------------------------------------------------ facility and severity

    @Test
    void facilityAndSeverityNamesAndNumbers() {
        LogEvent e = bsd(BSD);
        assertThat(render("${FACILITY} ${FACILITY_NUM} ${SEVERITY} ${SEVERITY_NUM} ${LEVEL} ${LEVEL_NUM} "
                + "${PRIORITY} ${PRI}", e)).isEqualTo("auth 4 crit 2 crit 2 crit 34");
        assertThat(render("${FACILITY}.${LEVEL}", ietf(IETF))).isEqualTo("local4.notice");
    }

    @Test
    void everyFacilityName() {
        String[] names = {
            "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp",
            "ntp", "security", "console", "solaris-cron", "local0", "local1", "local2", "local3", "local4",
            "local5", "local6", "local7",
        };
        for (int f = 0; f < names.length; f++) {
            LogEvent e = bsd("<" + (f * 8 + 6) + ">Oct 11 22:14:15 h p: x");
            assertThat(render("${FACILITY} ${FACILITY_NUM} ${LEVEL}", e)).as("facility %d", f)
                    .isEqualTo(names[f] + " " + f + " info");
        }
    }

    @Test
    void everySeverityName() {
        String[] names = {"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug"};
        for (int s = 0; s < names.length; s++) {
            LogEvent e = bsd("<" + (8 + s) + ">Oct 11 22:14:15 h p: x");
            assertThat(render("${SEVERITY} ${LEVEL} ${PRIORITY} ${LEVEL_NUM}", e)).as("severity %d", s)
                    .isEqualTo(names[s] + " " + names[s] + " " + names[s] + " " + s);
        }
    }

    @Test
    void outOfRangePriPrintsTheFacilityNumber() {
        LogEvent e = bsd("<999>Oct 11 22:14:15 h p: x");
        assertThat(e.hasFlag(LogEvent.FLAG_PARSE_ERROR)).isFalse();
        assertThat(render("${FACILITY}|${FACILITY_NUM}|${LEVEL}|${PRI}", e)).isEqualTo("124|124|debug|999");
    }

    // ------------------------------------------------------------------ message time

    @Test
    void isoDateKeepsTheMessagesOwnOffset() {
        assertThat(render("${ISODATE}", ietf("<13>1 2024-02-29T23:59:59+02:00 h app - - - x")))
                .isEqualTo("2024-02-29T23:59:59+02:00");
        assertThat(render("${ISODATE}", ietf("<13>1 2003-08-24T05:14:15.000003-07:00 h app - - - x")))
                .isEqualTo("2003-08-24T05:14:15-07:00");
        assertThat(render("${ISODATE}", ietf("<13>1 2024-01-01T00:00:00Z h app - - - x")))
                .isEqualTo("2024-01-01T00:00:00+00:00");
        assertThat(render("${ISODATE}", ietf("<13>1 2024-03-01T10:00:00+05:30 h app - - - x")))
                .isEqualTo("2024-03-01T10:00:00+05:30");
    }

    @Test
    void dateFieldsAreLocalToTheStampsOffset() {
        // 01:00 at -07:00 on March 1 is 08:00 UTC: every field must be the local one
        LogEvent e = ietf("<13>1 2024-03-01T01:02:03.000456-07:00 h app - - - x");
        assertThat(render("$YEAR-$MONTH-$DAY $HOUR:$MIN:$SEC.$USEC $MSEC $TZOFFSET $TZ", e))
                .isEqualTo("2024-03-01 01:02:03.000456 000 -07:00 -07:00");
        assertThat(render("${UNIXTIME}", e))
                .isEqualTo(Long.toString(Instant.parse("2024-03-01T08:02:03Z").getEpochSecond()));
        assertThat(render("${S_ISODATE} ${S_HOUR}", e)).isEqualTo("2024-03-01T01:02:03-07:00 01");
    }

    @Test
    void legacyDatesPadTheDayWithASpace() {
        LogEvent e = bsd("<13>Mar  1 10:00:00.250 h p: x");
        assertThat(render("${DATE}", e)).isEqualTo("Mar  1 10:00:00");
        assertThat(render("${STAMP}", e)).isEqualTo("Mar  1 10:00:00");
        assertThat(render("${FULLDATE}", e)).isEqualTo("2026 Mar  1 10:00:00");
        assertThat(render("${YEAR}/${MONTH}/${DAY} ${HOUR}:${MIN}:${SEC} ${MSEC}", e))
                .isEqualTo("2026/03/01 10:00:00 250");
        assertThat(render("${MONTH_ABBREV} ${WEEKDAY} ${WEEK_DAY_ABBREV}", e)).isEqualTo("Mar Sun Sun");
        LogEvent twoDigitDay = bsd(BSD);
        assertThat(render("${DATE}", twoDigitDay)).isEqualTo("Oct 11 22:14:15");
        assertThat(render("${ISODATE}", twoDigitDay)).isEqualTo("2026-10-11T22:14:15+00:00");
    }

    @Test
    void monthNameIsTheFullEnglishName() {
        // syslog-ng: ${MONTH_ABBREV} is "Feb", ${MONTH_NAME} is "February"
        String[] full = {
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        };
        for (int m = 1; m <= 12; m++) {
            LogEvent e = ietf(String.format("<13>1 2024-%02d-15T12:00:00Z h app - - - x", m));
            assertThat(render("${MONTH_NAME}|${MONTH_ABBREV}", e)).as("month %d", m)
                    .isEqualTo(full[m - 1] + "|" + full[m - 1].substring(0, 3));
        }
    }

    // ------------------------------------------------------------------ receive time

    @Test
    void receiveTimeMacrosUseTheTemplatesZone() {
        LogEvent e = ietf("<13>1 2003-08-24T05:14:15-07:00 h app - - - x");
        ZoneId budapest = ZoneId.of("Europe/Budapest");
        // November: CET, +01:00
        assertThat(render("${R_ISODATE}", budapest, e)).isEqualTo("2026-11-22T07:14:00+01:00");
        assertThat(render("${R_DATE}|${R_FULLDATE}|${R_STAMP}", budapest, e))
                .isEqualTo("Nov 22 07:14:00|2026 Nov 22 07:14:00|Nov 22 07:14:00");
        assertThat(render("$R_YEAR$R_MONTH$R_DAY $R_HOUR$R_MIN$R_SEC $R_MSEC $R_USEC $R_TZOFFSET $R_WEEKDAY",
                budapest, e)).isEqualTo("20261122 071400 123 123000 +01:00 Sun");
        assertThat(render("${R_UNIXTIME}", budapest, e)).isEqualTo(Long.toString(RECEIVED / 1000));
        // the message's own time in the same template is not affected by the receive time or zone
        assertThat(render("${ISODATE} ${R_ISODATE} ${HOUR} ${R_HOUR}", budapest, e))
                .isEqualTo("2003-08-24T05:14:15-07:00 2026-11-22T07:14:00+01:00 05 07");
        assertThat(render("${R_ISODATE}", ZoneOffset.UTC, e)).isEqualTo("2026-11-22T06:14:00+00:00");
    }

    @Test
    void receiveTimeFollowsDaylightSavingAcrossMidnight() {
        long summer = Instant.parse("2026-07-01T22:30:00Z").toEpochMilli();
        LogEvent e = parsed("<13>1 2003-08-24T05:14:15Z h app - - - x", LogEvent.FORMAT_RFC5424, summer);
        assertThat(render("${R_ISODATE} ${R_DAY}", ZoneId.of("Europe/Budapest"), e))
                .isEqualTo("2026-07-02T00:30:00+02:00 02");
    }

    // ------------------------------------------------------------------ structured data and fields

    @Test
    void sdataIsReSerialisedWithEscapes() {
        LogEvent e = ietf(IETF);
        assertThat(render("${SDATA}", e)).isEqualTo(SDATA);
        assertThat(render("${.SDATA.exampleSDID@32473.eventSource}|${.SDATA.exampleSDID@32473.path}|"
                + "${.SDATA.exampleSDID@32473.br}|${.SDATA.origin.ip}", e))
                .isEqualTo("App\"lication|C:\\x|a]b|10.0.0.1");
    }

    @Test
    void sdataGroupsParamsOfOneElementAndKeepsIdsWithDots() {
        String sd = "[a.b@1 x=\"1\" y=\"2\"][solo][c@2 z=\"\"]";
        LogEvent e = ietf("<13>1 2024-01-01T00:00:00Z h app - - " + sd + " m");
        assertThat(render("${SDATA}", e)).isEqualTo(sd);
    }

    @Test
    void sdataKeepsRepeatedSdIdsAsSeparateElementsInOrder() {
        // invalid under RFC 5424 but seen in the wild; syslog-ng 3.38 writes it back as it came
        String sd = "[meta a=\"1\"][x@1 b=\"2\"][meta c=\"3\"]";
        assertThat(render("${SDATA}", ietf("<13>1 2024-01-01T00:00:00Z h app - - " + sd + " m"))).isEqualTo(sd);
        String more = "[meta][x@1 b=\"2\"][meta c=\"3\" d=\"4\"][x@1 e=\"5\"][meta f=\"6\"]";
        assertThat(render("${SDATA}", ietf("<13>1 2024-01-01T00:00:00Z h app - - " + more + " m"))).isEqualTo(more);
        String adjacent = "[a@1 x=\"1\"][a@1 y=\"2\"]";
        assertThat(render("${SDATA}", ietf("<13>1 2024-01-01T00:00:00Z h app - - " + adjacent + " m")))
                .isEqualTo(adjacent);
    }

    @Test
    void aParamRepeatedInALaterElementIsOneValueInItsFirstElement() {
        // as syslog-ng 3.38: the last value, where the param was first seen; an element left empty is not written
        LogEvent e = ietf("<13>1 2024-01-01T00:00:00Z h app - - [meta a=\"1\" b=\"x\"][x@1 k=\"v\"][meta a=\"2\"] m");
        assertThat(render("${SDATA}", e)).isEqualTo("[meta a=\"2\" b=\"x\"][x@1 k=\"v\"]");
        LogEvent twice = ietf("<13>1 2024-01-01T00:00:00Z h app - - [ex@32473 a=\"1\"][ex@32473 a=\"2\"] m");
        assertThat(render("${SDATA}", twice)).isEqualTo("[ex@32473 a=\"2\"]");
    }

    @Test
    void aParamARewriteAddsJoinsTheFirstElementOfItsSdId() {
        LogEvent e = ietf("<13>1 2024-01-01T00:00:00Z h app - - [meta a=\"1\"][x@1 b=\"2\"][meta c=\"3\"] m");
        byte[] v = "9".getBytes(StandardCharsets.US_ASCII);
        EventField.of(".SDATA.meta.z").set(e, v, 0, 1);
        EventField.of(".SDATA.x@1.y").set(e, v, 0, 1);
        EventField.of(".SDATA.new@1.k").set(e, v, 0, 1);
        // a param that is there keeps its element when a rewrite changes it
        EventField.of(".SDATA.meta.c").set(e, v, 0, 1);
        assertThat(render("${SDATA}", e))
                .isEqualTo("[meta a=\"1\" z=\"9\"][x@1 b=\"2\" y=\"9\"][meta c=\"9\"][new@1 k=\"9\"]");
        // a valid message plus a rewrite stays valid: one element per SD-ID
        LogEvent valid = ietf("<13>1 2024-01-01T00:00:00Z h app - - [meta a=\"1\"][x@1 b=\"2\"] m");
        EventField.of(".SDATA.meta.z").set(valid, v, 0, 1);
        assertThat(render("${SDATA}", valid)).isEqualTo("[meta a=\"1\" z=\"9\"][x@1 b=\"2\"]");
    }

    @Test
    void aCopyKeepsTheElements() {
        LogEvent e = ietf("<13>1 2024-01-01T00:00:00Z h app - - [meta a=\"1\"][x@1 b=\"2\"][meta c=\"3\"] m");
        assertThat(render("${SDATA}", LogEvent.copyOf(e))).isEqualTo("[meta a=\"1\"][x@1 b=\"2\"][meta c=\"3\"]");
    }

    @Test
    void sdataFromLegacyCiscoFieldsAndNoneAtAll() {
        LogEvent cisco = bsd("<189>123: *Mar  1 18:46:11.315: %SYS-5-CONFIG_I: Configured");
        assertThat(render("${SDATA}", cisco)).isEqualTo("[meta sequenceId=\"123\"][timeQuality isSynced=\"0\"]");
        assertThat(render("${.SDATA.meta.sequenceId}", cisco)).isEqualTo("123");
        assertThat(render("[${SDATA}]", bsd(BSD))).isEqualTo("[]");
    }

    @Test
    void sdataSkipsFieldsThatAreNotStructuredData() {
        LogEvent e = ietf("<13>1 2024-01-01T00:00:00Z h app - - [x@1 a=\"1\"] m");
        e.fields().set("parsed.user", "root");
        assertThat(render("${SDATA} ${parsed.user}", e)).isEqualTo("[x@1 a=\"1\"] root");
    }

    @Test
    void unsetFieldsRenderAsNothing() {
        LogEvent e = bsd(BSD);
        assertThat(render("[${.SDATA.meta.sequenceId}][${nope}][$nope]", e)).isEqualTo("[][][]");
        // macro names are upper case; other spellings and R_ on a non-date macro are field names
        assertThat(render("[${host}][${R_HOST}]", e)).isEqualTo("[][]");
    }

    // ------------------------------------------------------------------ syntax

    @Test
    void dollarDollarIsALiteralDollar() {
        LogEvent e = bsd(BSD);
        assertThat(render("$$", e)).isEqualTo("$");
        assertThat(render("cost: $$5 $$HOST $$$HOST$$", e)).isEqualTo("cost: $5 $HOST $mymachine$");
    }

    @Test
    void macrosWithoutBraces() {
        LogEvent e = bsd(BSD);
        assertThat(render("$HOST:$PROGRAM[$PID] $FACILITY_NUM.$LEVEL_NUM $MSG.", e))
                .isEqualTo("mymachine:su[123] 4.2 'su root' failed.");
        assertThat(render("/var/log/$HOST/$YEAR$MONTH$DAY.log", e)).isEqualTo("/var/log/mymachine/20261011.log");
    }

    @Test
    void literalTemplates() {
        assertThat(Template.compile("plain text\n", ZoneOffset.UTC).isLiteral()).isTrue();
        assertThat(Template.compile("$$ only", ZoneOffset.UTC).isLiteral()).isTrue();
        assertThat(Template.compile("${HOST}", ZoneOffset.UTC).isLiteral()).isFalse();
        assertThat(Template.compile("${x}", ZoneOffset.UTC).isLiteral()).isFalse();
        assertThat(render("", bsd(BSD))).isEmpty();
    }

    @Test
    void aTemplateReusedAcrossSecondsAndOffsetsPrintsEachDateAsAFreshOne() {
        String tpl = "${ISODATE}|${R_ISODATE}|$HOUR:$MIN:$SEC.$USEC|$MSEC|${TZOFFSET}|${YEAR}";
        Template reused = Template.compile(tpl, ZoneOffset.UTC);
        String[] stamps = {"2024-03-01T10:00:00.000001+05:30", "2024-03-01T10:00:00.999999+05:30",
            "2024-03-01T10:00:00.5-07:00", "2024-03-01T10:00:01+05:30", "2024-03-01T10:00:00.25+05:30",
            "2024-12-31T23:59:59Z", "2025-01-01T00:00:00Z"};
        long received = RECEIVED;
        for (String stamp : stamps) {
            LogEvent e = parsed("<13>1 " + stamp + " h app - - - x", LogEvent.FORMAT_RFC5424, received += 700);
            ByteBuilder out = new ByteBuilder(8);
            reused.render(e, out);
            assertThat(out.toString()).as(stamp).isEqualTo(render(tpl, e));
        }
    }

    @Test
    void copyRendersTheSame() {
        Template t = Template.compile("${ISODATE} ${HOST} ${MSGHDR}${MSG}\n", ZoneOffset.UTC);
        LogEvent e = bsd(BSD);
        ByteBuilder a = new ByteBuilder(8);
        ByteBuilder b = new ByteBuilder(8);
        t.render(e, a);
        t.copy().render(e, b);
        assertThat(b.toString()).isEqualTo(a.toString())
                .isEqualTo("2026-10-11T22:14:15+00:00 mymachine su[123]: 'su root' failed\n");
        assertThat(t.copy().source()).isEqualTo(t.source());
    }

    @Test
    void unterminatedBraceFailsWithItsColumn() {
        assertThatThrownBy(() -> Template.compile("ab ${HOST", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unterminated '${' at column 4")
                .hasMessageContaining("ab ${HOST");
        assertThatThrownBy(() -> Template.compile("${", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unterminated '${' at column 1");
    }

    @Test
    void emptyMacroNameFails() {
        assertThatThrownBy(() -> Template.compile("x ${} y", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty macro name");
        assertThatThrownBy(() -> Template.compile("trailing $", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty macro name");
    }

    // ------------------------------------------------------------------ path escaping

    private static String escape(byte[] value) {
        ByteBuilder out = new ByteBuilder(4);
        out.append("pre/");
        PathValueEscaper.INSTANCE.append(out, value, 0, value.length);
        return out.toString();
    }

    private static String escape(String value) {
        return escape(value.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void pathEscaperKeepsAValueOneComponent() {
        assertThat(escape("../../etc")).isEqualTo("pre/.._.._etc");
        assertThat(escape("..")).isEqualTo("pre/__");
        assertThat(escape(".")).isEqualTo("pre/_");
        assertThat(escape("...")).isEqualTo("pre/...");
        assertThat(escape(".a")).isEqualTo("pre/.a");
        assertThat(escape("a/b\\c")).isEqualTo("pre/a_b_c");
        assertThat(escape("")).isEqualTo("pre/_");
        assertThat(escape(new byte[] {'a', 0, 'b', '\n', 'c', '\t', 0x1f, 0x7f, 'd'})).isEqualTo("pre/a_b_c___d");
        assertThat(escape("héllo-wörld_✓ 1")).isEqualTo("pre/héllo-wörld_✓ 1");
    }

    @Test
    void pathEscaperOnlyLooksAtTheGivenSpan() {
        byte[] buf = "xx..yy".getBytes(StandardCharsets.US_ASCII);
        ByteBuilder out = new ByteBuilder(4);
        PathValueEscaper.INSTANCE.append(out, buf, 2, 2);
        assertThat(out.toString()).isEqualTo("__");
    }

    @Test
    void templateAppliesThePathEscaperToValuesOnly() {
        LogEvent hostile = bsd("<13>Oct 11 22:14:15 ../../etc prog: x");
        assertThat(render("${HOST}", hostile)).isEqualTo("../../etc");
        assertThat(renderPath("/var/log/${HOST}/${PROGRAM}-${PID}.log", hostile))
                .isEqualTo("/var/log/.._.._etc/prog-_.log");
        assertThat(renderPath("/var/log/${.SDATA.x.y}/$SOURCEIP", hostile)).isEqualTo("/var/log/_/192.0.2.7");
        LogEvent sd = ietf("<13>1 2024-01-01T00:00:00Z .. app - - [a b=\"1/2\"] m");
        assertThat(renderPath("/d/${HOST}/${SDATA}", sd)).isEqualTo("/d/__/[a b=\"1_2\"]");
    }
}
