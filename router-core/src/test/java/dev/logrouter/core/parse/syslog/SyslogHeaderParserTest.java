package dev.logrouter.core.parse.syslog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.StructuredData;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Focused behaviour of {@link SyslogHeaderParser}: year guessing, zones, fractions, structured data, limits, the
 * replacement message, robustness on garbage and the no-allocation hot path.
 */
class SyslogHeaderParserTest {

    private static final long NOV_2026 = Instant.parse("2026-11-22T06:14:00.123Z").toEpochMilli();

    private final SyslogHeaderParser utc = new SyslogHeaderParser(ZoneOffset.UTC);

    private static LogEvent parse(SyslogHeaderParser parser, String text, byte hint, long now) {
        LogEvent e = SyslogRecord.event(text.getBytes(StandardCharsets.UTF_8), hint, now);
        parser.parse(e);
        return e;
    }

    private LogEvent bsd(String text, long now) {
        return parse(utc, text, LogEvent.FORMAT_RFC3164, now);
    }

    private LogEvent proto(String text) {
        return parse(utc, text, LogEvent.FORMAT_RFC5424, NOV_2026);
    }

    private static long millis(String iso) {
        return Instant.parse(iso).toEpochMilli();
    }

    private static String stamp(LogEvent e) {
        return SyslogRecord.isoDate(e);
    }

    // ------------------------------------------------------------------ year guessing

    @Test
    void decemberStampReceivedInJanuaryBelongsToThePreviousYear() {
        LogEvent e = bsd("<13>Dec 31 23:59:59 host prog: late", millis("2027-01-01T00:00:05Z"));
        assertThat(stamp(e)).isEqualTo("2026-12-31T23:59:59+00:00");
    }

    @Test
    void januaryStampReceivedInDecemberBelongsToTheNextYear() {
        LogEvent e = bsd("<13>Jan  1 00:00:01 host prog: early", millis("2026-12-31T23:59:58Z"));
        assertThat(stamp(e)).isEqualTo("2027-01-01T00:00:01+00:00");
    }

    @Test
    void otherMonthsUseTheCurrentYear() {
        assertThat(stamp(bsd("<13>Dec 24 10:00:00 h p: x", millis("2026-06-01T00:00:00Z"))))
                .isEqualTo("2026-12-24T10:00:00+00:00");
        assertThat(stamp(bsd("<13>Feb  1 10:00:00 h p: x", millis("2026-12-31T00:00:00Z"))))
                .isEqualTo("2026-02-01T10:00:00+00:00");
        assertThat(stamp(bsd("<13>Nov 30 10:00:00 h p: x", millis("2027-01-02T00:00:00Z"))))
                .isEqualTo("2027-11-30T10:00:00+00:00");
    }

    @Test
    void yearIsGuessedInTheReceiverZone() {
        // 23:30 UTC on Dec 31 is already January 1 in +02:00, so a December stamp goes to the previous year
        SyslogHeaderParser plus2 = new SyslogHeaderParser(ZoneOffset.ofHours(2));
        LogEvent e = parse(plus2, "<13>Dec 31 23:59:00 h p: x", LogEvent.FORMAT_RFC3164,
                millis("2026-12-31T23:30:00Z"));
        assertThat(stamp(e)).isEqualTo("2026-12-31T23:59:00+02:00");
    }

    // ------------------------------------------------------------------ zones

    @Test
    void zoneLessStampsUseTheReceiverZone() {
        SyslogHeaderParser plus2 = new SyslogHeaderParser(ZoneOffset.ofHours(2));
        LogEvent e = parse(plus2, "<13>Mar  1 10:00:00 h p: x", LogEvent.FORMAT_RFC3164, NOV_2026);
        assertThat(e.stampOffsetSeconds()).isEqualTo(7200);
        assertThat(e.stampEpochSecond()).isEqualTo(Instant.parse("2026-03-01T08:00:00Z").getEpochSecond());
    }

