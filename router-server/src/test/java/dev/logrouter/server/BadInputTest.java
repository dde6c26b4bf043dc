package dev.logrouter.server;

import dev.logrouter.netty.HostPort;
import dev.logrouter.core.metrics.MetricGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.management.ObjectName;

import static dev.logrouter.server.TestClient.await;
import static dev.logrouter.server.TestClient.octet;
import static dev.logrouter.server.TestClient.sendTcp;
import static dev.logrouter.server.TestClient.textLines;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad input against one real router (Netty on loopback, real ring, file sinks): each case has its
 * documented outcome, moves a counter, and the router keeps serving. One router for the class.
 */
class BadInputTest {

    private static final int MAX = 1024;

    @TempDir
    static Path dir;
    private static Router router;
    private static String tcp;
    private static String udp;
    private static Path all;

    @BeforeAll
    static void start() throws Exception {
        all = dir.resolve("all.log");
        String yaml = """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0", max-message-size: %d}
                  - {name: dgram, type: udp, bind: "127.0.0.1:0", max-message-size: %d}
                pipeline: {ring-size: 1024, parse-workers: 2, time-zone: UTC}
                sinks:
                  - name: all
                    type: file
                    path: "%s"
                    template: "${PRI}|${HOST}|${PROGRAM}|${MSG}\\n"
                  - name: by-host
                    type: file
                    path: "%s/base/hosts/${HOST}/m.log"
                    template: "${MSG}\\n"
                """.formatted(MAX, MAX, all, dir);
        router = TestClient.startRouter(yaml);
        tcp = router.boundAddress("net");
        udp = router.boundAddress("dgram");
    }

    @AfterAll
    static void stop() throws Exception {
        assertThat(router.stop()).isTrue();
    }

    private static MetricGroup source() {
        return router.metrics().require("Source", "net");
    }

    private static boolean logged(String needle) {
        return textLines(all).stream().anyMatch(l -> l.contains(needle));
    }

    private static String lineWith(String needle) throws InterruptedException {
        assertThat(await(() -> logged(needle), 10_000)).as("a line with " + needle).isTrue();
        return textLines(all).stream().filter(l -> l.contains(needle)).findFirst().orElseThrow();
    }

    /** Proves the router still serves: a fresh message on a fresh connection arrives. */
    private static void stillServing(String tag) throws Exception {
        sendTcp(tcp, "<13>Mar  1 10:00:00 host1 prog: alive-" + tag + "\n");
        lineWith("alive-" + tag);
    }

    @Test
    void garbageBytesAreKeptAsAMessage() throws Exception {
        sendTcp(tcp, new byte[] {0x01, 0x02, (byte) 0xff, ' ', 'g', 'a', 'r', 'b', 'a', 'g', 'e', '-', '1', '\n'});
        String line = lineWith("garbage-1");
        assertThat(line).startsWith("13|127.0.0.1|");
        stillServing("garbage");
    }

    @Test
    void priOutOfRangeIsKeptLikeSyslogNg() throws Exception {
        sendTcp(tcp, "<999>Oct 11 22:14:15 mymachine prog: pri-999\n");
        assertThat(lineWith("pri-999")).isEqualTo("999|mymachine|prog|pri-999");
    }

    @Test
    void nonNumericPriBecomesAnErrorMessageAndIsCounted() throws Exception {
        long before = parseErrors();
        sendTcp(tcp, "<abc>Oct 11 22:14:15 mymachine prog: pri-abc\n");
        String line = lineWith("pri-abc");
        assertThat(line).startsWith("43|127.0.0.1|syslog-ng|Error processing log message: <abc>Oct 11");
        assertThat(await(() -> parseErrors() == before + 1, 30_000)).isTrue();
        stillServing("pri-abc");
    }

    private static long parseErrors() {
        return router.metrics().require("Stage", "parse-0").value("parseErrors")
                + router.metrics().require("Stage", "parse-1").value("parseErrors");
    }

    @Test
    void emptyFramesAreSkippedAndCounted() throws Exception {
        long before = source().value("emptyFrames");
        sendTcp(tcp, "\n\r\n<13>Mar  1 10:00:00 h p: after-empty-lf\n");
        sendTcp(tcp, "0 " + new String(octet("<13>Mar  1 10:00:00 h p: after-empty-octet"), StandardCharsets.UTF_8));
        lineWith("after-empty-lf");
        lineWith("after-empty-octet");
        assertThat(source().value("emptyFrames")).isEqualTo(before + 3);
        assertThat(textLines(all)).noneMatch(String::isEmpty);
    }

    @Test
    void frameOfExactlyMaxSizeIsIntactAndOneOverClosesTheConnection() throws Exception {
        String prefix = "<13>Mar  1 10:00:00 h p: exact-max ";
        String exact = prefix + "x".repeat(MAX - prefix.length());
        sendTcp(tcp, octet(exact));
        assertThat(lineWith("exact-max")).endsWith("x".repeat(MAX - prefix.length()));

        long malformed = source().value("malformed");
        String over = "<13>Mar  1 10:00:00 h p: one-over " + "y".repeat(MAX);
        sendTcp(tcp, octet(over.substring(0, MAX + 1)));
        assertThat(await(() -> source().value("malformed") == malformed + 1, 30_000)).isTrue();
        stillServing("after-over");
        assertThat(logged("p: one-over")).isFalse();
    }

