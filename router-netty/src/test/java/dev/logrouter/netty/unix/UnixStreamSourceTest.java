package dev.logrouter.netty.unix;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.source.SyslogFormat;
import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.tcp.Framing;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static dev.logrouter.netty.unix.UnixTesting.field;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code type: unix-stream} on a real socket in a temp directory, fed by util-linux logger (LF-terminated), by glibc's
 * syslog(3) (NUL-terminated) and by many connections at once, into a real ring; messages parsed by the real header
 * parser as syslog-ng's unix-stream() parses them, each carrying its connection's peer credentials.
 */
class UnixStreamSourceTest {

    private static NettyTransport transport;
    @TempDir
    Path dir;
    private UnixTesting t;
    private UnixStreamSource source;

    @BeforeAll
    static void startLoops() {
        transport = NettyTransport.epoll(2, "unix-test");
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

    private Path start(int ringSize, int maxConnections) throws Exception {
        Path sock = dir.resolve("log");
        t = new UnixTesting("stream", ringSize);
        source = new UnixStreamSource(new UnixStreamSourceConfig("stream", sock.toString(), null, null, "0666",
                Framing.auto, SyslogFormat.auto, ByteSize.parse("64KiB"), maxConnections, ByteSize.parse("0")),
                transport, t.publisher, t.metrics);
        source.start();
        return sock;
    }

    private static String own(String attribute) throws IOException {
        return Files.getAttribute(Path.of("/proc/self"), "unix:" + attribute, LinkOption.NOFOLLOW_LINKS).toString();
    }

    @Test
    void loggerMessagesParseAsSyslogNgUnixStreamParsesThem() throws Exception {
        UnixTesting.assumeLogger();
        Path sock = start(1024, 16);
        long pid = UnixTesting.run(List.of("logger", "-u", sock.toString(), "-T", "-t", "sp", "-i",
                "-p", "mail.info", "hello stream"));
        LogEvent e = t.events(1).get(0);
        assertThat(UnixTesting.raw(e)).endsWith("sp[" + pid + "]: hello stream");
        assertThat(e.pri()).as("mail.info").isEqualTo(22);
        assertThat(field(e, LogEvent.PROGRAM)).isEqualTo("sp");
        assertThat(field(e, LogEvent.PID)).isEqualTo(Long.toString(pid));
        assertThat(field(e, LogEvent.MSG)).isEqualTo("hello stream");
        assertThat(field(e, LogEvent.HOST)).isEqualTo(UnixTesting.localHost());
        assertThat(e.fields().get(".unix.pid")).isEqualTo(Long.toString(pid));
        assertThat(e.fields().get(".unix.uid")).isEqualTo(own("uid"));
        assertThat(e.fields().get(".unix.gid")).isEqualTo(own("gid"));
        assertThat(t.await("acceptedConnections", 1)).isTrue();
    }

    @Test
    void glibcSyslogMessagesEndWithNulAndParseAsSyslogNgParsesThem() throws Exception {
        Path client = UnixTesting.glibcClient(dir);
        Path sock = start(1024, 16);
        long pid = UnixTesting.runGlibcClient(client, sock, "ctest", 3);
        // closelog() and openlog(): the last message comes on a second connection, which may overtake the first's
        List<LogEvent> events = new ArrayList<>(t.events(4));
        LogEvent last = events.stream().filter(e -> field(e, LogEvent.PID).isEmpty()).findFirst().orElseThrow();
        events.remove(last);
        for (int i = 0; i < 3; i++) {
            LogEvent e = events.get(i);
            assertThat(UnixTesting.raw(e)).as("one message per NUL-terminated write").doesNotContain("\0")
                    .endsWith("ctest[" + pid + "]: glibc message " + i);
            assertThat(e.pri()).as("local3.warning").isEqualTo(156);
            assertThat(field(e, LogEvent.PROGRAM)).isEqualTo("ctest");
            assertThat(field(e, LogEvent.PID)).isEqualTo(Long.toString(pid));
            assertThat(field(e, LogEvent.MSG)).isEqualTo("glibc message " + i);
            assertThat(field(e, LogEvent.HOST)).isEqualTo(UnixTesting.localHost());
            assertThat(e.fields().get(".unix.pid")).isEqualTo(Long.toString(pid));
            assertThat(e.fields().get(".unix.uid")).isEqualTo(own("uid"));
        }
        assertThat(last.pri()).as("daemon.err").isEqualTo(27);
        assertThat(field(last, LogEvent.PROGRAM)).isEqualTo("ctest");
        assertThat(field(last, LogEvent.PID)).isEmpty();
        assertThat(field(last, LogEvent.MSG)).isEqualTo("without pid");
        assertThat(t.metrics.value("received")).isEqualTo(4);
        assertThat(t.metrics.value("acceptedConnections")).as("closelog and openlog: a second connection")
                .isEqualTo(2);
    }

    @Test
    void thousandMessagesOverFourConnectionsAllArrive() throws Exception {
        Path sock = start(2048, 16);
        int perConnection = 250;
        List<SocketChannel> conns = new ArrayList<>();
        try {
            for (int c = 0; c < 4; c++) {
                conns.add(SocketChannel.open(UnixDomainSocketAddress.of(sock)));
            }
            // interleaved, in small writes: LF on two connections, NUL (glibc) on one, octet counting on one
            for (int i = 0; i < perConnection; i++) {
                for (int c = 0; c < 4; c++) {
                    String msg = "<14>Nov 22 10:00:00 load[" + c + "]: c" + c + " m" + i;
                    String framed = switch (c) {
                        case 0, 1 -> msg + "\n";
                        case 2 -> msg + "\0";
                        default -> msg.getBytes(StandardCharsets.UTF_8).length + " " + msg;
                    };
                    ByteBuffer b = ByteBuffer.wrap(framed.getBytes(StandardCharsets.UTF_8));
                    while (b.hasRemaining()) {
                        conns.get(c).write(b);
                    }
                }
            }
        } finally {
            for (SocketChannel c : conns) {
                c.close();
            }
        }
        List<LogEvent> events = t.events(4 * perConnection);
        Set<String> seen = new HashSet<>();
        String pid = Long.toString(ProcessHandle.current().pid());
        for (LogEvent e : events) {
            assertThat(seen.add(field(e, LogEvent.MSG))).as("no duplicate: %s", field(e, LogEvent.MSG)).isTrue();
            assertThat(e.pri()).isEqualTo(14);
            assertThat(field(e, LogEvent.PROGRAM)).isEqualTo("load");
            assertThat(e.fields().get(".unix.pid")).isEqualTo(pid);
        }
        for (int c = 0; c < 4; c++) {
            for (int i = 0; i < perConnection; i++) {
                assertThat(seen).contains("c" + c + " m" + i);
            }
        }
        assertThat(t.metrics.value("acceptedConnections")).isEqualTo(4);
        assertThat(t.metrics.value("emptyFrames")).isZero();
        source.stopAccepting();
        assertThat(source.awaitPublished(10, TimeUnit.SECONDS)).isTrue();
        assertThat(t.metrics.value("received")).isEqualTo(4 * perConnection);
    }

    @Test
    void connectionsBeyondMaxConnectionsAreRefusedAndCounted() throws Exception {
        Path sock = start(1024, 1);
        try (SocketChannel first = SocketChannel.open(UnixDomainSocketAddress.of(sock))) {
            first.write(ByteBuffer.wrap("<13>Nov 22 10:00:00 a: first\n".getBytes(StandardCharsets.UTF_8)));
            assertThat(t.await("received", 1)).isTrue();
            try (SocketChannel second = SocketChannel.open(UnixDomainSocketAddress.of(sock))) {
                assertThat(second.read(ByteBuffer.allocate(1))).as("closed by the router").isEqualTo(-1);
            }
            assertThat(t.metrics.value("rejectedConnections")).isEqualTo(1);
            assertThat(t.metrics.value("connections")).isEqualTo(1);
        }
    }
}