    @Test
    void regionZoneFollowsDaylightSavingForTheStampsOwnDate() {
        SyslogHeaderParser budapest = new SyslogHeaderParser(ZoneId.of("Europe/Budapest"));
        LogEvent summer = parse(budapest, "<13>1 2024-07-01T12:00:00 h app - - - x", LogEvent.FORMAT_RFC5424,
                NOV_2026);
        assertThat(stamp(summer)).isEqualTo("2024-07-01T12:00:00+02:00");
        LogEvent winter = parse(budapest, "<13>2024-01-15 12:00:00 h app: x", LogEvent.FORMAT_RFC3164, NOV_2026);
        assertThat(stamp(winter)).isEqualTo("2024-01-15T12:00:00+01:00");
        LogEvent received = parse(budapest, "<13>no stamp", LogEvent.FORMAT_RFC3164, millis("2026-07-01T10:00:00Z"));
        assertThat(stamp(received)).isEqualTo("2026-07-01T12:00:00+02:00");
    }

    @Test
    void explicitOffsetsAreKept() {
        assertThat(stamp(proto("<13>1 2003-08-24T05:14:15.000003-07:00 h app - - - x")))
                .isEqualTo("2003-08-24T05:14:15-07:00");
        assertThat(stamp(bsd("<13>2024-03-01T10:00:00+05:30 h p: x", NOV_2026)))
                .isEqualTo("2024-03-01T10:00:00+05:30");
        LogEvent z = proto("<13>1 2024-01-01T00:00:00Z h app - - - x");
        assertThat(z.stampEpochSecond()).isEqualTo(Instant.parse("2024-01-01T00:00:00Z").getEpochSecond());
    }

    @Test
    void receiveTimeIsUsedWhenThereIsNoStamp() {
        LogEvent e = bsd("<13>prog: x", NOV_2026);
        assertThat(e.stampEpochSecond()).isEqualTo(NOV_2026 / 1000);
        assertThat(e.stampMicros()).isEqualTo(123_000);
        LogEvent nil = proto("<13>1 - h app - - - x");
        assertThat(nil.stampEpochSecond()).isEqualTo(NOV_2026 / 1000);
    }

    // ------------------------------------------------------------------ fractions

    @Test
    void fractionsKeepMicroseconds() {
        assertThat(bsd("<13>Mar  1 10:00:00.123 h p: x", NOV_2026).stampMicros()).isEqualTo(123_000);
        assertThat(proto("<13>1 2024-01-01T00:00:00.123456789+01:00 h a - - - x").stampMicros()).isEqualTo(123_456);
        assertThat(proto("<13>1 2024-01-01T00:00:00.000003Z h a - - - x").stampMicros()).isEqualTo(3);
        assertThat(bsd("<13>2024-01-01T00:00:00,5 h p: x", NOV_2026).stampMicros()).isEqualTo(500_000);
        LogEvent bare = proto("<13>1 2024-01-01T00:00:00.Z h a - - - x");
        assertThat(bare.stampMicros()).isZero();
        assertThat(SyslogRecord.field(bare, LogEvent.PROGRAM)).isEqualTo("a");
    }

    @Test
    void fractionDigitsAreCountedUpToSix() {
        assertThat(proto("<13>1 2024-01-01T00:00:00Z h a - - - x").stampFracDigits()).isZero();
        assertThat(proto("<13>1 2024-01-01T00:00:00.1Z h a - - - x").stampFracDigits()).isEqualTo(1);
        assertThat(proto("<13>1 2024-01-01T00:00:00.003Z h a - - - x").stampFracDigits()).isEqualTo(3);
        assertThat(proto("<13>1 2024-01-01T00:00:00.000000Z h a - - - x").stampFracDigits()).isEqualTo(6);
        LogEvent nine = proto("<13>1 2024-01-01T00:00:00.123456789-05:00 h a - - - x");
        assertThat(nine.stampFracDigits()).as("digits beyond 6 are cut").isEqualTo(6);
        assertThat(nine.stampMicros()).isEqualTo(123_456);
        assertThat(proto("<13>1 2024-01-01T00:00:00.Z h a - - - x").stampFracDigits()).isZero();
        assertThat(bsd("<13>Mar  1 10:00:00.12 h p: x", NOV_2026).stampFracDigits()).isEqualTo(2);
        assertThat(bsd("<13>2024-01-01T00:00:00,5 h p: x", NOV_2026).stampFracDigits()).isEqualTo(1);
        assertThat(bsd("<13>Mar  7 2008 19:06:53 example tag: x", NOV_2026).stampFracDigits()).isZero();
        assertThat(bsd("<13>Apr 15 21:28:13 2007 linksys app: x", NOV_2026).stampFracDigits()).isZero();
    }

