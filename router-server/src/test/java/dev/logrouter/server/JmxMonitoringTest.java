package dev.logrouter.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.logrouter.netty.HostPort;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.core.testing.Ports;
import dev.logrouter.server.jmx.StatsCommand;
import dev.logrouter.server.TestClient.StatsOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import javax.management.Attribute;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import static dev.logrouter.server.TestClient.stats;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Monitoring end to end: a real router with remote JMX on a loopback port, real TCP and UDP senders, and a JMX
 * client over RMI that reads every attribute of every logrouter MBean and compares it with the exact value the
 * traffic implies; then {@code resetAllCounters}, more traffic, and the {@code stats} command in its three
 * formats against the same router. Also: the refusal of unauthenticated remote JMX off loopback, password and
 * access files, and the DEGRADED state while a sink retries.
 */
class JmxMonitoringTest {

    @TempDir
    Path dir;

    /** Sent one at a time over one TCP connection: three for the route (one not JSON), one for no route. */
    private static final String[][] TCP = {
        {"web1", "app", "{\"user\":\"alice\",\"n\":1}"},
        {"web1", "app", "{\"user\":\"bob\",\"n\":2}"},
        {"web1", "app", "not json"},
        {"web1", "cron", "tick"},
    };
    private static final String[] UDP = {"web2", "app", "{\"user\":\"carol\",\"n\":3}"};
    private static final String[] LATER = {"web1", "app", "{\"user\":\"dave\",\"n\":4}"};

    private static String line(String[] m) {
        return "<13>Nov 22 10:00:00 " + m[0] + " " + m[1] + ": " + m[2];
    }

    /** What the file sink's template writes for a message. */
    private static long written(String[] m) {
        return (m[0] + " " + m[1] + " " + m[2] + "\n").getBytes(StandardCharsets.UTF_8).length;
    }

    private String config(int jmxPort, String extraJmx) {
        return String.join("\n",
                "sources:",
                "  - {name: net, type: tcp, bind: 127.0.0.1:0}",
                "  - {name: dgram, type: udp, bind: 127.0.0.1:0}",
                "pipeline: {ring-size: 1024}",
                "parsers:",
                "  fields:",
                "    - {type: json}",
                "routes:",
                "  - name: app",
                "    filter: 'program(\"^app$\")'",
                "    parsers: [fields]",
                "    to: [files]",
                "sinks:",
                "  - name: files",
                "    type: file",
                "    path: \"" + dir + "/out/${HOST}.log\"",
                "    template: \"${HOST} ${PROGRAM} ${MSG}\\n\"",
                "monitoring:",
                "  jmx:",
                "    port: " + jmxPort,
                extraJmx,
                "");
    }

    private static JMXServiceURL url(int port) throws Exception {
        return new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi");
    }

    /** Every attribute of every logrouter MBean as {@code Type/name/attribute → value}, read over the connection. */
    private static Map<String, Object> readAll(MBeanServerConnection c) throws Exception {
        Map<String, Object> all = new TreeMap<>();
        for (ObjectName on : c.queryNames(new ObjectName(MetricRegistry.DOMAIN + ":*"), null)) {
            String[] names = Arrays.stream(c.getMBeanInfo(on).getAttributes()).map(MBeanAttributeInfo::getName)
                    .toArray(String[]::new);
            for (Attribute a : c.getAttributes(on, names).asList()) {
                all.put(on.getKeyProperty("type") + "/" + on.getKeyProperty("name") + "/" + a.getName(), a.getValue());
            }
        }
        return all;
    }

