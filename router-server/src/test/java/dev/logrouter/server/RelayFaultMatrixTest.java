package dev.logrouter.server;

import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.testing.TestPki;
import dev.logrouter.netty.HostPort;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The syslog sink's host list under faults, as a relay lives them: two hosts A and B, each a {@link FaultProxy} in
 * front of a real receiving router, and one sending router per combination of {@code mode} (failover, round-robin),
 * {@code buffer} (memory, journal) and transport (TCP, TLS, RELP over TLS): twelve senders, all facing the same fault
 * at the same time. Every case checks, per sender: every message reached some live host at least once; the
 * receivers' duplicates are at most the sink's {@code resent}; and once a host is live again the sink is
 * {@code RUNNING} within {@code failback-after} + {@code reconnect-delay-max} + the sink's own retry backoff (at most
 * 5 s, when no host at all was live).
 *
 * <p>What plain TCP cannot promise is not asserted: bytes a host's kernel took before that host reset the connection
 * are lost without an error (RELP closes that gap); {@link #activeHostResetMidStream()} asserts all of it for RELP and,
 * for TCP and TLS, everything sent after the sink saw the reset.
 *
 * <p>Senders use short timers (connect-timeout and write-timeout 1 s, reconnect-delay 50 ms to 500 ms, failback-after
 * 2 s) so that the whole matrix runs in about two minutes.
 */
class RelayFaultMatrixTest {

    private static final long FAILBACK_MS = 2_000;
    private static final long RECONNECT_MAX_MS = 500;
    /** failback-after + reconnect-delay-max + the sink's retry backoff cap, and room for a loaded 2-core machine. */
    private static final long BACK_TO_RUNNING_MS = FAILBACK_MS + RECONNECT_MAX_MS + 5_000 + 10_000;
    private static final long DELIVERY_MS = 90_000;
    /** Messages per sender in a burst that a fault hits mid-stream. */
    private static final int MID_STREAM = 6_000;

    enum Transport { tcp, tls, relp }

    /** One sender's settings. */
    record Combo(String mode, String buffer, Transport transport) {
        String id() {
            return mode + "-" + buffer + "-" + transport;
        }
    }

    @TempDir
    static Path dir;
    private static TestPki pki;
    /** One receiving router per transport; its sources {@code a} and {@code b} write {@code <transport>/<source>}. */
    private static final Map<Transport, Router> receivers = new EnumMap<>(Transport.class);
    private static Router rogue;
    private static int caseNo;

    private final List<Router> senders = new ArrayList<>();
    private final List<FaultProxy> proxies = new ArrayList<>();

    @BeforeAll
    static void receivers() throws Exception {
        pki = new TestPki(dir);
        pki.server("receiver", "localhost");
        pki.client("relay", "/O=Example/CN=relay-01");
        pki.rogue("rogue", "/CN=localhost");
        for (Transport t : Transport.values()) {
            String type = t == Transport.relp ? "relp" : "tcp";
            String tls = t == Transport.tcp ? "" : ", tls: {cert-file: \"" + pki.cert("receiver") + "\", key-file: \""
                    + pki.key("receiver") + "\", ca-file: \"" + pki.caFile() + "\", client-auth: required}";
            receivers.put(t, TestClient.startRouter("""
                    sources:
                      - {name: a, type: %s, bind: "127.0.0.1:0"%s}
                      - {name: b, type: %s, bind: "127.0.0.1:0"%s}
                    pipeline: {ring-size: 4096, time-zone: UTC}
                    routes:
                      - {name: all, to: [out]}
                    sinks:
                      - {name: out, type: file, path: "%s/${SOURCE}.log", template: "${MSG}\\n"}
                    """.formatted(type, tls, type, tls, dir.resolve("received-" + t))));
        }
        rogue = TestClient.startRouter("""
                sources:
                  - {name: a, type: tcp, bind: "127.0.0.1:0", tls: {cert-file: "%s", key-file: "%s"}}
                routes:
                  - {name: all, to: [out]}
                sinks:
                  - {name: out, type: file, path: "%s", template: "${MSG}\\n"}
                """.formatted(pki.cert("rogue"), pki.key("rogue"), dir.resolve("rogue.log")));
    }

    @AfterAll
    static void stopReceivers() throws Exception {
        for (Router r : receivers.values()) {
            r.stop();
        }
        rogue.stop();
    }

    @AfterEach
    void stopSenders() throws Exception {
        for (Router r : senders) {
            r.stop();
        }
        senders.clear();
        for (FaultProxy p : proxies) {
            p.close();
        }
        proxies.clear();
    }

    private static List<Combo> combos(Predicate<Transport> which) {
        List<Combo> out = new ArrayList<>();
        for (String mode : List.of("failover", "round-robin")) {
            for (String buffer : List.of("memory", "journal")) {
                for (Transport t : Transport.values()) {
                    if (which.test(t)) {
                        out.add(new Combo(mode, buffer, t));
                    }
                }
            }
        }
        return out;
    }

    /** Host A or B of a transport: a proxy in front of that receiver's source. */
    private FaultProxy host(Transport t, String source, boolean up) throws IOException {
        FaultProxy p = new FaultProxy(HostPort.parse(receivers.get(t).boundAddress(source)), up);
        proxies.add(p);
        return p;
    }

    /** The sender of {@code c}: a TCP source into one syslog sink to {@code hosts} (host:port, in order). */
    private Router sender(Combo c, List<String> hosts, String extra) throws Exception {
        String tls = c.transport() == Transport.tcp ? "" : ", tls: {ca-file: \"" + pki.caFile() + "\", cert-file: \""
                + pki.cert("relay") + "\", key-file: \"" + pki.key("relay") + "\"}";
        String transport = c.transport() == Transport.tcp ? "tcp" : c.transport() == Transport.tls ? "tls" : "relp";
        String buffer = c.buffer().equals("journal") ? ", buffer: journal, journal: {dir: \""
                + dir.resolve("journal-" + (++caseNo) + "-" + c.id()) + "\", segment-size: 1MiB, free-disk-reserve: 0}"
                : "";
        StringBuilder list = new StringBuilder();
        for (String h : hosts) {
            list.append(list.isEmpty() ? "" : ", ").append('"').append(h).append('"');
        }
        Router r = TestClient.startRouter("""
                sources:
                  - {name: in, type: tcp, bind: "127.0.0.1:0", framing: lf}
                pipeline: {ring-size: 1024, parse-workers: 1, time-zone: UTC}
                routes:
                  - {name: all, to: [relay]}
                sinks:
                  - {name: relay, type: syslog, hosts: [%s], mode: %s, transport: %s%s%s, batch-size: 200,
                     connect-timeout: 1s, write-timeout: 1s, reconnect-delay: 50ms, reconnect-delay-max: %dms,
                     failback-after: %dms%s}
                """.formatted(list, c.mode(), transport, tls, buffer, RECONNECT_MAX_MS, FAILBACK_MS, extra));
        senders.add(r);
        return r;
    }

    /** Hosts A and B of every transport; A up or down from the start, B up. */
    private Map<Transport, FaultProxy[]> hostPairs(boolean aUp) throws IOException {
        Map<Transport, FaultProxy[]> hosts = new EnumMap<>(Transport.class);
        for (Transport t : Transport.values()) {
            hosts.put(t, new FaultProxy[] {host(t, "a", aUp), host(t, "b", true)});
        }
        return hosts;
    }

    /** One sender per combination, to hosts A then B of its transport, with {@code extra} sink options. */
    private Map<Combo, Router> senders(Map<Transport, FaultProxy[]> hosts, String extra) throws Exception {
        Map<Combo, Router> s = new HashMap<>();
        for (Combo c : combos(t -> true)) {
            FaultProxy[] h = hosts.get(c.transport());
            s.put(c, sender(c, List.of(named(h[0]), named(h[1])), extra));
        }
        return s;
    }

    /** {@link #sendAll} on a thread of its own, so that a fault can hit the burst mid-stream. */
    private static Thread sendAllInBackground(Map<Combo, Router> senders, String fault, int burst, int n) {
        Thread t = new Thread(() -> {
            try {
                sendAll(senders, fault, burst, n);
            } catch (Throwable e) {
                throw new AssertionError(e);
            }
        }, "burst-" + fault);
        t.start();
        return t;
    }

    /** Waits until every sender's first burst has begun to arrive at one of {@code hosts} ("a", "b"). */
    private static void awaitFirstBurstAt(Map<Combo, Router> senders, String fault, List<String> hosts) {
        for (Combo c : senders.keySet()) {
            String prefix = fault + "-" + c.id() + "-1-";
            assertThat(TestClient.await(() -> hosts.stream().mapToLong(h -> receivedAt(c.transport(), h, prefix))
                    .sum() > 0, 30_000)).as("%s: the first burst arrives", c.id()).isTrue();
        }
    }

    /** By name for TLS (the receiver's certificate names localhost; verify-hostname is on). */
    private static String named(FaultProxy p) {
        return "localhost:" + p.port();
    }

    /** The messages of one burst of one sender: {@code <case>-<combo>-<burst>-<i>}. */
    private static List<String> ids(String fault, Combo c, int burst, int n) {
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(fault + "-" + c.id() + "-" + burst + "-" + i);
        }
        return out;
    }

    /** Sends {@code ids} as RFC 5424 lines on one connection to the sender's source. */
    private static void send(Router sender, List<String> ids) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(HostPort.parse(sender.boundAddress("in")), 5_000);
            OutputStream out = new BufferedOutputStream(s.getOutputStream(), 64 * 1024);
            for (String id : ids) {
                out.write(("<13>1 2026-12-07T10:00:00.000Z h app - - - " + id + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            out.flush();
        }
    }

    /** Sends each sender its burst at once, in parallel (as many hosts sending at the same time). */
    private static void sendAll(Map<Combo, Router> senders, String fault, int burst, int n) throws Exception {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        for (var e : senders.entrySet()) {
            Thread t = new Thread(() -> {
                try {
                    send(e.getValue(), ids(fault, e.getKey(), burst, n));
                } catch (Throwable x) {
                    synchronized (errors) {
                        errors.add(x);
                    }
                }
            }, "client-" + e.getKey().id());
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join(60_000);
        }
        assertThat(errors).isEmpty();
    }

    /** Every line both hosts of transport {@code t} received, counted per line. */
    private static Map<String, Integer> received(Transport t) {
        Map<String, Integer> count = new HashMap<>();
        for (String source : List.of("a", "b")) {
            for (String line : TestClient.textLines(dir.resolve("received-" + t).resolve(source + ".log"))) {
                count.merge(line, 1, Integer::sum);
            }
        }
        return count;
    }

    /** Lines host {@code source} of transport {@code t} received that start with {@code prefix}. */
    private static long receivedAt(Transport t, String source, String prefix) {
        return TestClient.textLines(dir.resolve("received-" + t).resolve(source + ".log")).stream()
                .filter(l -> l.startsWith(prefix)).count();
    }

    private static boolean allArrived(Combo c, List<String> ids) {
        Map<String, Integer> got = received(c.transport());
        return ids.stream().allMatch(got::containsKey);
    }

    private static MetricGroup sink(Router r) {
        return r.metrics().require("Sink", "relay");
    }

    private static String describe(Router r) {
        MetricGroup g = sink(r);
        return "state " + g.textValue("state") + ", hosts " + g.textValue("hosts") + ", lastError "
                + g.textValue("lastError");
    }

    /**
     * Waits until every sender delivered {@code ids} (all bursts so far) and is RUNNING; then checks, per sender, at
     * least once and duplicates at most {@code resent}.
     */
    private static void assertDelivered(Map<Combo, Router> senders, String fault, Map<Combo, List<String>> sent) {
        SoftAssertions soft = new SoftAssertions();
        for (var e : senders.entrySet()) {
            Combo c = e.getKey();
            Router r = e.getValue();
            List<String> ids = sent.get(c);
            boolean all = TestClient.await(() -> allArrived(c, ids), DELIVERY_MS);
            Map<String, Integer> got = received(c.transport());
            long missing = ids.stream().filter(id -> !got.containsKey(id)).count();
            soft.assertThat(all).as("%s %s: all %d messages arrived (%d missing); %s", fault, c.id(), ids.size(),
                    missing, describe(r)).isTrue();
            long copies = ids.stream().mapToLong(id -> got.getOrDefault(id, 0)).sum();
            long resent = sink(r).value("resent");
            soft.assertThat(copies - (ids.size() - missing)).as("%s %s: duplicates at most resent (%d)", fault,
                    c.id(), resent).isLessThanOrEqualTo(resent);
            soft.assertThat(TestClient.await(() -> sink(r).textValue("state").equals("RUNNING"),
                    BACK_TO_RUNNING_MS))
                    .as("%s %s: RUNNING again; %s", fault, c.id(), describe(r)).isTrue();
        }
        soft.assertAll();
    }

    private static void add(Map<Combo, List<String>> sent, String fault, Combo c, int burst, int n) {
        sent.computeIfAbsent(c, k -> new ArrayList<>()).addAll(ids(fault, c, burst, n));
    }

    /**
     * Host A down from the start (nothing listens), B up: everything reaches B, also after A's tries (probes and
     * reconnects) failed several times (the wedge: a failed failback probe used to fail every batch for good).
     */
    @Test
    void oneHostDownFromTheStart() throws Exception {
        String fault = "down";
        Map<Transport, FaultProxy[]> hosts = hostPairs(false);
        Map<Combo, Router> s = senders(hosts, "");
        Map<Combo, List<String>> sent = new HashMap<>();
        sendAll(s, fault, 1, 2_000);
        s.keySet().forEach(c -> add(sent, fault, c, 1, 2_000));
        // A's tries fail again and again (a failover's failback probes, round-robin's reconnects) ...
        for (var e : s.entrySet()) {
            Router r = e.getValue();
            assertThat(TestClient.await(() -> sink(r).value("connectFailures") >= 4, 30_000))
                    .as(() -> e.getKey().id() + ": A tried again and again; " + describe(r)).isTrue();
        }
        // ... and batches still go to B
        sendAll(s, fault, 2, 2_000);
        s.keySet().forEach(c -> add(sent, fault, c, 2, 2_000));
        assertDelivered(s, fault, sent);
        for (var e : s.entrySet()) {
            assertThat(receivedAt(e.getKey().transport(), "a", fault + "-" + e.getKey().id())).isZero();
        }
    }

    /**
     * A down at start, up later: failover moves back to A once A has been up for failback-after; round-robin takes A
     * in again at its next connect. The second burst then reaches A (failover: all of it).
     */
    @Test
    void primaryDownAtStartAndUpLater() throws Exception {
        String fault = "late";
        Map<Transport, FaultProxy[]> hosts = hostPairs(false);
        Map<Combo, Router> s = senders(hosts, "");
        Map<Combo, List<String>> sent = new HashMap<>();
        sendAll(s, fault, 1, 2_000);
        s.keySet().forEach(c -> add(sent, fault, c, 1, 2_000));
        assertDelivered(s, fault, sent);
        for (FaultProxy[] h : hosts.values()) {
            h[0].up();
        }
        for (var e : s.entrySet()) {
            Router r = e.getValue();
            if (e.getKey().mode().equals("failover")) {
                assertThat(TestClient.await(() -> sink(r).value("failbacks") >= 1, BACK_TO_RUNNING_MS))
                        .as(() -> e.getKey().id() + ": failed back; " + describe(r)).isTrue();
            } else {
                String a = named(hosts.get(e.getKey().transport())[0]);
                assertThat(TestClient.await(() -> sink(r).textValue("activeHost").contains(a), BACK_TO_RUNNING_MS))
                        .as(() -> e.getKey().id() + ": A taken in again; " + describe(r)).isTrue();
            }
        }
        sendAll(s, fault, 2, 2_000);
        s.keySet().forEach(c -> add(sent, fault, c, 2, 2_000));
        assertDelivered(s, fault, sent);
        for (var e : s.entrySet()) {
            Combo c = e.getKey();
            long atA = receivedAt(c.transport(), "a", fault + "-" + c.id() + "-2-");
            if (c.mode().equals("failover")) {
                assertThat(atA).as("%s: the second burst went to the primary", c.id()).isEqualTo(2_000);
            } else {
                assertThat(atA).as("%s: round-robin uses A again", c.id()).isPositive();
            }
        }
    }

    /**
     * The host taking batches resets every connection while a burst is under way (its listener stays up). RELP:
     * everything arrives. TCP and TLS: what the host's kernel had taken when it reset is lost without an error
     * (plain TCP's limit); everything the sink sent after it saw the reset arrives, and the sink is RUNNING again.
     */
    @Test
    void activeHostResetMidStream() throws Exception {
        String fault = "reset";
        Map<Transport, FaultProxy[]> hosts = hostPairs(true);
        Map<Combo, Router> s = senders(hosts, "");
        Thread burst = sendAllInBackground(s, fault, 1, MID_STREAM);
        // mid-stream: once every sender has something delivered, every connection of both hosts is reset
        awaitFirstBurstAt(s, fault, List.of("a", "b"));
        for (FaultProxy[] h : hosts.values()) {
            h[0].reset();
            h[1].reset();
        }
        burst.join(60_000);
        Map<Combo, List<String>> sent = new HashMap<>();
        for (var e : s.entrySet()) {
            if (e.getKey().transport() == Transport.relp) {
                add(sent, fault, e.getKey(), 1, MID_STREAM);
            }
        }
        // a second burst, after the reset: all of it arrives
        sendAll(s, fault, 2, 2_000);
        s.keySet().forEach(c -> add(sent, fault, c, 2, 2_000));
        assertDelivered(s, fault, sent);
        for (var e : s.entrySet()) {
            Router r = e.getValue();
            assertThat(sink(r).value("connects") >= 2 || sink(r).value("writeFailures") >= 1)
                    .as(() -> e.getKey().id() + " saw the reset; " + describe(r)).isTrue();
        }
    }

    /** The host taking batches stops cleanly mid-stream (FIN, listener closed): everything reaches the other. */
    @Test
    void activeHostStoppedCleanlyMidStream() throws Exception {
        String fault = "stop";
        Map<Transport, FaultProxy[]> hosts = hostPairs(true);
        Map<Combo, Router> s = senders(hosts, "");
        Thread burst = sendAllInBackground(s, fault, 1, MID_STREAM);
        awaitFirstBurstAt(s, fault, List.of("a"));
        for (FaultProxy[] h : hosts.values()) {
            h[0].closeAll();
        }
        burst.join(60_000);
        Map<Combo, List<String>> sent = new HashMap<>();
        s.keySet().forEach(c -> add(sent, fault, c, 1, MID_STREAM));
        assertDelivered(s, fault, sent);
    }

    /**
     * The host taking batches stops reading mid-stream for longer than write-timeout (a black hole: it accepts,
     * reads nothing), then reads again: the stalled batch goes to the other host. With RELP everything has arrived
     * while A still reads nothing (what A did not answer went again to B); with TCP and TLS what A's kernel took
     * arrives when A reads again. Everything arrives at least once.
     */
    @Test
    void activeHostStallsMidStream() throws Exception {
        String fault = "stall";
        Map<Transport, FaultProxy[]> hosts = hostPairs(true);
        Map<Combo, Router> s = senders(hosts, "");
        Thread burst = sendAllInBackground(s, fault, 1, MID_STREAM);
        awaitFirstBurstAt(s, fault, List.of("a"));
        for (FaultProxy[] h : hosts.values()) {
            h[0].stall();
        }
        // every sender leaves A (a write or RELP answer times out), or had sent everything before the stall
        TestClient.await(() -> s.values().stream().allMatch(r -> sink(r).value("writeFailures") >= 1), 20_000);
        burst.join(60_000);
        Map<Combo, List<String>> sent = new HashMap<>();
        s.keySet().forEach(c -> add(sent, fault, c, 1, MID_STREAM));
        // RELP, while A still reads nothing (a black hole): what A never answered went to B, nothing is missing
        Map<Combo, Router> relp = new HashMap<>();
        s.forEach((c, r) -> {
            if (c.transport() == Transport.relp) {
                relp.put(c, r);
            }
        });
        assertDelivered(relp, fault + " (A still stalled)", sent);
        for (FaultProxy[] h : hosts.values()) {
            h[0].resume();
        }
        assertDelivered(s, fault, sent);
    }

    /** A goes up and down every second for 30 s (stopped cleanly, then back) while messages flow; B stays up. */
    @Test
    void flappingHost() throws Exception {
        String fault = "flap";
        Map<Transport, FaultProxy[]> hosts = hostPairs(true);
        // failback-after shorter than the flap: the sink keeps moving back to A and away again
        Map<Combo, Router> s = senders(hosts, ", failback-after: 500ms");
        Map<Combo, List<String>> sent = new HashMap<>();
        long end = System.nanoTime() + 30_000_000_000L;
        boolean up = true;
        int burst = 0;
        long nextFlip = System.nanoTime() + 1_000_000_000L;
        while (System.nanoTime() < end) {
            burst++;
            sendAll(s, fault, burst, 50);
            int b = burst;
            s.keySet().forEach(c -> add(sent, fault, c, b, 50));
            if (System.nanoTime() - nextFlip >= 0) {
                nextFlip += 1_000_000_000L;
                up = !up;
                for (FaultProxy[] h : hosts.values()) {
                    if (up) {
                        h[0].up();
                    } else {
                        h[0].closeAll();
                    }
                }
            }
            // pacing, not waiting for a condition: about 500 messages a second per sender
            java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
        }
        for (FaultProxy[] h : hosts.values()) {
            h[0].up();
        }
        assertDelivered(s, fault, sent);
        for (var e : s.entrySet()) {
            assertThat(sink(e.getValue()).value("connects")).as("%s reconnected while A flapped", e.getKey().id())
                    .isGreaterThan(3);
        }
    }

    /**
     * A TLS host whose certificate is not signed by the trusted CA: its connects fail (never plaintext), every
     * message reaches B, and the sink is RUNNING (B is live).
     */
    @Test
    void aTlsHostWhoseCertificateFails() throws Exception {
        String fault = "cert";
        Map<Combo, Router> s = new HashMap<>();
        for (Combo c : combos(t -> t != Transport.tcp)) {
            FaultProxy b = host(c.transport(), "b", true);
            String rogueHost = "localhost:" + HostPort.parse(rogue.boundAddress("a")).getPort();
            s.put(c, sender(c, List.of(rogueHost, named(b)), ""));
        }
        Map<Combo, List<String>> sent = new HashMap<>();
        sendAll(s, fault, 1, 2_000);
        s.keySet().forEach(c -> add(sent, fault, c, 1, 2_000));
        assertDelivered(s, fault, sent);
        for (var e : s.entrySet()) {
            assertThat(sink(e.getValue()).value("connectFailures")).isPositive();
            Router r = e.getValue();
            assertThat(TestClient.await(() -> sink(r).textValue("hosts").contains("connect failed"), 10_000))
                    .as(() -> e.getKey().id() + ": the rogue host is down; " + describe(r)).isTrue();
        }
        assertThat(TestClient.textLines(dir.resolve("rogue.log"))).as("nothing in plaintext to the rogue").isEmpty();
    }
}