    @Test
    void theReceiveTimeHasNoFractionDigitsOfItsOwn() {
        // NOV_2026 has 123 ms: kept in the micros, not counted as digits (syslog-ng's default frac-digits(0))
        LogEvent none = bsd("<13>prog: x", NOV_2026);
        assertThat(none.stampMicros()).isEqualTo(123_000);
        assertThat(none.stampFracDigits()).isZero();
        assertThat(proto("<13>1 - h app - - - x").stampFracDigits()).isZero();
        // a parser reused after a stamp with a fraction does not carry its digits over
        SyslogHeaderParser p = new SyslogHeaderParser(ZoneOffset.UTC);
        assertThat(parse(p, "<13>1 2024-01-01T00:00:00.123Z h a - - - x", LogEvent.FORMAT_RFC5424, NOV_2026)
                .stampFracDigits()).isEqualTo(3);
        assertThat(parse(p, "<13>Mar  7 2008 19:06:53 example tag: x", LogEvent.FORMAT_RFC3164, NOV_2026)
                .stampFracDigits()).isZero();
        assertThat(parse(p, "<13>1 2024-01-01T00:00:00Z h a - - - x", LogEvent.FORMAT_RFC5424, NOV_2026)
                .stampFracDigits()).isZero();
    }

    @Test
    void yearInsideLegacyStamps() {
        assertThat(stamp(bsd("<13>Mar  7 2008 19:06:53 example tag: x", NOV_2026)))
                .isEqualTo("2008-03-07T19:06:53+00:00");
        assertThat(stamp(bsd("<13>Apr 15 21:28:13 2007 linksys app: x", NOV_2026)))
                .isEqualTo("2007-04-15T21:28:13+00:00");
    }

    // ------------------------------------------------------------------ structured data

    @Test
    void structuredDataEscapes() {
        LogEvent e = proto("<13>1 2024-01-01T00:00:00Z h app - - "
                + "[ex@32473 q=\"a\\\"b\" bs=\"c\\\\d\" br=\"e\\]f\" other=\"x\\y\" empty=\"\"] msg");
        assertThat(e.fields().get(".SDATA.ex@32473.q")).isEqualTo("a\"b");
        assertThat(e.fields().get(".SDATA.ex@32473.bs")).isEqualTo("c\\d");
        assertThat(e.fields().get(".SDATA.ex@32473.br")).isEqualTo("e]f");
        assertThat(e.fields().get(".SDATA.ex@32473.other")).isEqualTo("x\\y");
        assertThat(e.fields().get(".SDATA.ex@32473.empty")).isEmpty();
        assertThat(e.fields().tag(0)).isEqualTo("ex@32473".length());
        assertThat(SyslogRecord.sdata(e.fields()))
                .isEqualTo("[ex@32473 q=\"a\\\"b\" bs=\"c\\\\d\" br=\"e\\]f\" other=\"x\\\\y\" empty=\"\"]");
        assertThat(SyslogRecord.field(e, LogEvent.MSG)).isEqualTo("msg");
    }

