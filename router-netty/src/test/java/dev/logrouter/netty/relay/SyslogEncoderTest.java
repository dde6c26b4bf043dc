package dev.logrouter.netty.relay;

import dev.logrouter.core.config.ComponentRegistry;
import dev.logrouter.core.config.ConfigLoader;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.option.ConfigException;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.sink.SinkContext;
import dev.logrouter.core.sink.SinkEncoder;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.util.Clock;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * What the syslog sink writes for one event: {@code type: syslog} loaded from YAML as every build loads it, its
 * {@link SyslogEncoder} fed events parsed by the real header parser. RFC 5424 timestamps keep the fraction of a
 * second they came with (or {@code frac-digits} of it) in their own offset; repeated SD-IDs leave as they came;
 * RFC 3164 and raw output are unchanged.
 */
class SyslogEncoderTest {

    private static final long RECEIVED = Instant.parse("2026-11-22T06:14:00.123Z").toEpochMilli();

    private final ConfigLoader loader = ComponentRegistry.load().loader();
    private final SyslogHeaderParser parser = new SyslogHeaderParser(ZoneOffset.UTC);

    private SyslogSinkConfig config(String options) throws ConfigException {
        return (SyslogSinkConfig) loader.load("sources:\n  - {name: in, type: tcp, bind: \"127.0.0.1:0\"}\n"
                + "sinks:\n  - {name: out, type: syslog, hosts: [\"127.0.0.1:6514\"]"
                + (options.isEmpty() ? "" : ", " + options) + "}\n", "router.yaml").sinks().get(0);
    }

    private SinkEncoder encoder(String options) throws ConfigException {
        SyslogSinkConfig cfg = config(options);
        return cfg.encoder(new SinkContext(cfg.name(), ZoneOffset.UTC, Clock.SYSTEM, new MetricGroup("Sink", "out"),
                null));
    }

    private LogEvent event(String line, byte hint) {
        LogEvent e = new LogEvent();
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        e.setRaw(b, 0, b.length);
        byte[] peer = "192.0.2.7".getBytes(StandardCharsets.US_ASCII);
        e.setPeer(peer, 0, peer.length);
        e.setSource(1, "in".getBytes(StandardCharsets.US_ASCII), hint, 1L);
        e.setReceivedMillis(RECEIVED);
        parser.parse(e);
        return e;
    }

    private static String encode(SinkEncoder encoder, LogEvent e) {
        ByteBuilder out = new ByteBuilder(64);
        encoder.encode(e, out);
        return out.toString();
    }

    /** The rfc5424 line the sink writes for {@code <13>1 STAMP h app - - - x} (octet count and all). */
    private String relayed(SinkEncoder encoder, String stamp) {
        return encode(encoder, event("<13>1 " + stamp + " h app - - - x", LogEvent.FORMAT_RFC5424));
    }

    private static String framed(String message) {
        return message.getBytes(StandardCharsets.UTF_8).length + " " + message;
    }

    @Test
    void rfc5424KeepsTheFractionDigitsAsReceived() throws Exception {
        SinkEncoder enc = encoder("");
        assertThat(relayed(enc, "2026-11-22T22:14:15Z"))
                .isEqualTo(framed("<13>1 2026-11-22T22:14:15+00:00 h app - - - x"));
        assertThat(relayed(enc, "2026-11-22T22:14:15.1Z"))
                .isEqualTo(framed("<13>1 2026-11-22T22:14:15.1+00:00 h app - - - x"));
        assertThat(relayed(enc, "2026-11-22T22:14:15.003Z"))
                .isEqualTo(framed("<13>1 2026-11-22T22:14:15.003+00:00 h app - - - x"));
        assertThat(relayed(enc, "2026-11-22T22:14:15.123456Z"))
                .isEqualTo(framed("<13>1 2026-11-22T22:14:15.123456+00:00 h app - - - x"));
        assertThat(relayed(enc, "2026-11-22T22:14:15.123456789Z")).as("9 digits: cut to 6")
                .isEqualTo(framed("<13>1 2026-11-22T22:14:15.123456+00:00 h app - - - x"));
    }

    @Test
    void rfc5424KeepsTheStampsOwnOffset() throws Exception {
        SinkEncoder enc = encoder("");
        assertThat(relayed(enc, "2026-11-22T22:14:15.003-05:00"))
                .isEqualTo(framed("<13>1 2026-11-22T22:14:15.003-05:00 h app - - - x"));
        assertThat(relayed(enc, "2026-11-22T10:00:00.123456+02:00"))
                .isEqualTo(framed("<13>1 2026-11-22T10:00:00.123456+02:00 h app - - - x"));
        assertThat(relayed(enc, "2026-11-22T22:14:15-05:00"))
                .isEqualTo(framed("<13>1 2026-11-22T22:14:15-05:00 h app - - - x"));
    }

