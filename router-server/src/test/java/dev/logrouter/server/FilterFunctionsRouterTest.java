package dev.logrouter.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.logrouter.server.TestClient.await;
import static dev.logrouter.server.TestClient.sendTcp;
import static dev.logrouter.server.TestClient.textLines;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code netmask()}, {@code netmask6()}, {@code in-list()} and {@code rate-limit()} in a real router: Netty on
 * the IPv4 loopback (and on {@code ::1} when the machine has it), a ring with two parse workers, file sinks. Each
 * test sends its own messages, marked with a unique word, and reads what the sinks wrote.
 */
class FilterFunctionsRouterTest {

    private static final int RATE = 5;

    @TempDir
    static Path dir;
    private static Router router;
    private static String tcp;
    private static String tcp6;

    @BeforeAll
    static void start() throws Exception {
        Path hosts = dir.resolve("hosts.list");
        Files.writeString(hosts, "web1\n\ndb2\r\n");
        boolean v6 = hasIpv6Loopback();
        String yaml = """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0"}
                %3$s
                pipeline: {ring-size: 1024, parse-workers: 2, time-zone: UTC}
                routes:
                  - {name: lo4, filter: 'netmask("127.0.0.0/8") and program(netapp)', to: [lo4]}
                  - {name: ten, filter: 'netmask("10.0.0.0/8")', to: [ten]}
                  - {name: lo6, filter: 'netmask6("::1/128") and program(netapp)', to: [lo6]}
                  - {name: listed, filter: 'program(listapp) and in-list("%2$s", value("HOST"))', to: [listed],
                     final: true}
                  - {name: burst, filter: 'program(burstapp) and rate-limit(key("$HOST") rate(%4$d))', to: [burst],
                     final: true}
                  - {name: rest, fallback: true, to: [other]}
                sinks:
                  - {name: lo4, type: file, path: "%1$s/lo4.log", template: "${SOURCEIP} ${MSG}\\n"}
                  - {name: ten, type: file, path: "%1$s/ten.log", template: "${SOURCEIP} ${MSG}\\n"}
                  - {name: lo6, type: file, path: "%1$s/lo6.log", template: "${SOURCEIP} ${MSG}\\n"}
                  - {name: listed, type: file, path: "%1$s/listed.log", template: "${HOST} ${MSG}\\n"}
                  - {name: burst, type: file, path: "%1$s/burst.log", template: "${HOST} ${MSG}\\n"}
                  - {name: other, type: file, path: "%1$s/other.log", template: "${HOST} ${PROGRAM} ${MSG}\\n"}
                """.formatted(dir, hosts, v6 ? "  - {name: net6, type: tcp, bind: \"[::1]:0\"}" : "", RATE);
        router = TestClient.startRouter(yaml);
        tcp = router.boundAddress("net");
        tcp6 = v6 ? router.boundAddress("net6") : null;
    }

    @AfterAll
    static void stop() throws Exception {
        assertThat(router.stop()).isTrue();
    }

    private static boolean hasIpv6Loopback() {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getByName("::1"), 0));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Waits for the line of {@code file} containing {@code marker} and returns it. */
    private static String line(String file, String marker) {
        Path p = dir.resolve(file);
        assertThat(await(() -> textLines(p).stream().anyMatch(l -> l.contains(marker)), 10_000))
                .as("a line with %s in %s", marker, file).isTrue();
        return textLines(p).stream().filter(l -> l.contains(marker)).findFirst().orElseThrow();
    }

    private static List<String> lines(String file, String marker) {
        return textLines(dir.resolve(file)).stream().filter(l -> l.contains(marker)).toList();
    }

    private static long metric(String type, String name, String metric) {
        return router.metrics().require(type, name).value(metric);
    }

    @Test
    void netmaskTestsTheSenderAddress() throws Exception {
        long lo6 = metric("Route", "lo6", "matched");
        sendTcp(tcp, "<14>Oct 11 22:14:15 web1 netapp: nm-v4-1\n");
        assertThat(line("lo4.log", "nm-v4-1")).isEqualTo("127.0.0.1 nm-v4-1");
        // routing is decided before any sink writes: lo4 has it, so lo6 and ten have decided too
        assertThat(metric("Route", "ten", "matched")).isZero();
        assertThat(metric("Route", "lo6", "matched")).isEqualTo(lo6);
        assertThat(lines("ten.log", "nm-v4-1")).isEmpty();
    }

    @Test
    void netmask6TestsAnIpv6Sender() throws Exception {
        Assumptions.assumeTrue(tcp6 != null, "no IPv6 loopback (::1) on this machine");
        long lo4 = metric("Route", "lo4", "matched");
        sendTcp(tcp6, "<14>Oct 11 22:14:15 web1 netapp: nm-v6-1\n");
        assertThat(line("lo6.log", "nm-v6-1")).isEqualTo("0:0:0:0:0:0:0:1 nm-v6-1");
        assertThat(metric("Route", "ten", "matched")).isZero();
        assertThat(metric("Route", "lo4", "matched")).isEqualTo(lo4);
    }

    @Test
    void inListTakesTheHostsOfTheFile() throws Exception {
        sendTcp(tcp, "<14>Oct 11 22:14:15 web1 listapp: il-1\n"
                + "<14>Oct 11 22:14:15 db2 listapp: il-2\n"
                + "<14>Oct 11 22:14:15 web10 listapp: il-3\n");
        assertThat(line("listed.log", "il-1")).isEqualTo("web1 il-1");
        assertThat(line("listed.log", "il-2")).isEqualTo("db2 il-2");
        assertThat(line("other.log", "il-3")).isEqualTo("web10 listapp il-3");
        assertThat(lines("listed.log", "il-3")).isEmpty();
    }

    @Test
    void rateLimitPassesABurstOfRateThenRatePerSecond() throws Exception {
        int n = 300;
        StringBuilder burst = new StringBuilder();
        for (int i = 0; i < n; i++) {
            burst.append("<14>Oct 11 22:14:15 burst1 burstapp: rl-").append(i).append(" end\n");
        }
        long started = System.nanoTime();
        sendTcp(tcp, burst.toString());
        assertThat(await(() -> metric("Route", "burst", "rateLimitPassed")
                + metric("Route", "burst", "rateLimitRejected") == n, 10_000))
                .as("every message of the burst met the rate limit").isTrue();
        long elapsedNanos = System.nanoTime() - started;
        long passed = metric("Route", "burst", "rateLimitPassed");
        // the bucket starts full (RATE tokens) and gains RATE tokens per second while the burst is processed
        assertThat(passed).isBetween((long) RATE, RATE + RATE * elapsedNanos / 1_000_000_000L);
        assertThat(metric("Route", "burst", "rateLimitOverflow")).isZero();
        assertThat(await(() -> lines("burst.log", " end").size() == passed, 10_000))
                .as("the sink wrote the %d messages that passed", passed).isTrue();
        assertThat(metric("Route", "burst", "matched")).isEqualTo(passed);
        // the rejected ones fell through to the fallback route
        assertThat(await(() -> lines("other.log", "burstapp").size() == n - passed, 10_000)).isTrue();
    }
}