    @Test
    void structuredDataElementsAndIdsWithDots() {
        LogEvent e = proto("<13>1 2024-01-01T00:00:00Z h app - - [a.b@1 x=\"1\"][solo][a.b@1 x=\"2\" y=\"3\"]");
        assertThat(e.fields().get(".SDATA.a.b@1.x")).isEqualTo("2");
        assertThat(e.fields().get(".SDATA.solo")).isEmpty();
        int y = tagOf(e, ".SDATA.a.b@1.y");
        assertThat(StructuredData.idLength(y)).isEqualTo(5);
        assertThat(StructuredData.occurrence(y)).as("in the second a.b@1 element").isEqualTo(1);
        int x = tagOf(e, ".SDATA.a.b@1.x");
        assertThat(StructuredData.occurrence(x)).as("a repeated param stays in its first element").isZero();
        assertThat(StructuredData.idLength(x)).isEqualTo(5);
        assertThat(SyslogRecord.field(e, LogEvent.MSG)).isEmpty();
    }

    private static int tagOf(LogEvent e, String name) {
        int i = e.fields().indexOf(name.getBytes(StandardCharsets.US_ASCII));
        assertThat(i).as(name).isNotNegative();
        return e.fields().tag(i);
    }

    @Test
    void repeatedSdIdsAreCountedPerMessage() {
        SyslogHeaderParser p = new SyslogHeaderParser(ZoneOffset.UTC);
        LogEvent e = parse(p, "<13>1 2024-01-01T00:00:00Z h app - - [meta a=\"1\"][x@1 b=\"2\"][meta c=\"3\"]"
                + "[meta][x@1 d=\"4\"] m", LogEvent.FORMAT_RFC5424, NOV_2026);
        assertThat(StructuredData.occurrence(tagOf(e, ".SDATA.meta.a"))).isZero();
        assertThat(StructuredData.occurrence(tagOf(e, ".SDATA.x@1.b"))).isZero();
        assertThat(StructuredData.occurrence(tagOf(e, ".SDATA.meta.c"))).isEqualTo(1);
        assertThat(StructuredData.occurrence(tagOf(e, ".SDATA.meta"))).isEqualTo(2);
        assertThat(StructuredData.occurrence(tagOf(e, ".SDATA.x@1.d"))).isEqualTo(1);
        assertThat(StructuredData.idLength(tagOf(e, ".SDATA.meta.c"))).isEqualTo(4);
        // the next message on the same parser counts from 0 again
        LogEvent next = parse(p, "<13>1 2024-01-01T00:00:00Z h app - - [x@1 b=\"2\"][meta c=\"3\"] m",
                LogEvent.FORMAT_RFC5424, NOV_2026);
        assertThat(StructuredData.occurrence(tagOf(next, ".SDATA.meta.c"))).isZero();
        assertThat(StructuredData.occurrence(tagOf(next, ".SDATA.x@1.b"))).isZero();
    }

    @Test
    void sdIdsPastTheTrackedOnesShareTheirFirstElement() {
        StringBuilder sd = new StringBuilder();
        for (int i = 0; i < StructuredDataParser.TRACKED_IDS; i++) {
            sd.append("[id").append(i).append(" p=\"").append(i).append("\"]");
        }
        sd.append("[late a=\"1\"][id0 q=\"2\"][late b=\"3\"]");
        LogEvent e = proto("<13>1 2024-01-01T00:00:00Z h app - - " + sd + " m");
        assertThat(StructuredData.occurrence(tagOf(e, ".SDATA.id0.q"))).isEqualTo(1);
        assertThat(StructuredData.occurrence(tagOf(e, ".SDATA.late.b"))).isZero();
    }

    @Test
    void malformedStructuredDataIsAnError() {
        for (String sd : List.of("[ex a=\"1\"", "[ex a=1]", "[ex a]", "[=x]", "[ex  a=\"1\"]", "[ex a=\"1\"]x",
                "[ex a=\"b]\"]", "[ex a=\"b\"c\"]", "[ex a=\"1\"")) {
            LogEvent e = proto("<13>1 2024-01-01T00:00:00Z h app - - " + sd);
            assertThat(e.hasFlag(LogEvent.FLAG_PARSE_ERROR)).as(sd).isTrue();
        }
    }

