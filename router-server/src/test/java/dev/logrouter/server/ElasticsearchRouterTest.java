package dev.logrouter.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.logrouter.sinks.elasticsearch.ElasticsearchServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import static dev.logrouter.server.TestClient.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Elasticsearch end to end, with real routers (Netty on loopback, the ring, the sink handler) and a real server
 * (one for the class) whose write thread pool is one thread with a queue of one, so that bulk requests that come
 * together are refused with 429: TCP into a data stream, every message searchable with its parsed fields; 429s
 * retried until every document is indexed; the server stopped and restarted mid-stream loses nothing and, thanks to
 * generated ids, indexes nothing twice.
 */
class ElasticsearchRouterTest {

    static final Map<String, String> TINY_WRITE_QUEUE = Map.of("thread_pool.write.size", "1",
            "thread_pool.write.queue_size", "1");
    static ElasticsearchServer es;

    @BeforeAll
    static void startServer() throws Exception {
        es = ElasticsearchServer.launch(TINY_WRITE_QUEUE);
    }

    @AfterAll
    static void stopServer() {
        if (es != null) {
            es.close();
        }
    }

    private static Router router(String sinkOptions) throws Exception {
        String yaml = """
                sources:
                  - name: net
                    type: tcp
                    bind: 127.0.0.1:0
                parsers:
                  kv:
                    - {type: kv}
                routes:
                  - name: all
                    parsers: [kv]
                    to: [search]
                sinks:
                  - name: search
                    type: elasticsearch
                    hosts: [@ES@]
                    flush-timeout: 100ms
                """.replace("@ES@", es.url()) + sinkOptions.indent(4);
        return TestClient.startRouter(yaml);
    }

    private static long metric(Router r, String name) {
        return r.metrics().require("Sink", "search").value(name);
    }

    /** The {@code seq} values of an index's documents; fails on a repeat. */
    private static Set<Integer> distinctSeqs(String index) throws Exception {
        Set<Integer> seen = new HashSet<>();
        JsonNode hits;
        String after = "";
        do {
            hits = es.call("POST", "/" + index + "/_search", "{\"size\":5000,\"_source\":[\"seq\"],"
                    + "\"sort\":[{\"seq.keyword\":\"asc\"}]" + after + "}").get("hits").get("hits");
            for (JsonNode h : hits) {
                int seq = Integer.parseInt(h.get("_source").get("seq").asText());
                assertThat(seen.add(seq)).as("seq %d indexed once", seq).isTrue();
                after = ",\"search_after\":[\"" + h.get("sort").get(0).asText() + "\"]";
            }
        } while (hits.size() > 0);
        return seen;
    }

    @Test
    void messagesSentOverTcpAreSearchableInADataStreamWithTheirParsedFields() throws Exception {
        es.call("PUT", "/_index_template/syslog-ds", "{\"index_patterns\":[\"syslog-ds-*\"],\"data_stream\":{},"
                + "\"priority\":500}");
        Router r = router("index: syslog-ds-${FACILITY}\n");
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            lines.append(i % 2 == 0 ? "<13>" : "<157>").append("Mar  1 10:00:00 host").append(i % 7)
                    .append(" app[").append(i % 50).append("]: seq=").append(i).append(" user=u").append(i % 3)
                    .append('\n');
        }
        TestClient.sendTcp(r.boundAddress("net"), lines.toString());
        assertThat(await(() -> metric(r, "indexed") == 3000, 60_000)).isTrue();
        assertThat(r.stop()).isTrue();

