package dev.logrouter.netty.tcp;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.source.SyslogFormat;
import dev.logrouter.core.testing.Conditions;
import dev.logrouter.netty.HostPort;
import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.RingPublisher;
import org.junit.jupiter.api.Test;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Frames that span a TCP source's reads, over loopback into a real ring: every line arrives whole and in its
 * connection's order, whether the partial line a read ends with goes into the room in front of the next read
 * ({@link HeadroomRecvAllocator}, {@link HeadroomCumulator}: lines shorter than the room) or is merged as Netty
 * merges (longer lines), and while a small ring makes the source stop and resume reading (the consumer starts only
 * once the source has stopped reading).
 *
 * <p>Threads: the JUnit thread sends; the source's event loop publishes; a test thread consumes the ring.
 */
class TcpReadsTest {

    private static final int CONNECTIONS = 3;
    private static final int LINES = 6000;

    @Test
    void linesSpanningReadsArriveWholeAndInOrder() throws Exception {
        RingBuffer<LogEvent> ring = RingBuffer.createMultiProducer(LogEvent.FACTORY, 256, new BlockingWaitStrategy());
        Sequence consumed = new Sequence(-1);
        ring.addGatingSequences(consumed);
        SequenceBarrier barrier = ring.newBarrier();
        List<String> frames = new ArrayList<>(); // the consumer's; read after it ended
        AtomicInteger received = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        Thread consumer = new Thread(() -> consume(ring, barrier, consumed, go, frames, received), "test-ring-consumer");
        consumer.start();
        MetricGroup metrics = new MetricGroup("Source", "tcp");
        NettyTransport transport = new NettyTransport(1);
        TcpSource source = new TcpSource(new TcpSourceConfig("tcp", "127.0.0.1:0", Framing.lf, SyslogFormat.auto,
                ByteSize.parse("64KiB"), 100, 0, TimeSpan.parse("0s"), ByteSize.parse("0"), 0, TimeSpan.parse("1s"),
                null), transport, new RingPublisher(ring, 0, "tcp", LogEvent.FORMAT_AUTO, 1L, metrics), metrics);
        try {
            source.start();
            List<Socket> sockets = new ArrayList<>();
            List<OutputStream> outs = new ArrayList<>();
            for (int c = 0; c < CONNECTIONS; c++) {
                Socket s = new Socket();
                s.connect(HostPort.parse(source.boundAddress()), 5000);
                sockets.add(s);
                // odd buffer sizes: the writes, and so the reads, end inside lines
                outs.add(new BufferedOutputStream(s.getOutputStream(), 1021 + 2000 * c));
            }
            // nothing is consumed until the full ring has made the source stop reading (the writes below block
            // until then, so another thread lets the consumer go)
            AtomicInteger sawPause = new AtomicInteger();
            Thread releaser = new Thread(() -> {
                if (Conditions.await(() -> metrics.value("pausedConnections") > 0, Duration.ofSeconds(30))) {
                    sawPause.set(1);
                }
                go.countDown();
            }, "test-release-on-pause");
            releaser.start();
            for (int i = 0; i < LINES; i++) {
                for (int c = 0; c < CONNECTIONS; c++) {
                    outs.get(c).write((line(c, i) + "\n").getBytes(StandardCharsets.US_ASCII));
                }
            }
            for (OutputStream out : outs) {
                out.flush();
            }
            releaser.join();
            assertThat(sawPause.get()).as("the source stopped reading").isOne();
            assertThat(Conditions.await(() -> received.get() == CONNECTIONS * LINES, Duration.ofSeconds(60)))
                    .as("frames received: %s", received.get()).isTrue();
            assertThat(Conditions.await(() -> metrics.value("pausedConnections") == 0, Duration.ofSeconds(10)))
                    .as("every connection reads again").isTrue();
            assertThat(metrics.value("pauses")).isPositive();
            for (Socket s : sockets) {
                s.close();
            }
        } finally {
            source.stopAccepting();
            source.close();
            transport.close();
            go.countDown();
            barrier.alert();
            consumer.join(5000);
        }
        assertThat(consumer.isAlive()).isFalse();
        int[] next = new int[CONNECTIONS];
        for (String f : frames) {
            int c = f.charAt(5) - '0';
            assertThat(f).isEqualTo(line(c, next[c]));
            next[c]++;
        }
        assertThat(next).containsOnly(LINES);
    }

    /** Line i of connection c: 30 to about 3,000 bytes, so some do not fit the room in front of a read. */
    private static String line(int c, int i) {
        String head = "<13>c" + c + " " + i + " ";
        int len = 30 + (i * 7919 + c * 131) % 3000;
        StringBuilder sb = new StringBuilder(len).append(head);
        for (int k = head.length(); k < len; k++) {
            sb.append((char) ('a' + (k + i) % 26));
        }
        return sb.toString();
    }

    private static void consume(RingBuffer<LogEvent> ring, SequenceBarrier barrier, Sequence consumed,
            CountDownLatch go, List<String> frames, AtomicInteger received) {
        try {
            go.await();
        } catch (InterruptedException e) {
            return;
        }
        long next = 0;
        while (true) {
            long available;
            try {
                available = barrier.waitFor(next);
            } catch (AlertException | InterruptedException | com.lmax.disruptor.TimeoutException e) {
                return;
            }
            for (long s = next; s <= available; s++) {
                LogEvent e = ring.get(s);
                frames.add(new String(e.raw(), 0, e.rawLength(), StandardCharsets.US_ASCII));
            }
            received.set(frames.size());
            consumed.set(available);
            next = available + 1;
        }
    }
}
