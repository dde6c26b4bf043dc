package dev.logrouter.core.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;

import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * {@code $(format-syslog-rfc5424)} on real legacy and RFC 5424 lines: NILVALUEs, structured data, header
 * fields made valid for their slots, and a re-parse of the output giving the same fields.
 */
class FormatSyslogRfc5424Test {

    private static String render(LogEvent e) {
        ByteBuilder out = new ByteBuilder(16);
        Template.compile("$(format-syslog-rfc5424)", ZoneOffset.UTC).render(e, out);
        return out.toString();
    }

    @Test
    void aLegacyLineGetsNilvaluesForWhatItLacks() {
        LogEvent e = FormatJsonTest.bsd("<34>Oct 11 22:14:15 mymachine su[123]: 'su root' failed");
        assertThat(render(e)).isEqualTo("<34>1 2026-10-11T22:14:15+00:00 mymachine su 123 - - 'su root' failed");
        LogEvent noPid = FormatJsonTest.bsd("<13>Oct 11 22:14:15 host cron: x");
        assertThat(render(noPid)).isEqualTo("<13>1 2026-10-11T22:14:15+00:00 host cron - - - x");
    }

    @Test
    void anRfc5424LineComesBackWithItsStructuredData() {
        String sd = "[exampleSDID@32473 iut=\"3\" eventSource=\"App\\\"lication\"][origin ip=\"10.0.0.1\"]";
        LogEvent e = FormatJsonTest.ietf("<165>1 2003-10-11T22:14:15.000003-07:00 mymachine.example.com evntslog 77 "
                + "ID47 " + sd + " An application event");
        String out = render(e);
        assertThat(out).isEqualTo("<165>1 2003-10-11T22:14:15-07:00 mymachine.example.com evntslog 77 ID47 " + sd
                + " An application event");
        // and it parses back to the same fields
        LogEvent again = FormatJsonTest.ietf(out);
        ByteBuilder a = new ByteBuilder(16);
        ByteBuilder b = new ByteBuilder(16);
        Template t = Template.compile("${PRI}|${HOST}|${PROGRAM}|${PID}|${MSGID}|${SDATA}|${MSG}", ZoneOffset.UTC);
        t.render(e, a);
        t.render(again, b);
        assertThat(b.toString()).isEqualTo(a.toString());
    }

    @Test
    void emptyMessageLeavesOutTheSpaceAndBadHeaderBytesAreReplaced() {
        LogEvent e = FormatJsonTest.ietf("<14>1 2024-01-01T00:00:00Z h app - - -");
        assertThat(render(e)).isEqualTo("<14>1 2024-01-01T00:00:00+00:00 h app - - -");
        byte[] host = "bad host\u0001".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int at = e.auxAppend(host, 0, host.length);
        e.setFieldIn(LogEvent.HOST, LogEvent.IN_AUX, at, host.length);
        byte[] longId = "m".repeat(40).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        at = e.auxAppend(longId, 0, longId.length);
        e.setFieldIn(LogEvent.MSGID, LogEvent.IN_AUX, at, longId.length);
        assertThat(render(e)).isEqualTo("<14>1 2024-01-01T00:00:00+00:00 bad_host_ app - " + "m".repeat(32) + " -");
    }

    @Test
    void theTemplateFunctionWritesWholeSeconds() {
        LogEvent e = FormatJsonTest.ietf("<13>1 2026-11-22T22:14:15.003Z h app - - - x");
        assertThat(render(e)).isEqualTo("<13>1 2026-11-22T22:14:15+00:00 h app - - - x");
        assertThat(header(FormatSyslogRfc5424.forZone(ZoneOffset.UTC), e))
                .startsWith("<13>1 2026-11-22T22:14:15+00:00 ");
    }

    private static String header(FormatSyslogRfc5424 f, LogEvent e) {
        ByteBuilder out = new ByteBuilder(16);
        f.render(e, out);
        return out.toString();
    }

    private static String stampAsRelayed(String stamp, int fracDigits) {
        LogEvent e = FormatJsonTest.ietf("<13>1 " + stamp + " h app - - - x");
        String out = header(FormatSyslogRfc5424.forZone(ZoneOffset.UTC, fracDigits), e);
        assertThat(out).startsWith("<13>1 ").endsWith(" h app - - - x");
        return out.substring("<13>1 ".length(), out.length() - " h app - - - x".length());
    }

