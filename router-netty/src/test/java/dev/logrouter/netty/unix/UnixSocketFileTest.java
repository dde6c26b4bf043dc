package dev.logrouter.netty.unix;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.source.Source;
import dev.logrouter.core.source.SyslogFormat;
import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.tcp.Framing;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The socket file of both Unix sources, on a real file system: a stale socket at the path is replaced, anything else
 * there is refused and left alone, a missing directory is named, perm, owner and group are applied, and the file is
 * gone after stop.
 */
class UnixSocketFileTest {

    private static NettyTransport transport;
    @TempDir
    Path dir;
    private UnixTesting t;
    private Source source;

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

    private Source stream(Path path, String owner, String group, String perm) {
        t = new UnixTesting("stream", 1024);
        return new UnixStreamSource(new UnixStreamSourceConfig("stream", path.toString(), owner, group, perm,
                Framing.auto, SyslogFormat.auto, ByteSize.parse("64KiB"), 16, ByteSize.parse("0")), transport,
                t.publisher, t.metrics);
    }

    private Source dgram(Path path, String owner, String group, String perm) {
        t = new UnixTesting("dgram", 1024);
        return new UnixDgramSource(new UnixDgramSourceConfig("dgram", path.toString(), owner, group, perm,
                SyslogFormat.auto, ByteSize.parse("64KiB"), ByteSize.parse("0")), transport, t.publisher, t.metrics);
    }

    private static int mode(Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
    }

    private static void send(Path sock, String text) throws IOException {
        try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(sock))) {
            c.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void aStaleSocketIsReplaced() throws Exception {
        Path sock = dir.resolve("log");
        // a socket left behind by a process that ended: Java does not remove its file on close
        try (ServerSocketChannel old = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            old.bind(UnixDomainSocketAddress.of(sock));
        }
        assertThat(mode(sock) & 0170000).as("a socket").isEqualTo(0140000);
        source = stream(sock, null, null, "0666");
        source.start();
        send(sock, "<13>Nov 22 10:00:00 app: after the stale socket\n");
        LogEvent e = t.events(1).get(0);
        assertThat(UnixTesting.field(e, LogEvent.MSG)).isEqualTo("after the stale socket");
    }

    @Test
    void aRegularFileAtPathIsRefusedAndKept() throws Exception {
        Path file = dir.resolve("log");
        Files.writeString(file, "not a socket");
        for (Source s : new Source[]{stream(file, null, null, "0666"), dgram(file, null, null, "0666")}) {
            assertThatThrownBy(s::start).isInstanceOf(IOException.class)
                    .hasMessageContaining(file.toString())
                    .hasMessageContaining("a regular file, not a socket: refusing to replace it");
            s.close();
        }
        assertThat(Files.readString(file)).isEqualTo("not a socket");
    }

    @Test
    void aSymbolicLinkAtPathIsRefusedAsSystemdsDevLogWouldBe() throws Exception {
        Path target = dir.resolve("journal-dev-log");
        try (ServerSocketChannel journald = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            journald.bind(UnixDomainSocketAddress.of(target));
            Path link = Files.createSymbolicLink(dir.resolve("log"), target);
            Source s = dgram(link, null, null, "0666");
            assertThatThrownBy(s::start).isInstanceOf(IOException.class)
                    .hasMessageContaining("a symbolic link, not a socket")
                    .hasMessageContaining("journald");
            s.close();
            assertThat(Files.isSymbolicLink(link)).isTrue();
            assertThat(Files.exists(target, LinkOption.NOFOLLOW_LINKS)).isTrue();
        }
    }

    @Test
    void aMissingDirectoryIsNamed() {
        Path sock = dir.resolve("no-such-dir").resolve("log");
        Source s = dgram(sock, null, null, "0666");
        assertThatThrownBy(s::start).isInstanceOf(IOException.class)
                .hasMessageContaining("the directory of path " + sock + " does not exist");
        s.close();
    }

    @Test
    void permOwnerAndGroupAreApplied() throws Exception {
        Path a = dir.resolve("a.sock");
        Path b = dir.resolve("b.sock");
        Source first = stream(a, "nobody", "65534", "0620");
        Source second = dgram(b, "65534", "nogroup", "600");
        try {
            first.start();
            second.start();
            assertThat(mode(a) & 07777).isEqualTo(0620);
            assertThat(mode(b) & 07777).isEqualTo(0600);
            for (Path p : new Path[]{a, b}) {
                assertThat(Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS)).isEqualTo(65534);
                assertThat(Files.getAttribute(p, "unix:gid", LinkOption.NOFOLLOW_LINKS)).isEqualTo(65534);
            }
        } finally {
            first.stopAccepting();
            first.close();
            second.stopAccepting();
            second.close();
        }
        assertThat(Files.exists(a, LinkOption.NOFOLLOW_LINKS)).as("gone after stop").isFalse();
        assertThat(Files.exists(b, LinkOption.NOFOLLOW_LINKS)).as("gone after stop").isFalse();
    }

    @Test
    void anUnknownOwnerFailsTheStartAndLeavesNoSocket() {
        Path sock = dir.resolve("log");
        Source s = dgram(sock, "no-such-user-here", null, "0666");
        assertThatThrownBy(s::start).isInstanceOf(IOException.class).hasMessageContaining("no-such-user-here");
        s.close();
        assertThat(Files.exists(sock, LinkOption.NOFOLLOW_LINKS)).isFalse();
    }
}