    @Test
    void overLongLfLineIsSplitLikeSyslogNg() throws Exception {
        long truncated = source().value("truncated");
        String head = "<13>Mar  1 10:00:00 h p: long-lf ";
        String line = head + "z".repeat(MAX - head.length()) + "tail-of-long-lf";
        sendTcp(tcp, line + "\n");
        assertThat(lineWith("long-lf ")).endsWith("z".repeat(MAX - head.length()));
        // the rest becomes a message of its own, as syslog-ng does (no PRI: user.notice, HOST = sender)
        assertThat(lineWith("tail-of-long-lf")).isEqualTo("13|127.0.0.1|tail-of-long-lf|");
        assertThat(source().value("truncated")).isEqualTo(truncated + 1);
    }

    @Test
    void octetCountLargerThanTheLimitClosesOnlyThatConnection() throws Exception {
        long malformed = source().value("malformed");
        try (Socket good = new Socket()) {
            good.connect(HostPort.parse(tcp));
            OutputStream g = good.getOutputStream();
            g.write(octet("<13>Mar  1 10:00:00 h p: before-bad-count"));
            g.flush();
            lineWith("before-bad-count");
            sendTcp(tcp, "99999999 <13>Mar  1 10:00:00 h p: bad-count\n");
            assertThat(await(() -> source().value("malformed") == malformed + 1, 30_000)).isTrue();
            g.write(octet("<13>Mar  1 10:00:00 h p: after-bad-count"));
            g.flush();
            lineWith("after-bad-count");
        }
        assertThat(logged("bad-count\n")).isFalse();
    }

    @Test
    void connectionClosedMidFrame() throws Exception {
        long partial = source().value("partialFrames");
        sendTcp(tcp, "200 <13>Mar  1 10:00:00 h p: cut-octet");
        assertThat(await(() -> source().value("partialFrames") == partial + 1, 30_000)).isTrue();
        // an LF connection closed without the final LF still delivers its last line
        sendTcp(tcp, "<13>Mar  1 10:00:00 h p: cut-lf-no-newline");
        lineWith("cut-lf-no-newline");
        stillServing("mid-frame");
        assertThat(logged("cut-octet")).isFalse();
    }

    @Test
    void invalidUtf8IsPassedThroughByteForByte() throws Exception {
        byte[] msg = "<13>Mar  1 10:00:00 host1 prog: bad-utf8 \u0000 end\n".getBytes(StandardCharsets.ISO_8859_1);
        int at = new String(msg, StandardCharsets.ISO_8859_1).indexOf('\u0000');
        msg[at] = (byte) 0xc3; // a lone UTF-8 lead byte followed by a space: invalid
        sendTcp(tcp, msg);
        String line = lineWith("bad-utf8");
        byte[] raw = line.getBytes(StandardCharsets.ISO_8859_1);
        assertThat(raw).contains(new byte[] {'8', ' ', (byte) 0xc3, ' ', 'e', 'n', 'd'});
    }

    @Test
    void hostileHostCannotEscapeTheBaseDirectory() throws Exception {
        sendTcp(tcp, "<13>Mar  1 10:00:00 ../../etc prog: hostile-host\n");
        sendTcp(tcp, "<13>1 2024-01-01T00:00:00Z .. app - - - dotdot-host\n");
        lineWith("hostile-host");
        lineWith("dotdot-host");
        Path safe = dir.resolve("base/hosts").resolve(".._.._etc").resolve("m.log");
        // the file exists as soon as the sink opens it; its line arrives with the batch's flush
        assertThat(await(() -> !textLines(safe).isEmpty(), 30_000)).isTrue();
        assertThat(textLines(safe)).containsExactly("hostile-host");
        assertThat(await(() -> Files.exists(dir.resolve("base/hosts/__/m.log")), 30_000)).isTrue();
        // an escape from base/hosts/ by "../../etc" would land in dir/etc/: inside dir, which is walked
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> outside = files.filter(p -> p.getFileName().toString().equals("m.log"))
                    .filter(p -> !p.startsWith(dir.resolve("base/hosts"))).toList();
            assertThat(outside).isEmpty();
        }
        assertThat(router.metrics().require("Sink", "by-host").value("rejectedPaths")).isZero();
    }

    @Test
    void udpDatagramsAreDeliveredAndEmptyOnesCounted() throws Exception {
        MetricGroup u = router.metrics().require("Source", "dgram");
        long empty = u.value("emptyFrames");
        TestClient.sendUdp(udp, new byte[0]);
        TestClient.sendUdp(udp, "<13>1 2024-01-01T00:00:00Z h app 1 - - udp-datagram\n".getBytes(StandardCharsets.UTF_8));
        assertThat(lineWith("udp-datagram")).isEqualTo("13|h|app|udp-datagram");
        assertThat(await(() -> u.value("emptyFrames") == empty + 1, 30_000)).isTrue();
    }

    @Test
    void countersAreReadableThroughJmx() throws Exception {
        stillServing("jmx");
        Object received = ManagementFactory.getPlatformMBeanServer()
                .getAttribute(new ObjectName("dev.logrouter:type=Source,name=net"), "received");
        assertThat((Long) received).isPositive();
        assertThat(await(() -> {
            try {
                return (Long) ManagementFactory.getPlatformMBeanServer()
                        .getAttribute(new ObjectName("dev.logrouter:type=Sink,name=all"), "written") > 0;
            } catch (Exception e) {
                return false;
            }
        }, 30_000)).isTrue();
        Object capacity = ManagementFactory.getPlatformMBeanServer()
                .getAttribute(new ObjectName("dev.logrouter:type=Ring,name=main"), "capacity");
        assertThat(capacity).isEqualTo(1024L);
    }
}
