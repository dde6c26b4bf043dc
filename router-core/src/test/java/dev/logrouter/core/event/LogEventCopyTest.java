package dev.logrouter.core.event;

import static org.assertj.core.api.Assertions.assertThat;

import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Template;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** {@link LogEvent#copyFrom} and {@link LogEvent#copyOf}: a deep copy that shares nothing mutable. */
class LogEventCopyTest {

    private static final String LINE = "<165>1 2003-10-11T22:14:15.000003-07:00 host1 app 77 ID47 "
            + "[ex@32473 a=\"1\" b=\"2\"] hello world";
    private static final String ALL = "${PRI} ${ISODATE} ${HOST} ${PROGRAM} ${PID} ${MSGID} ${SDATA} ${MSG} "
            + "${SOURCE} ${SOURCEIP} ${TAGS} ${x} ${R_UNIXTIME}";

    private static LogEvent parsed() {
        LogEvent e = new LogEvent();
        byte[] b = LINE.getBytes(StandardCharsets.UTF_8);
        e.setRaw(b, 0, b.length);
        byte[] peer = "192.0.2.1".getBytes(StandardCharsets.US_ASCII);
        e.setPeer(peer, 0, peer.length);
        e.setSource(4, "in".getBytes(StandardCharsets.US_ASCII), LogEvent.FORMAT_RFC5424, 5L);
        e.setReceivedMillis(1_700_000_000_123L);
        new SyslogHeaderParser(ZoneOffset.UTC).parse(e);
        e.fields().set("x", "y");
        e.addTag(Tags.id("copy-test-a"));
        e.addTag(Tags.id("copy-test-b"));
        int at = e.auxAppend("composed".getBytes(StandardCharsets.UTF_8), 0, 8);
        e.setFieldIn(LogEvent.MSGID, LogEvent.IN_AUX, at, 8);
        e.addFlag(LogEvent.FLAG_GENERATED);
        return e;
    }

    private static String render(LogEvent e) {
        ByteBuilder out = new ByteBuilder(64);
        Template.compile(ALL, ZoneOffset.UTC).render(e, out);
        return out.toString();
    }

    @Test
    void aCopyRendersLikeTheOriginalAndKeepsEveryProperty() {
        LogEvent src = parsed();
        LogEvent copy = LogEvent.copyOf(src);
        assertThat(render(copy)).isEqualTo(render(src)).contains("host1 app 77 composed [ex@32473 a=\"1\" b=\"2\"]");
        assertThat(copy.pri()).isEqualTo(165);
        assertThat(copy.stampEpochSecond()).isEqualTo(src.stampEpochSecond());
        assertThat(copy.stampMicros()).isEqualTo(3);
        assertThat(copy.stampOffsetSeconds()).isEqualTo(-7 * 3600);
        assertThat(copy.stampFracDigits()).isEqualTo(6);
        assertThat(copy.isStampSet()).isTrue();
        assertThat(copy.sourceId()).isEqualTo(4);
        assertThat(copy.sinkMask()).isEqualTo(5L);
        assertThat(copy.formatHint()).isEqualTo(LogEvent.FORMAT_RFC5424);
        assertThat(copy.hasFlag(LogEvent.FLAG_GENERATED)).isTrue();
        assertThat(copy.tagCount()).isEqualTo(2);
        assertThat(copy.fields().get("x")).isEqualTo("y");
    }

    @Test
    void theCopySharesNoBuffers() {
        LogEvent src = parsed();
        String before = render(src);
        LogEvent copy = new LogEvent();
        copy.fields().set("stale", "value");
        copy.addTag(Tags.id("copy-test-stale"));
        copy.copyFrom(src);
        assertThat(copy.fields().get("stale")).isNull();
        assertThat(copy.hasTag(Tags.id("copy-test-stale"))).isFalse();

        // change the original in every buffer: the copy must not see it
        src.raw()[LINE.indexOf("hello")] = 'J';
        src.aux()[src.fieldOffset(LogEvent.MSGID)] = 'X';
        src.fields().set("x", "changed");
        src.fields().set("new", "n");
        src.addTag(Tags.id("copy-test-c"));
        src.setPeer(new byte[] {'9'}, 0, 1);
        assertThat(render(copy)).isEqualTo(before);
        assertThat(copy.fields().get("new")).isNull();

        // and the other way round
        copy.fields().set("only-in-copy", "1");
        assertThat(src.fields().get("only-in-copy")).isNull();
    }

    @Test
    void fractionDigitsAreSetCopiedAndCleared() {
        LogEvent e = new LogEvent();
        e.setStamp(1_700_000_000L, 3_000, 3600, 3);
        assertThat(e.stampFracDigits()).isEqualTo(3);
        assertThat(LogEvent.copyOf(e).stampFracDigits()).isEqualTo(3);
        e.setStamp(1_700_000_000L, 3_000, 3600);
        assertThat(e.stampFracDigits()).as("the 3-argument stamp has none").isZero();
        e.setStamp(1_700_000_000L, 3_000, 3600, 9);
        assertThat(e.stampFracDigits()).as("at most 6").isEqualTo(6);
        LogEvent reused = LogEvent.copyOf(e);
        reused.copyFrom(new LogEvent());
        assertThat(reused.stampFracDigits()).isZero();
        e.clear();
        assertThat(e.stampFracDigits()).isZero();
    }

    @Test
    void theContextIsNeitherCopiedNorKeptByClear() {
        LogEvent src = parsed();
        new SingleEventContext().enter(src, null); // src now has a context
        assertThat(LogEvent.copyOf(src).context()).isNull();
        src.clear();
        assertThat(src.context()).isNull();
    }
}