    @Test
    void aRelayWritesTheFractionAsReceivedInTheStampsOwnOffset() {
        int asReceived = FormatSyslogRfc5424.FRAC_AS_RECEIVED;
        assertThat(stampAsRelayed("2026-11-22T22:14:15Z", asReceived)).isEqualTo("2026-11-22T22:14:15+00:00");
        assertThat(stampAsRelayed("2026-11-22T22:14:15.1Z", asReceived)).isEqualTo("2026-11-22T22:14:15.1+00:00");
        assertThat(stampAsRelayed("2026-11-22T22:14:15.003Z", asReceived)).isEqualTo("2026-11-22T22:14:15.003+00:00");
        assertThat(stampAsRelayed("2026-11-22T22:14:15.000000-05:00", asReceived))
                .isEqualTo("2026-11-22T22:14:15.000000-05:00");
        assertThat(stampAsRelayed("2026-11-22T10:00:00.123456+02:00", asReceived))
                .isEqualTo("2026-11-22T10:00:00.123456+02:00");
        assertThat(stampAsRelayed("2026-11-22T22:14:15.123456789-05:00", asReceived))
                .isEqualTo("2026-11-22T22:14:15.123456-05:00");
    }

    @Test
    void forcedFractionDigitsCutOrPadTheMicroseconds() {
        assertThat(stampAsRelayed("2026-11-22T22:14:15.123456-05:00", 0)).isEqualTo("2026-11-22T22:14:15-05:00");
        assertThat(stampAsRelayed("2026-11-22T22:14:15.123456-05:00", 3)).isEqualTo("2026-11-22T22:14:15.123-05:00");
        assertThat(stampAsRelayed("2026-11-22T22:14:15.1Z", 3)).isEqualTo("2026-11-22T22:14:15.100+00:00");
        assertThat(stampAsRelayed("2026-11-22T22:14:15.003Z", 6)).isEqualTo("2026-11-22T22:14:15.003000+00:00");
        assertThat(stampAsRelayed("2026-11-22T22:14:15Z", 6)).isEqualTo("2026-11-22T22:14:15.000000+00:00");
        assertThat(stampAsRelayed("2026-11-22T22:14:15.999999Z", 1)).as("cut, not rounded")
                .isEqualTo("2026-11-22T22:14:15.9+00:00");
        assertThatThrownBy(() -> FormatSyslogRfc5424.forZone(ZoneOffset.UTC, 7))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0..6");
    }

    @Test
    void aRenderedFractionParsesBackToTheSameStamp() {
        FormatSyslogRfc5424 f = FormatSyslogRfc5424.forZone(ZoneOffset.UTC, FormatSyslogRfc5424.FRAC_AS_RECEIVED);
        for (String stamp : new String[] {"2003-10-11T22:14:15.000003-07:00", "2026-11-22T22:14:15.5+05:30",
                "2026-11-22T22:14:15.12Z"}) {
            LogEvent e = FormatJsonTest.ietf("<13>1 " + stamp + " h app - - - x");
            LogEvent again = FormatJsonTest.ietf(header(f, e));
            assertThat(again.stampEpochSecond()).as(stamp).isEqualTo(e.stampEpochSecond());
            assertThat(again.stampMicros()).as(stamp).isEqualTo(e.stampMicros());
            assertThat(again.stampOffsetSeconds()).as(stamp).isEqualTo(e.stampOffsetSeconds());
            assertThat(again.stampFracDigits()).as(stamp).isEqualTo(e.stampFracDigits());
            assertThat(header(f, again)).isEqualTo(header(f, e));
        }
    }

    @Test
    void repeatedSdIdsAreWrittenAsTheyCame() {
        String sd = "[meta a=\"1\"][x@1 b=\"2\"][meta c=\"3\"]";
        LogEvent e = FormatJsonTest.ietf("<13>1 2026-11-22T22:14:15Z h app - - " + sd + " x");
        assertThat(render(e)).isEqualTo("<13>1 2026-11-22T22:14:15+00:00 h app - - " + sd + " x");
    }

    @Test
    void takesNoArguments() {
        assertThatThrownBy(() -> Template.compile("$(format-syslog-rfc5424 --x)", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("takes no arguments");
        new SyslogHeaderParser(ZoneOffset.UTC); // the parser used above is the production one
    }
}
