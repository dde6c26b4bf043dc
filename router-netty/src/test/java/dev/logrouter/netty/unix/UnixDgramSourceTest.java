package dev.logrouter.netty.unix;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.source.SyslogFormat;
import dev.logrouter.netty.NettyTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

import static dev.logrouter.netty.unix.UnixTesting.field;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code type: unix-dgram} on a real socket in a temp directory, fed by util-linux logger and by glibc's syslog(3), into
 * a real ring; each message parsed by the real header parser as syslog-ng's unix-dgram() parses it (no HOST in the
 * RFC 3164 header; HOST is the local host name).
 */
class UnixDgramSourceTest {

    private static NettyTransport transport;
    @TempDir
    Path dir;
    private UnixTesting t;
    private UnixDgramSource source;

    @BeforeAll
    static void startLoops() {
        transport = NettyTransport.epoll(1, "unix-test");
    }

    @AfterAll
    static void stopLoops() {
        transport.close();
    }

    @AfterEach
    void stop() {
        if (source != null) {
            source.stopAccepting();
            source.close();
        }
    }

    private Path start(String maxMessageSize) throws Exception {
        Path sock = dir.resolve("log");
        t = new UnixTesting("dgram", 1024);
        source = new UnixDgramSource(new UnixDgramSourceConfig("dgram", sock.toString(), null, null, "0666",
                SyslogFormat.auto, ByteSize.parse(maxMessageSize), ByteSize.parse("0")), transport, t.publisher,
                t.metrics);
        source.start();
        return sock;
    }

    @Test
    void loggerMessagesParseAsSyslogNgUnixDgramParsesThem() throws Exception {
        UnixTesting.assumeLogger();
        Path sock = start("64KiB");
        long pid = UnixTesting.run(List.of("logger", "-u", sock.toString(), "-d", "-t", "myprog", "-i",
                "-p", "local3.warning", "hello dgram"));
        UnixTesting.run(List.of("logger", "-u", sock.toString(), "-d", "-t", "plain", "no pid here"));
        List<LogEvent> events = t.events(2);

        LogEvent first = events.get(0);
        assertThat(UnixTesting.raw(first)).matches("<156>\\w{3} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d myprog\\[\\d+\\]: hello dgram");
        assertThat(first.pri()).isEqualTo(156);
        assertThat(field(first, LogEvent.PROGRAM)).isEqualTo("myprog");
        assertThat(field(first, LogEvent.PID)).isEqualTo(Long.toString(pid));
        assertThat(field(first, LogEvent.MSG)).isEqualTo("hello dgram");
        assertThat(field(first, LogEvent.HOST)).isEqualTo(UnixTesting.localHost());
        assertThat(first.fields().get(".unix.pid")).as("no credentials per datagram through Netty").isNull();

        LogEvent second = events.get(1);
        assertThat(second.pri()).isEqualTo(13);
        assertThat(field(second, LogEvent.PROGRAM)).isEqualTo("plain");
        assertThat(field(second, LogEvent.PID)).isEmpty();
        assertThat(field(second, LogEvent.MSG)).isEqualTo("no pid here");
        assertThat(field(second, LogEvent.HOST)).isEqualTo(UnixTesting.localHost());
        assertThat(t.metrics.value("received")).isEqualTo(2);
    }

    @Test
    void glibcSyslogMessagesParseAsSyslogNgParsesThem() throws Exception {
        Path client = UnixTesting.glibcClient(dir);
        Path sock = start("64KiB");
        long pid = UnixTesting.runGlibcClient(client, sock, "ctest", 3);
        List<LogEvent> events = t.events(4);
        for (int i = 0; i < 3; i++) {
            LogEvent e = events.get(i);
            assertThat(e.pri()).as("local3.warning").isEqualTo(156);
            assertThat(field(e, LogEvent.PROGRAM)).isEqualTo("ctest");
            assertThat(field(e, LogEvent.PID)).isEqualTo(Long.toString(pid));
            assertThat(field(e, LogEvent.MSG)).isEqualTo("glibc message " + i);
            assertThat(field(e, LogEvent.HOST)).isEqualTo(UnixTesting.localHost());
        }
        LogEvent last = events.get(3);
        assertThat(last.pri()).as("daemon.err").isEqualTo(27);
        assertThat(field(last, LogEvent.PROGRAM)).isEqualTo("ctest");
        assertThat(field(last, LogEvent.PID)).isEmpty();
        assertThat(field(last, LogEvent.MSG)).isEqualTo("without pid");
    }

    @Test
    void aDatagramOverMaxMessageSizeIsCutAndCounted() throws Exception {
        UnixTesting.assumeLogger();
        Path sock = start("128B");
        String longText = "x".repeat(300);
        UnixTesting.run(List.of("logger", "-u", sock.toString(), "-d", "-S", "4096", "-t", "big", longText));
        UnixTesting.run(List.of("logger", "-u", sock.toString(), "-d", "-t", "small", "fits"));
        List<LogEvent> events = t.events(2);
        assertThat(events.get(0).rawLength()).isEqualTo(128);
        assertThat(field(events.get(0), LogEvent.PROGRAM)).isEqualTo("big");
        assertThat(field(events.get(0), LogEvent.MSG)).matches("x+").hasSizeLessThan(128);
        assertThat(field(events.get(1), LogEvent.MSG)).isEqualTo("fits");
        assertThat(t.metrics.value("truncated")).isEqualTo(1);
    }

    @Test
    void theSocketFileIsGoneAfterStop() throws Exception {
        Path sock = start("64KiB");
        assertThat(Files.exists(sock, LinkOption.NOFOLLOW_LINKS)).isTrue();
        assertThat(source.boundAddress()).isEqualTo(sock.toString());
        source.stopAccepting();
        source.close();
        source = null;
        assertThat(Files.exists(sock, LinkOption.NOFOLLOW_LINKS)).isFalse();
    }
}