    // ------------------------------------------------------------------ limits

    @Test
    void headerFieldsAreTruncated() {
        String app = "a".repeat(49);
        String procid = "p".repeat(129);
        String msgid = "m".repeat(33);
        LogEvent e = proto("<13>1 2024-01-01T00:00:00Z h " + app + " " + procid + " " + msgid + " - x");
        assertThat(e.fieldLength(LogEvent.PROGRAM)).isEqualTo(48);
        assertThat(e.fieldLength(LogEvent.PID)).isEqualTo(128);
        assertThat(e.fieldLength(LogEvent.MSGID)).isEqualTo(32);
        assertThat(SyslogRecord.field(e, LogEvent.MSG)).isEqualTo("x");
    }

    @Test
    void hostnameOver255IsAnError() {
        String ok = "h".repeat(255);
        LogEvent fine = proto("<13>1 2024-01-01T00:00:00Z " + ok + " app - - - x");
        assertThat(SyslogRecord.field(fine, LogEvent.HOST)).isEqualTo(ok);
        String input = "<13>1 2024-01-01T00:00:00Z " + "h".repeat(256) + " app - - - x";
        LogEvent bad = proto(input);
        assertThat(bad.hasFlag(LogEvent.FLAG_PARSE_ERROR)).isTrue();
        int hostStart = "<13>1 2024-01-01T00:00:00Z ".length();
        assertThat(SyslogRecord.field(bad, LogEvent.MSG)).isEqualTo("Error processing log message: "
                + input.substring(0, hostStart) + ">@<" + input.substring(hostStart));
    }

    // ------------------------------------------------------------------ errors

    @Test
    void replacementMessageLooksLikeSyslogNgs() {
        LogEvent e = proto("<13>1 2024-01-01t00:00:00z h app - - - lower-case t and z\n");
        assertThat(e.hasFlag(LogEvent.FLAG_PARSE_ERROR)).isTrue();
        assertThat(e.pri()).isEqualTo(43);
        assertThat(SyslogRecord.field(e, LogEvent.HOST)).isEqualTo("127.0.0.1");
        assertThat(SyslogRecord.field(e, LogEvent.PROGRAM)).isEqualTo("syslog-ng");
        assertThat(SyslogRecord.field(e, LogEvent.PID)).isEqualTo(Long.toString(ProcessHandle.current().pid()));
        assertThat(SyslogRecord.field(e, LogEvent.MSG))
                .isEqualTo("Error processing log message: <13>1>@< 2024-01-01t00:00:00z h app - - - "
                        + "lower-case t and z");
        assertThat(e.stampEpochSecond()).isEqualTo(NOV_2026 / 1000);
        long first = Long.parseLong(e.fields().get(".SDATA.meta.sequenceId"));
        LogEvent next = bsd("<1a>Oct 11 22:14:15 mymachine prog: x", NOV_2026);
        assertThat(Long.parseLong(next.fields().get(".SDATA.meta.sequenceId"))).isGreaterThan(first);
        assertThat(SyslogRecord.field(next, LogEvent.MSG))
                .isEqualTo("Error processing log message: <1a>Oct 11 22:14:15 mymachine prog: x");
    }

    @Test
    void versionOtherThanOneAndLegacyTextFallBackSilently() {
        LogEvent v2 = proto("<13>2 2024-01-01T00:00:00Z h app - - - version 2");
        assertThat(v2.hasFlag(LogEvent.FLAG_PARSE_ERROR)).isFalse();
        assertThat(SyslogRecord.field(v2, LogEvent.PROGRAM)).isEqualTo("2");
        LogEvent auto = parse(utc, "<13>Oct 11 22:14:15 h prog[7]: x", LogEvent.FORMAT_AUTO, NOV_2026);
        assertThat(SyslogRecord.field(auto, LogEvent.PID)).isEqualTo("7");
        LogEvent legacyOnly = bsd("<13>1 2024-01-01T00:00:00Z h app - - - x", NOV_2026);
        assertThat(SyslogRecord.field(legacyOnly, LogEvent.PROGRAM)).isEqualTo("1");
    }

