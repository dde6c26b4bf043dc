package dev.logrouter.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import javax.management.ObjectName;

import static dev.logrouter.server.TestClient.await;
import static dev.logrouter.server.TestClient.sendTcp;
import static dev.logrouter.server.TestClient.textLines;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code pipeline.max-fields} and {@code pipeline.max-field-length} on a real router (Netty on loopback, real ring,
 * json parser, file sinks): a JSON message over both limits is delivered with the fields that fit and its long value
 * cut at a character boundary, tagged so that a route can select it, the hits are counted on the parse worker's
 * MBean, and the router goes on serving.
 */
class FieldLimitsTest {

    @TempDir
    static Path dir;
    private static Router router;
    private static String tcp;

    @BeforeAll
    static void start() throws Exception {
        String yaml = """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0"}
                pipeline: {ring-size: 1024, time-zone: UTC, max-fields: 4, max-field-length: 16}
                parsers:
                  app-json: [{type: json, prefix: ".json."}]
                routes:
                  - {name: json, parsers: [app-json], to: [out]}
                  - {name: limited, filter: 'tags(".limit.max-fields")', to: [limited]}
                sinks:
                  - {name: out, type: file, path: "%1$s/out.log",
                     template: "${.json.id}|${.json.long}|${.json.c}|${.json.d}|${.json.e}|${.json.f}|${TAGS}\\n"}
                  - {name: limited, type: file, path: "%1$s/limited.log", template: "${.json.id}\\n"}
                """.formatted(dir);
        router = TestClient.startRouter(yaml);
        tcp = router.boundAddress("net");
    }

    @AfterAll
    static void stop() throws Exception {
        assertThat(router.stop()).isTrue();
    }

    private static long parseWorker(String attribute) throws Exception {
        return (Long) ManagementFactory.getPlatformMBeanServer()
                .getAttribute(new ObjectName("dev.logrouter:type=Stage,name=parse-0"), attribute);
    }

    private static String lineOf(String file, String id) {
        Path p = dir.resolve(file);
        assertThat(await(() -> textLines(p).stream().anyMatch(l -> l.startsWith(id + "|") || l.equals(id)), 10_000))
                .as("%s has a line for %s", file, id).isTrue();
        return new String(textLines(p).stream().filter(l -> l.startsWith(id + "|") || l.equals(id)).findFirst()
                .orElseThrow().getBytes(StandardCharsets.ISO_8859_1),
                StandardCharsets.UTF_8);
    }

    @Test
    void aMessageOverBothLimitsIsDeliveredLimitedTaggedAndCounted() throws Exception {
        long dropped = parseWorker("fieldsDropped");
        long truncated = parseWorker("valuesTruncated");
        // 6 members (2 over max-fields); "long" is 18 bytes, and € (3 bytes) straddles the 16-byte limit
        sendTcp(tcp, "<13>Mar  1 10:00:00 host app: {\"id\":\"over-1\",\"long\":\"0123456789abcde€xy\",\"c\":\"3\","
                + "\"d\":\"4\",\"e\":\"5\",\"f\":\"6\"}\n");

        assertThat(lineOf("out.log", "over-1"))
                .isEqualTo("over-1|0123456789abcde|3|4|||.limit.max-fields,.limit.max-field-length");
        assertThat(lineOf("limited.log", "over-1")).isEqualTo("over-1"); // a route selected it by its tag
        assertThat(await(() -> {
            try {
                return parseWorker("fieldsDropped") == dropped + 2 && parseWorker("valuesTruncated") == truncated + 1;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, 10_000)).as("counted over JMX").isTrue();

        // still serving: a message within the limits arrives whole, untagged, and counts nothing
        sendTcp(tcp, "<13>Mar  1 10:00:01 host app: {\"id\":\"within-1\",\"long\":\"0123456789abcdef\",\"c\":\"3\","
                + "\"d\":\"4\"}\n");
        assertThat(lineOf("out.log", "within-1")).isEqualTo("within-1|0123456789abcdef|3|4|||");
        assertThat(parseWorker("fieldsDropped")).isEqualTo(dropped + 2);
        assertThat(parseWorker("valuesTruncated")).isEqualTo(truncated + 1);
    }
}