        assertThat(es.count("syslog-ds-user")).isEqualTo(1500);
        assertThat(es.count("syslog-ds-local3")).isEqualTo(1500);
        assertThat(distinctSeqs("syslog-ds-user").size() + distinctSeqs("syslog-ds-local3").size()).isEqualTo(3000);
        JsonNode found = es.call("GET", "/syslog-ds-local3/_search?q=seq:11", null).get("hits").get("hits").get(0);
        assertThat(found.get("_index").asText()).startsWith(".ds-syslog-ds-local3-"); // a data stream's backing index
        JsonNode hit = found.get("_source");
        assertThat(hit.get("host").asText()).isEqualTo("host4");
        assertThat(hit.get("program").asText()).isEqualTo("app");
        assertThat(hit.get("pid").asInt()).isEqualTo(11);
        assertThat(hit.get("facility").asText()).isEqualTo("local3");
        assertThat(hit.get("severity").asText()).isEqualTo("notice");
        assertThat(hit.get("user").asText()).isEqualTo("u2");
        assertThat(hit.get("message").asText()).isEqualTo("seq=11 user=u2");
        assertThat(metric(r, "written")).isEqualTo(3000);
    }

    @Test
    void documentsRefusedWith429AreRetriedUntilEveryOneIsIndexed() throws Exception {
        es.call("PUT", "/busy", "{\"settings\":{\"number_of_shards\":3,\"number_of_replicas\":0}}");
        Router r = router("""
                index: busy
                batch-size: 50
                max-in-flight: 6
                max-retry-backoff: 200ms
                """);
        int n = 2_000;
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < n; i++) {
            lines.append("<13>Mar  1 10:00:00 h app: seq=").append(i).append('\n');
        }
        TestClient.sendTcp(r.boundAddress("net"), lines.toString());
        assertThat(await(() -> metric(r, "indexed") == n, 120_000)).isTrue();
        assertThat(r.stop()).isTrue();
        System.out.printf("429: %d documents, %d items refused with 429, %d retried, %d requests failed whole%n", n,
                metric(r, "rejected"), metric(r, "retried"), metric(r, "requestFailures"));
        assertThat(metric(r, "rejected")).as("the tiny write queue refused documents").isPositive();
        assertThat(metric(r, "retried")).isEqualTo(metric(r, "rejected") + metric(r, "serverErrors"));
        assertThat(metric(r, "deadLettered")).isZero();
        assertThat(es.count("busy")).isEqualTo(n);
        assertThat(distinctSeqs("busy")).hasSize(n);
    }

    @Test
    void theServerStoppedAndRestartedMidStreamLosesNothingAndIndexesNothingTwice() throws Throwable {
        es.call("PUT", "/restart", "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0}}");
        Router r = router("""
                index: restart
                batch-size: 500
                request-timeout: 10s
                """);
        int n = 30_000;
        CountDownLatch serverStopped = new CountDownLatch(1);
        TestClient.Stream sender = new TestClient.Stream(r.boundAddress("net"), n,
                i -> "<13>Mar  1 10:00:00 h app: seq=" + i + "\n", n / 3, serverStopped);
        assertThat(await(() -> metric(r, "indexed") > 1000, 60_000)).isTrue();
        es.stop(); // bulk requests of the first third may be in flight now
        long indexedBeforeStop = metric(r, "indexed");
        serverStopped.countDown();
        assertThat(await(() -> metric(r, "requestFailures") > 0, 60_000)).isTrue(); // the outage was seen
        es.start(TINY_WRITE_QUEUE);
        assertThat(sender.join(180_000)).isEqualTo(n);
        assertThat(await(() -> metric(r, "indexed") >= n, 120_000)).isTrue();
        assertThat(r.stop()).isTrue();
        System.out.printf("server restart: %d messages, %d indexed before the stop, %d resent, %d already indexed, "
                        + "%d requests failed whole%n", n, indexedBeforeStop, metric(r, "resent"),
                metric(r, "alreadyIndexed"), metric(r, "requestFailures"));
        assertThat(metric(r, "resent")).isPositive();
        assertThat(es.count("restart")).isEqualTo(n);
        assertThat(distinctSeqs("restart")).hasSize(n);
        assertThat(metric(r, "lost")).isZero();
    }

    /**
     * The operator's stop with a router process: a burst of 10 × 5,000 messages, SIGTERM as soon as the senders
     * returned, into a node whose write pool takes one bulk at a time (the sink is slower than the senders): every
     * message is indexed after the stop, exit 0. (Before 2026-12-07: 18,867 of 50,000, "stopped cleanly".)
     */
    @Test
    void sigtermRightAfterABurstLeavesEveryMessageIndexed(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        try (RouterProcess router = RouterProcess.start(dir, "es-stop", """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0"}
                sinks:
                  - {name: search, type: elasticsearch, hosts: [@ES@], index: stop-burst}
                """.replace("@ES@", es.url()))) {
            Burst.send(router.address(), 10, 5_000);
            router.sigterm();
            assertThat(router.exitStatus(120)).as(router::log).isZero();
            assertThat(router.lastLine()).contains("stopped cleanly");
        }
        es.call("POST", "/stop-burst/_refresh", null);
        assertThat(es.count("stop-burst")).isEqualTo(50_000);
    }
}