    /** The attributes whose descriptor says {@code metricType=counter}. */
    private static List<String> counterNames(MBeanServerConnection c) throws Exception {
        List<String> counters = new ArrayList<>();
        for (ObjectName on : c.queryNames(new ObjectName(MetricRegistry.DOMAIN + ":*"), null)) {
            for (MBeanAttributeInfo a : c.getMBeanInfo(on).getAttributes()) {
                assertThat(a.getDescription()).as("description of %s %s", on, a.getName()).isNotBlank();
                assertThat(a.getDescriptor().getFieldValue("metricType")).as("kind of %s %s", on, a.getName())
                        .isIn("counter", "gauge", "text");
                if ("counter".equals(a.getDescriptor().getFieldValue("metricType"))) {
                    counters.add(on.getKeyProperty("type") + "/" + on.getKeyProperty("name") + "/" + a.getName());
                }
            }
        }
        return counters;
    }

    private static long metric(Router r, String type, String name, String metric) {
        return r.metrics().require(type, name).value(metric);
    }

    private static void awaitMetric(Router r, String type, String name, String metric, long value) {
        assertThat(TestClient.await(() -> metric(r, type, name, metric) == value, 10_000))
                .as("%s %s %s reaches %d (is %d)", type, name, metric, value, metric(r, type, name, metric)).isTrue();
    }

    /**
     * The counters after the first traffic: 4 TCP messages (3 routed, 1 of them not JSON; 1 unrouted), 1 UDP message
     * (routed), one TCP connection closed for an oversized octet count; each message sent after the previous one
     * was written, so each routed message is a batch of its own.
     */
    private static Map<String, Object> countersAfterTraffic() {
        long tcpBytes = Arrays.stream(TCP).mapToLong(m -> line(m).length()).sum();
        long sinkBytes = written(TCP[0]) + written(TCP[1]) + written(TCP[2]) + written(UDP);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("Source/net/received", 4L);
        m.put("Source/net/bytes", tcpBytes);
        m.put("Source/net/malformed", 1L);
        m.put("Source/net/truncated", 0L);
        m.put("Source/net/emptyFrames", 0L);
        m.put("Source/net/partialFrames", 0L);
        m.put("Source/net/acceptedConnections", 2L);
        m.put("Source/net/rejectedConnections", 0L);
        m.put("Source/net/rejectedPerIpConnections", 0L);
        m.put("Source/net/idleClosed", 0L);
        m.put("Source/net/pauses", 0L);
        m.put("Source/net/ioErrors", 0L);
        m.put("Source/net/abandoned", 0L);
        m.put("Source/net/abandonedConnections", 0L);
        m.put("Source/net/abandonedBytes", 0L);
        m.put("Source/dgram/received", 1L);
        m.put("Source/dgram/bytes", (long) line(UDP).length());
        m.put("Source/dgram/dropped", 0L);
        m.put("Source/dgram/emptyFrames", 0L);
        m.put("Source/dgram/truncated", 0L);
        m.put("Ring/main/stageErrors", 0L);
        m.put("Ring/main/abandoned", 0L);
        m.put("Stage/parse-0/parsed", 5L);
        m.put("Stage/parse-0/parseErrors", 0L);
        m.put("Stage/parse-0/fieldsDropped", 0L);
        m.put("Stage/parse-0/valuesTruncated", 0L);
        m.put("Routes/main/unrouted", 1L);
        m.put("Routes/main/stepErrors", 0L);
        m.put("Route/app/matched", 4L);
        m.put("Route/app/regexBudgetExceeded", 0L);
        m.put("Parser/fields.json/parsed", 3L);
        m.put("Parser/fields.json/failed", 1L);
        m.put("Sink/files/written", 4L);
        m.put("Sink/files/batches", 4L);
        m.put("Sink/files/bytes", sinkBytes);
        m.put("Sink/files/failures", 0L);
        m.put("Sink/files/retries", 0L);
        m.put("Sink/files/lost", 0L);
        m.put("Sink/files/givenUp", 0L);
        m.put("Sink/files/deadLettered", 0L);
        m.put("Sink/files/deadLetterFailures", 0L);
        m.put("Sink/files/filesOpened", 2L);
        m.put("Sink/files/filesClosedIdle", 0L);
        m.put("Sink/files/filesReopened", 0L);
        m.put("Router/main/reloads", 0L);
        m.put("Router/main/reloadsRefused", 0L);
        m.put("Sink/files/filesEvicted", 0L);
        m.put("Sink/files/fsyncs", 0L);
        m.put("Sink/files/rejectedPaths", 0L);
        return m;
    }