    @Test
    void noHostnameReadsTheTagRightAfterTheStampAsSyslogNgUnixSourcesDo() {
        // what glibc's syslog(3) and logger(1) write to /dev/log: no HOST in the header
        byte local = LogEvent.FORMAT_AUTO | LogEvent.FORMAT_NO_HOSTNAME;
        LogEvent pid = parse(utc, "<30>Nov 22 06:14:00 sshd[812]: Accepted publickey", local, NOV_2026);
        assertThat(pid.formatHint()).isEqualTo(LogEvent.FORMAT_AUTO);
        assertThat(pid.pri()).isEqualTo(30);
        assertThat(SyslogRecord.render(pid))
                .isEqualTo("2026-11-22T06:14:00+00:00|127.0.0.1|sshd|812|||Accepted publickey");
        // without the flag "root:" would not be HOST either (a colon ends it), but a bare word before a space would
        LogEvent noPid = parse(utc, "<13>Nov 22 06:14:00 root: plain text", local, NOV_2026);
        assertThat(SyslogRecord.render(noPid)).isEqualTo("2026-11-22T06:14:00+00:00|127.0.0.1|root||||plain text");
        LogEvent word = parse(utc, "<13>Nov 22 06:14:00 myapp started ok", local, NOV_2026);
        assertThat(SyslogRecord.render(word)).isEqualTo("2026-11-22T06:14:00+00:00|127.0.0.1|myapp||||started ok");
        LogEvent network = bsd("<13>Nov 22 06:14:00 myapp started ok", NOV_2026);
        assertThat(SyslogRecord.render(network)).isEqualTo("2026-11-22T06:14:00+00:00|myapp|started||||ok");
        // RFC 5424 names its HOSTNAME structurally: the flag changes nothing there; glibc's trailing NUL is ignored
        LogEvent rfc5424 = parse(utc, "<13>1 2026-11-22T06:14:00Z vm root - - - x\0", local, NOV_2026);
        assertThat(SyslogRecord.render(rfc5424)).isEqualTo("2026-11-22T06:14:00+00:00|vm|root||||x");
        LogEvent legacyOnly = parse(utc, "<13>Nov 22 06:14:00 cron[9]: job\0",
                (byte) (LogEvent.FORMAT_RFC3164 | LogEvent.FORMAT_NO_HOSTNAME), NOV_2026);
        assertThat(SyslogRecord.render(legacyOnly)).isEqualTo("2026-11-22T06:14:00+00:00|127.0.0.1|cron|9|||job");
    }

    @Test
    void ciscoMarkersAndSequence() {
        LogEvent e = bsd("<189>123: *Mar  1 18:46:11.315: %SYS-5-CONFIG_I: Configured", NOV_2026);
        assertThat(e.fields().get(".SDATA.meta.sequenceId")).isEqualTo("123");
        assertThat(e.fields().get(".SDATA.timeQuality.isSynced")).isEqualTo("0");
        assertThat(SyslogRecord.field(e, LogEvent.PROGRAM)).isEqualTo("%SYS-5-CONFIG_I");
        LogEvent digitsOnly = bsd("<189>65536", NOV_2026);
        assertThat(SyslogRecord.field(digitsOnly, LogEvent.PROGRAM)).isEqualTo("65536");
        assertThat(digitsOnly.fields().size()).isZero();
    }

    // ------------------------------------------------------------------ robustness and allocation

