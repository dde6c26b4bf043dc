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
    void takesNoArguments() {
        assertThatThrownBy(() -> Template.compile("$(format-syslog-rfc5424 --x)", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("takes no arguments");
        new SyslogHeaderParser(ZoneOffset.UTC); // the parser used above is the production one
    }
}