    /**
     * Gauges and texts: current values, which a reset does not touch ({@code published} is the ring's cursor, a
     * count since start).
     */
    private static Map<String, Object> gauges(long published, long averageBatchSize) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("Ring/main/published", published);
        m.put("Router/main/state", "RUNNING");
        m.put("Router/main/degradedBy", "");
        m.put("Router/main/lastReload", "");
        m.put("Router/main/tags", (long) Tags.count()); // the registry is process-wide: this JVM's tests' tags too
        m.put("Router/main/tagsRefused", 0L);
        m.put("Source/net/connections", 0L);
        m.put("Source/net/pausedConnections", 0L);
        m.put("Source/net/keptFrames", 0L);
        m.put("Ring/main/capacity", 1024L);
        m.put("Ring/main/remaining", 1024L);
        m.put("Sink/files/pending", 0L);
        m.put("Sink/files/averageBatchSize", averageBatchSize);
        m.put("Sink/files/state", "RUNNING");
        m.put("Sink/files/openFiles", 2L);
        m.put("Sink/files/lastError", "");
        return m;
    }

    /** Checks the two values that depend on the clock and leaves the rest to an exact comparison. */
    private static Map<String, Object> withoutClock(Map<String, Object> read, long startedAfter) {
        Map<String, Object> rest = new TreeMap<>(read);
        long start = (Long) rest.remove("Router/main/startTime");
        assertThat(start).isBetween(startedAfter, System.currentTimeMillis());
        assertThat((Long) rest.remove("Router/main/uptimeSeconds"))
                .isBetween(0L, (System.currentTimeMillis() - start) / 1000);
        return rest;
    }

    /**
     * Every attribute, once they all match: the awaited counter moves a moment before its neighbours (a sink's
     * batches and bytes, the ring's remaining capacity), so the exact comparison waits for the slowest of them.
     */
    private static Map<String, Object> readAllWhenSettled(MBeanServerConnection c, long startedAfter,
                                                   Map<String, Object> expected) throws Exception {
        TestClient.await(() -> {
            try {
                return withoutClock(readAll(c), startedAfter).equals(expected);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, 10_000);
        return withoutClock(readAll(c), startedAfter);
    }

    @Test
    void everyAttributeIsReadBackOverRemoteJmxWithItsExactValue() throws Exception {
        int port = Ports.freeLoopbackPort();
        long before = System.currentTimeMillis();
        Router router = TestClient.startRouter(config(port, ""));
        try (JMXConnector connector = connect(port, Map.of())) {
            assertThat(router.remoteJmxUrl()).isEqualTo(url(port).toString());
            MBeanServerConnection jmx = connector.getMBeanServerConnection();
            String tcp = router.boundAddress("net");
            try (Socket s = new Socket()) {
                s.connect(HostPort.parse(tcp), 5000);
                OutputStream out = s.getOutputStream();
                for (int i = 0; i < TCP.length; i++) {
                    out.write((line(TCP[i]) + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    if (i < 3) {
                        awaitMetric(router, "Sink", "files", "written", i + 1);
                    } else {
                        awaitMetric(router, "Routes", "main", "unrouted", 1);
                    }
                }
            }
            TestClient.sendUdp(router.boundAddress("dgram"), line(UDP).getBytes(StandardCharsets.UTF_8));
            awaitMetric(router, "Sink", "files", "written", 4);
            TestClient.sendTcp(tcp, "999999 <13>the octet count is over max-message-size");
            awaitMetric(router, "Source", "net", "malformed", 1);
            awaitMetric(router, "Source", "net", "connections", 0);

            Map<String, Object> expected = new TreeMap<>(countersAfterTraffic());
            expected.putAll(gauges(5, 1));
            assertThat(readAllWhenSettled(jmx, before, expected)).containsExactlyInAnyOrderEntriesOf(expected);
            List<String> counters = counterNames(jmx);
            assertThat(counters).containsExactlyInAnyOrderElementsOf(countersAfterTraffic().keySet());

            // reset: every counter counts from zero, gauges and texts stay
            ObjectName routerBean = new ObjectName("dev.logrouter:type=Router,name=main");
            assertThat(jmx.invoke(routerBean, "resetAllCounters", null, null))
                    .isEqualTo("reset " + counters.size() + " counters");
            Map<String, Object> zeroed = new TreeMap<>(gauges(5, 0));
            countersAfterTraffic().keySet().forEach(k -> zeroed.put(k, 0L));
            assertThat(withoutClock(readAll(jmx), before)).containsExactlyInAnyOrderEntriesOf(zeroed);

            TestClient.sendTcp(tcp, line(LATER) + "\n");
            awaitMetric(router, "Sink", "files", "written", 1);
            awaitMetric(router, "Source", "net", "connections", 0);
            Map<String, Object> later = Map.ofEntries(
                    Map.entry("Source/net/received", 1L),
                    Map.entry("Source/net/bytes", (long) line(LATER).length()),
                    Map.entry("Source/net/acceptedConnections", 1L),
                    Map.entry("Stage/parse-0/parsed", 1L),
                    Map.entry("Route/app/matched", 1L),
                    Map.entry("Parser/fields.json/parsed", 1L),
                    Map.entry("Sink/files/written", 1L),
                    Map.entry("Sink/files/batches", 1L),
                    Map.entry("Sink/files/bytes", written(LATER)));
            Map<String, Object> counted = new TreeMap<>(gauges(6, 1));
            countersAfterTraffic().keySet().forEach(k -> counted.put(k, later.getOrDefault(k, 0L)));
            Map<String, Object> afterReset = readAllWhenSettled(jmx, before, counted);
            assertThat(afterReset).containsExactlyInAnyOrderEntriesOf(counted);

            // the stats command over the same remote connector, in its three formats
            assertStatsFormats(port, afterReset);

            assertThat(jmx.invoke(new ObjectName("dev.logrouter:type=Sink,name=files"), "flush", null, null))
                    .isEqualTo("sink files: flushed (0 events were pending)");

            // remote clients read the JVM's MBeans too, but invoke only logrouter's and create none
            assertThat((Long) jmx.getAttribute(new ObjectName("java.lang:type=Runtime"), "Uptime")).isPositive();
            assertThatThrownBy(() -> jmx.invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "vmVersion", null, null)).isInstanceOf(SecurityException.class)
                    .hasMessageContaining("operations of dev.logrouter MBeans only");
            assertThatThrownBy(() -> jmx.createMBean("javax.management.loading.MLet",
                    new ObjectName("evil:type=MLet"))).isInstanceOf(SecurityException.class)
                    .hasMessageContaining("does not allow createMBean");
            assertThatThrownBy(() -> jmx.unregisterMBean(routerBean)).isInstanceOf(SecurityException.class);
        } finally {
            router.stop();
        }
        // the connector is closed with the router: stats says unreachable, and the port is given back (RMI closes
        // its listening socket on its accept thread, shortly after the last object on it is unexported)
        StatsOutput unreachable = stats("--jmx", "127.0.0.1:" + port);
        assertThat(unreachable.code()).isEqualTo(1);
        assertThat(unreachable.err()).startsWith("logrouter stats: cannot read 127.0.0.1:" + port + ": ");
        assertThat(TestClient.await(() -> stats("--jmx", "127.0.0.1:" + port).err().contains("Connection refused"),
                10_000)).as("port %d closed", port).isTrue();
    }

    /** {@code stats} prints exactly what JMX holds ({@code read}, without the clock values) in every format. */
    private static void assertStatsFormats(int port, Map<String, Object> read) throws Exception {
        String target = "127.0.0.1:" + port;

        StatsOutput table = stats("--jmx", target);
        assertThat(table.code()).as(table.err()).isZero();
        List<String> rows = table.out().lines().toList();
        assertThat(rows.get(0)).matches("TYPE +NAME +ATTRIBUTE +VALUE");
        assertThat(rows).hasSize(1 + read.size() + 2); // plus startTime and uptimeSeconds
        for (Map.Entry<String, Object> e : read.entrySet()) {
            String[] k = e.getKey().split("/");
            String value = String.valueOf(e.getValue());
            Pattern row = Pattern.compile(Pattern.quote(k[0]) + " +" + Pattern.quote(k[1]) + " +" + Pattern.quote(k[2])
                    + (value.isEmpty() ? "" : " +" + Pattern.quote(value)));
            assertThat(rows).as("table row for %s", e.getKey())
                    .anySatisfy(r -> assertThat(row.matcher(r.stripTrailing()).matches()).isTrue());
        }

        StatsOutput json = stats("--jmx", target, "--format", "json");
        assertThat(json.code()).as(json.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(json.out());
        Map<String, Object> fromJson = new TreeMap<>();
        root.fields().forEachRemaining(type -> type.getValue().fields().forEachRemaining(bean ->
                bean.getValue().fields().forEachRemaining(attr -> fromJson.put(
                        type.getKey() + "/" + bean.getKey() + "/" + attr.getKey(),
                        attr.getValue().isNumber() ? (Object) attr.getValue().longValue() : attr.getValue().asText()))));
        fromJson.remove("Router/main/startTime");
        fromJson.remove("Router/main/uptimeSeconds");
        assertThat(fromJson).containsExactlyInAnyOrderEntriesOf(read);

        StatsOutput prom = stats("--jmx", target, "--format", "prometheus");
        assertThat(prom.code()).as(prom.err()).isZero();
        List<String> lines = prom.out().lines().toList();
        Pattern sample = Pattern.compile(
                "logrouter_([a-z0-9]+)_[a-z0-9_]+\\{([a-z0-9_]+)=\"[^\"]*\"(,state=\"[A-Z_]+\")?} -?\\d+");
        Map<String, String> typeOf = new HashMap<>();
        for (String l : lines) {
            if (l.startsWith("# TYPE ")) {
                String[] p = l.split(" ");
                assertThat(typeOf.put(p[2], p[3])).as("one TYPE line per family: %s", p[2]).isNull();
            } else if (!l.startsWith("# HELP ")) {
                var m = sample.matcher(l);
                assertThat(m.matches()).as("sample line: %s", l).isTrue();
                assertThat(m.group(2)).as("the label is the type: %s", l).isEqualTo(m.group(1));
                String family = l.substring(0, l.indexOf('{'));
                assertThat(typeOf).as("TYPE before the samples of %s", family).containsKey(family);
            }
        }
        assertThat(lines).contains(
                "logrouter_source_received_total{source=\"net\"} 1",
                "logrouter_sink_written_total{sink=\"files\"} 1",
                "logrouter_sink_bytes_total{sink=\"files\"} " + read.get("Sink/files/bytes"),
                "logrouter_sink_average_batch_size{sink=\"files\"} " + read.get("Sink/files/averageBatchSize"),
                "logrouter_ring_capacity{ring=\"main\"} 1024",
                "logrouter_router_state{router=\"main\",state=\"RUNNING\"} 1",
                "logrouter_sink_state{sink=\"files\",state=\"RUNNING\"} 1",
                "logrouter_parser_failed_total{parser=\"fields.json\"} 0");
        assertThat(typeOf).containsEntry("logrouter_source_received_total", "counter")
                .containsEntry("logrouter_ring_capacity", "gauge");
        // every number, and the texts named state; other texts (errors) are not samples
        long texts = read.entrySet().stream()
                .filter(e -> e.getValue() instanceof String && !e.getKey().endsWith("/state")).count();
        assertThat(lines.stream().filter(l -> !l.startsWith("#"))).hasSize(read.size() + 2 - (int) texts);

        StatsOutput bad = stats("--jmx", target, "--format", "xml");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("unknown format 'xml' (table, json, prometheus)");
    }

    @Test
    void aFailedStartLeavesNoPortMBeanOrPropertyBehind() throws Exception {
        String hostname = System.getProperty("java.rmi.server.hostname");
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Router router = new Router(ComponentTypes.loader().load(config(taken.getLocalPort(), ""), "test.yaml"));
            assertThatThrownBy(router::start).isInstanceOf(java.io.IOException.class)
                    .hasMessageStartingWith("remote JMX on 127.0.0.1:" + taken.getLocalPort() + ": ");
            assertThat(ManagementFactory.getPlatformMBeanServer()
                    .isRegistered(new ObjectName("dev.logrouter:type=Router,name=main"))).isFalse();
            assertThat(System.getProperty("java.rmi.server.hostname")).isEqualTo(hostname);
            assertThat(router.stop()).isTrue();
        }
    }

    @Test
    void unauthenticatedRemoteJmxOffLoopbackIsRefusedByCheckConfig() throws Exception {
        Path cfg = dir.resolve("open.yaml");
        Files.writeString(cfg, config(9010, "    bind: 0.0.0.0"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(new String[] {"check-config", "--config", cfg.toString()}, System.out,
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("invalid configuration")
                .contains("refusing unauthenticated remote JMX on 0.0.0.0:9010: 0.0.0.0 is not a loopback address");

        // with a password file the same bind is accepted, once the file is private
        Path passwords = dir.resolve("jmx.password");
        Files.writeString(passwords, "admin secret\n");
        Files.writeString(cfg, config(9010, "    bind: 0.0.0.0\n    password-file: " + passwords));
        Files.setPosixFilePermissions(passwords, PosixFilePermissions.fromString("rw-r--r--"));
        err.reset();
        code = Main.run(new String[] {"check-config", "--config", cfg.toString()}, System.out,
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("must be readable by its owner only (chmod 600");
        Files.setPosixFilePermissions(passwords, PosixFilePermissions.fromString("rw-------"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        code = Main.run(new String[] {"check-config", "--config", cfg.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("configuration OK");
    }

    @Test
    void passwordAndAccessFilesGuardRemoteJmx() throws Exception {
        Path passwords = dir.resolve("jmx.password");
        Files.writeString(passwords, "admin adminpw\nmonitor monitorpw\n");
        Files.setPosixFilePermissions(passwords, PosixFilePermissions.fromString("rw-------"));
        Path access = dir.resolve("jmx.access");
        Files.writeString(access, "admin readwrite\nmonitor readonly\n");
        int port = Ports.freeLoopbackPort();
        Router router = TestClient.startRouter(config(port, "    password-file: " + passwords
                + "\n    access-file: " + access));
        ObjectName routerBean = new ObjectName("dev.logrouter:type=Router,name=main");
        try {
            assertThatThrownBy(() -> connect(port, Map.of())).isInstanceOf(SecurityException.class);
            assertThatThrownBy(() -> connect(port, credentials("admin", "wrong")))
                    .isInstanceOf(SecurityException.class);
            try (JMXConnector monitor = connect(port, credentials("monitor", "monitorpw"))) {
                MBeanServerConnection c = monitor.getMBeanServerConnection();
                assertThat(c.getAttribute(routerBean, "state")).isEqualTo("RUNNING");
                assertThatThrownBy(() -> c.invoke(routerBean, "resetAllCounters", null, null))
                        .isInstanceOf(SecurityException.class);
            }
            try (JMXConnector admin = connect(port, credentials("admin", "adminpw"))) {
                assertThat((String) admin.getMBeanServerConnection().invoke(routerBean, "resetAllCounters", null, null))
                        .startsWith("reset ");
            }

            Path monitorPassword = dir.resolve("monitor.pw");
            Files.writeString(monitorPassword, "monitorpw\n");
            StatsOutput ok = stats("--jmx", "127.0.0.1:" + port, "--user", "monitor", "--password-file",
                    monitorPassword.toString(), "--format", "json");
            assertThat(ok.code()).as(ok.err()).isZero();
            assertThat(new ObjectMapper().readTree(ok.out()).at("/Router/main/state").asText()).isEqualTo("RUNNING");
            StatsOutput anonymous = stats("--jmx", "127.0.0.1:" + port);
            assertThat(anonymous.code()).isEqualTo(1);
            assertThat(anonymous.err()).contains("cannot read 127.0.0.1:" + port);
        } finally {
            router.stop();
        }
    }

    /**
     * A JMX client on {@code service:jmx:rmi:///jndi/rmi://127.0.0.1:PORT/jmxrmi}. It names the JDK's registry
     * context factory, as the stats command does: this test class path holds Jetty's jndi.properties (from the
     * Hadoop minicluster), which would otherwise replace it.
     */
    private static JMXConnector connect(int port, Map<String, Object> env) throws Exception {
        Map<String, Object> withFactory = new HashMap<>(env);
        withFactory.put(javax.naming.Context.INITIAL_CONTEXT_FACTORY, StatsCommand.REGISTRY_CONTEXT_FACTORY);
        return JMXConnectorFactory.connect(url(port), withFactory);
    }

    private static Map<String, Object> credentials(String user, String password) {
        return Map.of(JMXConnector.CREDENTIALS, new String[] {user, password});
    }

    @Test
    void stateIsDegradedWhileASinkRetriesAndRunningAgainAfter() throws Exception {
        // the sink's base directory is a file: neither the path nor invalid-path.log can be opened, so the sink
        // retries (holding the ring) until the file is gone
        Path blocker = dir.resolve("out");
        Files.writeString(blocker, "not a directory");
        Router router = TestClient.startRouter(config(0, ""));
        ObjectName routerBean = new ObjectName("dev.logrouter:type=Router,name=main");
        ObjectName sinkBean = new ObjectName("dev.logrouter:type=Sink,name=files");
        var local = ManagementFactory.getPlatformMBeanServer(); // what local attach (jconsole, stats --pid) reads
        try {
            assertThat(local.getAttribute(routerBean, "state")).isEqualTo("RUNNING");
            TestClient.sendTcp(router.boundAddress("net"), line(TCP[0]) + "\n");
            assertThat(TestClient.await(() -> "DEGRADED".equals(attribute(local, routerBean, "state")), 10_000))
                    .as("state %s", attribute(local, routerBean, "state")).isTrue();
            assertThat((String) local.getAttribute(routerBean, "degradedBy")).startsWith("sink files: APPEND: ")
                    .contains(blocker.toString());
            assertThat((String) local.getAttribute(sinkBean, "lastError")).startsWith("APPEND: ");
            assertThat(local.getAttribute(sinkBean, "state")).isEqualTo("RETRYING");

            Files.delete(blocker);
            assertThat(TestClient.await(() -> "RUNNING".equals(attribute(local, routerBean, "state")), 15_000))
                    .isTrue();
            awaitMetric(router, "Sink", "files", "written", 1);
            assertThat(local.getAttribute(routerBean, "degradedBy")).isEqualTo("");
            assertThat((Long) local.getAttribute(sinkBean, "failures")).isPositive();
            assertThat(TestClient.textLines(dir.resolve("out/web1.log"))).containsExactly("web1 app " + TCP[0][2]);
        } finally {
            router.stop();
        }
        assertThat(local.isRegistered(routerBean)).as("unregistered at stop").isFalse();
    }

    private static Object attribute(javax.management.MBeanServer server, ObjectName on, String name) {
        try {
            return server.getAttribute(on, name);
        } catch (Exception e) {
            return e.toString();
        }
    }
}
