package dev.logrouter.netty.unix;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.source.Source;
import dev.logrouter.core.source.SourceContext;
import dev.logrouter.core.source.SyslogFormat;
import dev.logrouter.core.testing.Conditions;
import dev.logrouter.core.util.SharedResources;
import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.tcp.Framing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The event loops a Unix source gets when the router builds it: the shared network loops when they are epoll ones, an
 * epoll group of the Unix sources' own when the network loops are NIO ({@code -Dlogrouter.nio=true}); either way the
 * source built from its config record receives, and its events carry the no-hostname hint.
 */
class UnixLoopsTest {

    @TempDir
    Path dir;

    private static SourceContext context(SharedResources shared, RingBuffer<LogEvent> ring, MetricGroup metrics) {
        return new SourceContext("s", 3, ZoneOffset.UTC, metrics, ring, () -> -1L, 1, shared);
    }

    private void receivesThrough(SharedResources shared) throws Exception {
        RingBuffer<LogEvent> ring = RingBuffer.createMultiProducer(LogEvent.FACTORY, 64);
        ring.addGatingSequences(new Sequence(-1));
        MetricGroup metrics = new MetricGroup("Source", "s");
        Path sock = dir.resolve("s-" + System.nanoTime() + ".sock");
        Source source = new UnixStreamSourceConfig("s", sock.toString(), null, null, "0666", Framing.auto,
                SyslogFormat.rfc3164, ByteSize.parse("64KiB"), 4, ByteSize.parse("0"))
                .create(context(shared, ring, metrics));
        source.start();
        try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(sock))) {
            c.write(ByteBuffer.wrap("<13>Nov 22 10:00:00 app: via the loops\0".getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(Conditions.await(() -> metrics.value("received") == 1 && ring.isAvailable(0),
                Duration.ofSeconds(10))).isTrue();
        source.stopAccepting();
        assertThat(source.awaitPublished(5, TimeUnit.SECONDS)).isTrue();
        source.close();
        LogEvent e = ring.get(0);
        assertThat(e.formatHint()).isEqualTo(LogEvent.FORMAT_RFC3164);
        assertThat(e.noHostname()).isTrue();
        assertThat(e.sourceId()).isEqualTo(3);
    }

    @Test
    void epollNetworkLoopsAreShared() throws Exception {
        try (SharedResources shared = new SharedResources()) {
            receivesThrough(shared);
            NettyTransport net = shared.get(NettyTransport.class, () -> {
                throw new AssertionError("the source should have made the network loops");
            });
            assertThat(net.isEpoll()).isTrue();
            assertThat(shared.get(UnixLoops.class, () -> null)).as("no loops of their own").isNull();
        }
    }

    @Test
    void withNioNetworkLoopsTheUnixSourcesHaveEpollLoopsOfTheirOwn() throws Exception {
        String before = System.setProperty("logrouter.nio", "true");
        try (SharedResources shared = new SharedResources()) {
            receivesThrough(shared);
            shared.get(UnixLoops.class, () -> {
                throw new AssertionError("the source should have made the Unix loops");
            });
            NettyTransport net = shared.get(NettyTransport.class, () -> new NettyTransport(1));
            assertThat(net.isEpoll()).as("the network sources' loops stay NIO").isFalse();
        } finally {
            if (before == null) {
                System.clearProperty("logrouter.nio");
            } else {
                System.setProperty("logrouter.nio", before);
            }
        }
    }
}
