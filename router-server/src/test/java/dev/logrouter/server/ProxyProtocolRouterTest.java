package dev.logrouter.server;

import dev.logrouter.core.metrics.MetricGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.logrouter.server.TestClient.await;
import static dev.logrouter.server.TestClient.sendTcp;
import static dev.logrouter.server.TestClient.textLines;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A router behind a load balancer ({@code proxy-protocol: true}), end to end: the address a PROXY header names is
 * the message's SOURCEIP and, when the message names no host, its HOST, through the parse workers to a file sink; a
 * connection without the header delivers nothing and is counted.
 */
class ProxyProtocolRouterTest {

    @TempDir
    static Path dir;
    private static Router router;
    private static String address;
    private static Path out;

    @BeforeAll
    static void start() throws Exception {
        out = dir.resolve("out.log");
        router = TestClient.startRouter("""
                sources:
                  - {name: lb, type: tcp, bind: "127.0.0.1:0", proxy-protocol: true}
                pipeline: {ring-size: 1024, parse-workers: 2, time-zone: UTC}
                routes:
                  - {name: all, to: [out]}
                sinks:
                  - {name: out, type: file, path: "%s", template: "${SOURCEIP}|${HOST}|${PROGRAM}|${MSG}\\n"}
                """.formatted(out));
        address = router.boundAddress("lb");
    }

    @AfterAll
    static void stop() throws Exception {
        assertThat(router.stop()).isTrue();
    }

    private static MetricGroup source() {
        return router.metrics().require("Source", "lb");
    }

    @Test
    void theProxiedSenderIsSourceIpAndTheHostOfMessagesWithoutOne() throws Exception {
        sendTcp(address, "PROXY TCP4 203.0.113.7 10.0.0.1 5555 514\r\n"
                + "<13>app: no hostname in this one\n"
                + "<13>Nov 22 10:00:00 web1 app: hostname web1\n");
        sendTcp(address, "PROXY TCP6 2001:db8::7 2001:db8::1 5555 514\r\n<13>app: over IPv6\n");
        // straight to the port, without the header: refused, counted, not delivered
        sendTcp(address, "<13>app: must not arrive\n");
        assertThat(await(() -> textLines(out).size() == 3 && source().value("proxyErrors") == 1, 20_000))
                .as(() -> "lines " + textLines(out) + ", proxyErrors " + source().value("proxyErrors")).isTrue();
        assertThat(textLines(out)).containsExactlyInAnyOrder(
                "203.0.113.7|203.0.113.7|app|no hostname in this one",
                "203.0.113.7|web1|app|hostname web1",
                "2001:db8:0:0:0:0:0:7|2001:db8:0:0:0:0:0:7|app|over IPv6");
        assertThat(source().value("received")).isEqualTo(3);
    }
}