    @Test
    void warmParserSurvivesRandomGarbage() throws Exception {
        Random random = new Random(20261122L);
        byte[] alphabet = "<>[]\"\\ :-.*=0123456789TZtzabcJanFebMarDec@\n\0\u00ef\u00bb\u00bf"
                .getBytes(StandardCharsets.ISO_8859_1);
        List<String[]> cases = SyslogConformanceTest.loadCases();
        SyslogHeaderParser[] parsers = {utc, new SyslogHeaderParser(ZoneId.of("America/New_York"))};
        byte[] hints = {LogEvent.FORMAT_AUTO, LogEvent.FORMAT_RFC3164, LogEvent.FORMAT_RFC5424};
        LogEvent e = new LogEvent();
        for (int round = 0; round < 200_000; round++) {
            byte[] data;
            if (round % 2 == 0) {
                data = new byte[random.nextInt(120)];
                for (int i = 0; i < data.length; i++) {
                    data[i] = random.nextInt(4) == 0 ? (byte) random.nextInt(256)
                            : alphabet[random.nextInt(alphabet.length)];
                }
            } else {
                byte[] base = SyslogRecord.decodePayload(cases.get(random.nextInt(cases.size()))[3]);
                int cut = base.length == 0 ? 0 : random.nextInt(base.length + 1);
                data = Arrays.copyOf(base, cut);
                for (int k = random.nextInt(4); k > 0 && data.length > 0; k--) {
                    data[random.nextInt(data.length)] = alphabet[random.nextInt(alphabet.length)];
                }
            }
            SyslogRecord.fill(e, data, hints[round % 3], NOV_2026 + round);
            parsers[round & 1].parse(e);
            assertThat(e.isStampSet()).isTrue();
            assertThat(e.isFieldSet(LogEvent.HOST)).isTrue();
            assertThat(e.fieldOffset(LogEvent.MSG) + e.fieldLength(LogEvent.MSG))
                    .isLessThanOrEqualTo(e.fieldArray(LogEvent.MSG).length);
        }
    }

    @Test
    void warmParserAllocatesNothingPerMessage() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(mx instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported()
                && threads.isThreadAllocatedMemoryEnabled());
        byte[][] inputs = {
            "<34>Oct 11 22:14:15 mymachine su: 'su root' failed".getBytes(StandardCharsets.US_ASCII),
            "<189>123: *Mar  1 18:46:11.315: %SYS-5-CONFIG_I: Configured".getBytes(StandardCharsets.US_ASCII),
            ("<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 "
                + "[exampleSDID@32473 iut=\"3\" eventSource=\"App\\\"lication\"][x@1 a=\"1\"][exampleSDID@32473 "
                + "iut=\"4\" b=\"2\"] An application event, an SD-ID repeated")
                .getBytes(StandardCharsets.US_ASCII),
        };
        LogEvent e = new LogEvent();
        byte[] hint = {LogEvent.FORMAT_RFC3164, LogEvent.FORMAT_RFC3164, LogEvent.FORMAT_AUTO};
        for (int i = 0; i < 20_000; i++) {
            run(e, inputs[i % 3], hint[i % 3]);
        }
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 3_000; i++) {
            run(e, inputs[i % 3], hint[i % 3]);
        }
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        // the measurement itself may allocate a little; 3000 messages with any per-message object would exceed it
        assertThat(allocated).isLessThan(3_000);
    }

    private void run(LogEvent e, byte[] input, byte hint) {
        e.clear();
        e.setRaw(input, 0, input.length);
        e.setPeer(SyslogRecord.PEER, 0, SyslogRecord.PEER.length);
        e.setSource(1, SyslogRecord.PEER, hint, 0L);
        e.setReceivedMillis(NOV_2026);
        utc.parse(e);
    }

    @Test
    void isoDateOfAStampRoundTrips() {
        LogEvent e = proto("<13>1 2024-02-29T23:59:59-03:30 h app - - - x");
        assertThat(OffsetDateTime.parse(stamp(e)).toEpochSecond()).isEqualTo(e.stampEpochSecond());
    }
}