    @Test
    void fracDigitsForcesTheNumberOfDigits() throws Exception {
        SinkEncoder zero = encoder("frac-digits: 0");
        SinkEncoder three = encoder("frac-digits: 3");
        SinkEncoder six = encoder("frac-digits: 6");
        String[][] cases = {
            // stamp, frac-digits 0, 3, 6
            {"2026-11-22T22:14:15Z", "22:14:15+00:00", "22:14:15.000+00:00", "22:14:15.000000+00:00"},
            {"2026-11-22T22:14:15.1Z", "22:14:15+00:00", "22:14:15.100+00:00", "22:14:15.100000+00:00"},
            {"2026-11-22T22:14:15.003-05:00", "22:14:15-05:00", "22:14:15.003-05:00", "22:14:15.003000-05:00"},
            {"2026-11-22T22:14:15.123456Z", "22:14:15+00:00", "22:14:15.123+00:00", "22:14:15.123456+00:00"},
            {"2026-11-22T22:14:15.999999999Z", "22:14:15+00:00", "22:14:15.999+00:00", "22:14:15.999999+00:00"},
        };
        for (String[] c : cases) {
            assertThat(relayed(zero, c[0])).as("%s, frac-digits 0", c[0])
                    .isEqualTo(framed("<13>1 2026-11-22T" + c[1] + " h app - - - x"));
            assertThat(relayed(three, c[0])).as("%s, frac-digits 3", c[0])
                    .isEqualTo(framed("<13>1 2026-11-22T" + c[2] + " h app - - - x"));
            assertThat(relayed(six, c[0])).as("%s, frac-digits 6", c[0])
                    .isEqualTo(framed("<13>1 2026-11-22T" + c[3] + " h app - - - x"));
        }
    }

    @Test
    void theReceiveTimeAndLegacyStampsHaveNoFractionUnlessForced() throws Exception {
        LogEvent nil = event("<13>1 - h app - - - x", LogEvent.FORMAT_RFC5424);
        assertThat(encode(encoder(""), nil)).isEqualTo(framed("<13>1 2026-11-22T06:14:00+00:00 h app - - - x"));
        assertThat(encode(encoder("frac-digits: 3"), nil))
                .isEqualTo(framed("<13>1 2026-11-22T06:14:00.123+00:00 h app - - - x"));
        LogEvent bsd = event("<13>Nov 22 22:14:15.25 h app: x", LogEvent.FORMAT_RFC3164);
        assertThat(encode(encoder(""), bsd)).isEqualTo(framed("<13>1 2026-11-22T22:14:15.25+00:00 h app - - - x"));
    }

    @Test
    void aBodyTemplateKeepsTheFractionInTheHeader() throws Exception {
        LogEvent e = event("<13>1 2026-11-22T22:14:15.003Z h app - - - x", LogEvent.FORMAT_RFC5424);
        assertThat(encode(encoder("template: \"body ${MSG}\", framing: lf"), e))
                .isEqualTo("<13>1 2026-11-22T22:14:15.003+00:00 h app - - - body x\n");
    }

    @Test
    void repeatedSdIdsLeaveAsTheyCame() throws Exception {
        String sd = "[meta a=\"1\"][x@1 b=\"2\"][meta c=\"3\"]";
        LogEvent e = event("<13>1 2026-11-22T22:14:15.003Z h app - - " + sd + " x", LogEvent.FORMAT_RFC5424);
        assertThat(encode(encoder(""), e)).isEqualTo(framed("<13>1 2026-11-22T22:14:15.003+00:00 h app - - " + sd
                + " x"));
    }

    @Test
    void rfc3164AndRawAreUnchanged() throws Exception {
        LogEvent e = event("<13>1 2026-11-22T22:14:15.003-05:00 h app 7 - [meta a=\"1\"] x", LogEvent.FORMAT_RFC5424);
        assertThat(encode(encoder("format: rfc3164"), e)).isEqualTo("<13>Nov 22 22:14:15 h app[7]: x\n");
        assertThat(encode(encoder("format: rfc3164, frac-digits: 6"), e))
                .isEqualTo("<13>Nov 22 22:14:15 h app[7]: x\n");
        String raw = "<13>1 2026-11-22T22:14:15.003-05:00 h app 7 - [meta a=\"1\"] x";
        assertThat(encode(encoder("format: raw, frac-digits: 6"), e)).isEqualTo(framed(raw));
    }

    @Test
    void aWarmEncoderAllocatesNothingPerEvent() throws Exception {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(mx instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        LogEvent[] events = {
            event("<13>1 2026-11-22T22:14:15.003-05:00 h app - - [meta a=\"1\"][x@1 b=\"2\"][meta c=\"3\"] x",
                    LogEvent.FORMAT_RFC5424),
            event("<13>1 2026-11-22T22:14:16.123456Z h app - - - y", LogEvent.FORMAT_RFC5424),
        };
        SinkEncoder asReceived = encoder("");
        SinkEncoder three = encoder("frac-digits: 3");
        ByteBuilder out = new ByteBuilder(256);
        for (int i = 0; i < 20_000; i++) {
            out.reset();
            asReceived.encode(events[i % 2], out);
            three.encode(events[i % 2], out);
        }
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 3_000; i++) {
            out.reset();
            asReceived.encode(events[i % 2], out);
            three.encode(events[i % 2], out);
        }
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        // the measurement itself may allocate a little; 6000 encodings with any per-event object would exceed it
        assertThat(allocated).isLessThan(3_000);
    }

    @Test
    void fracDigitsOutside0To6IsRefused() throws Exception {
        for (String bad : new String[] {"7", "-1"}) {
            Throwable t = catchThrowable(() -> config("frac-digits: " + bad));
            assertThat(t).as(bad).isInstanceOf(ConfigException.class);
            assertThat(t.getMessage()).as(bad).contains("frac-digits must be 0..6").contains("got " + bad);
        }
        assertThat(config("").fracDigits()).isNull();
        assertThat(config("frac-digits: 0").fracDigits()).isZero();
    }
}
