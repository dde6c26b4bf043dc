package dev.logrouter.server;

import dev.logrouter.core.testing.Ports;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ten minutes of an operator's life with one router process (two, across a restart), at a fixed rate: 1,000 messages
 * a second over TCP and 200 lines a second into a log file that is rotated by rename every 30 s, into a local file
 * sink (memory buffer) and a journaled RELP forward to a second router. In the middle that receiver is stopped for
 * 60 s; then
 * a reload (SIGHUP, a changed template); then a stop (SIGTERM) and a start. Every 10 s the router's RSS, heap after a
 * full GC, open file descriptors and threads are sampled: after the outage and the reload they are back at their
 * level after warm-up (no leak), the journal is back to one segment, and every message is in both destinations
 * (none lost; the local file once each, the forward at least once).
 *
 * <p>{@code -Dsoak.seconds=N} scales the whole run (default 600).
 */
class SoakTest {

    private static final long SECONDS = Long.getLong("soak.seconds", 600);
    private static final Pattern TCP_ID = Pattern.compile("s=(\\d+) ");
    private static final Pattern FILE_ID = Pattern.compile("f=(\\d+) ");

    @TempDir
    Path dir;

    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();
    private final List<AutoCloseable> open = new CopyOnWriteArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        stop.set(true);
        for (Thread t : threads) {
            t.join(30_000);
        }
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** The seconds of the timeline, scaled from the ten-minute plan. */
    private static long at(long secondOfTen) {
        return secondOfTen * SECONDS / 600;
    }

    @Test
    void tenMinutesWithAnOutageAReloadARotationAndARestartLeakNothingAndLoseNothing() throws Exception {
        int port = Ports.freeLoopbackPort();
        int receiverPort = Ports.freeLoopbackPort();
        Path in = Files.createDirectories(dir.resolve("in"));
        // the forward's destination: a second router taking RELP into a file (acknowledged once written)
        String receiverYaml = """
                sources:
                  - {name: relp, type: relp, bind: "127.0.0.1:%d"}
                sinks:
                  - {name: out, type: file, path: "%s/received.log", template: "${MSG}\\n"}
                """.formatted(receiverPort, dir);
        RouterProcess receiver = RouterProcess.start(dir, "receiver-1", receiverYaml);
        open.add(receiver);
        String yaml = """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:%d"}
                  - {name: files, type: file, paths: ["%s/*.log"], checkpoint-dir: "%s/ckpt", poll-interval: 100ms}
                sinks:
                  - {name: local, type: file, path: "%s/local.log", template: "${MSG}@SUFFIX@\\n"}
                  - {name: central, type: syslog, hosts: ["127.0.0.1:%d"], transport: relp, format: rfc5424,
                     buffer: journal, reconnect-delay: 100ms, reconnect-delay-max: 1s,
                     journal: {dir: "%s/journal", sync: interval, segment-size: 1MiB, free-disk-reserve: 0}}
                """.formatted(port, in, dir, dir, receiverPort, dir);
        Sender sender = new Sender("127.0.0.1:" + port);
        RouterProcess first = RouterProcess.start(dir, "soak-1", yaml.replace("@SUFFIX@", ""));
        open.add(first);
        long t0 = System.nanoTime();
        sender.start();
        startFileWriter(in.resolve("app.log"));
        Sampler s1 = new Sampler(first.pid());

        waitUntil(t0, at(60));
        s1.sampleUntil(t0, at(90));
        Sample warm1 = s1.level();
        s1.sampleUntil(t0, at(150));
        receiver.sigterm();                    // the forward's destination is down for 60 s
        assertThat(receiver.exitStatus(120)).as(receiver::log).isZero();
        s1.sampleUntil(t0, at(210));
        assertThat(first.stat("/Sink/central/backlogRecords")).as("the journal holds the backlog").isPositive();
        RouterProcess receiverAgain = RouterProcess.start(dir, "receiver-2", receiverYaml);
        open.add(receiverAgain);
        s1.sampleUntil(t0, at(270));
        Files.writeString(dir.resolve("soak-1.yaml"), yaml.replace("@SUFFIX@", " r")); // a reload
        new ProcessBuilder("kill", "-HUP", Long.toString(first.pid())).start().waitFor();
        s1.sampleUntil(t0, at(330));
        Sample end1 = s1.level();
        assertThat(first.stat("/Router/main/reloads")).isEqualTo(1);

        sender.pause();                        // a stop and a start
        first.sigterm();
        assertThat(first.exitStatus(120)).as(first::log).isZero();
        RouterProcess second = RouterProcess.start(dir, "soak-2", yaml.replace("@SUFFIX@", " r"));
        open.add(second);
        sender.resume();
        long t1 = System.nanoTime();
        Sampler s2 = new Sampler(second.pid());
        waitUntil(t1, at(60));
        s2.sampleUntil(t1, at(90));
        Sample warm2 = s2.level();
        s2.sampleUntil(t1, at(240));
        Sample end2 = s2.level();

        sender.pause();
        stop.set(true);
        for (Thread t : threads) {
            t.join(30_000);
        }
        long sent = sender.sent.get();
        long lines = fileLines.get();
        assertThat(awaitEvery(() -> count("received.log", TCP_ID) >= sent && count("received.log", FILE_ID) >= lines
                && count("local.log", TCP_ID) >= sent && count("local.log", FILE_ID) >= lines, 180))
                .as(() -> "sent " + sent + " / " + lines + "; received " + count("received.log", TCP_ID) + " / "
                        + count("received.log", FILE_ID) + "; local " + count("local.log", TCP_ID) + " / "
                        + count("local.log", FILE_ID) + "\n" + tail(second.log()) + "\n" + tail(receiverAgain.log()))
                .isTrue();
        assertThat(TestClient.await(() -> segments() == 1, 30_000)).as("the journal back to one segment: "
                + segments()).isTrue();
        System.out.println("soak: " + sent + " over TCP, " + lines + " file lines; process 1 after warm-up " + warm1
                + ", after the outage and the reload " + end1 + "; process 2 after warm-up " + warm2 + ", at the end "
                + end2 + "; forward resent " + second.stat("/Sink/central/resent") + "; samples 1 " + s1.samples
                + "; samples 2 " + s2.samples);
        second.sigterm();
        assertThat(second.exitStatus(120)).as(second::log).isZero();
        assertThat(second.lastLine()).contains("stopped cleanly");

        // no message lost anywhere; the local file exactly once
        assertThat(localIds(TCP_ID)).hasSize((int) sent);
        assertThat(localIds(TCP_ID).values()).as("local: once each").allMatch(c -> c == 1);
        assertThat(localIds(FILE_ID)).hasSize((int) lines);
        assertThat(localIds(FILE_ID).values()).as("local: once each").allMatch(c -> c == 1);
        assertThat(ids("received.log", TCP_ID)).hasSize((int) sent);
        assertThat(ids("received.log", FILE_ID)).hasSize((int) lines);
        // no leak: back at the level after warm-up
        for (Sample[] pair : new Sample[][] {{warm1, end1}, {warm2, end2}}) {
            Sample warm = pair[0];
            Sample end = pair[1];
            assertThat(end.routerThreads()).as("the router's threads " + warm + " -> " + end + ": "
                    + (pair[0] == warm1 ? s1 : s2).threadNames).isLessThanOrEqualTo(warm.routerThreads() + 1);
            assertThat(end.fds()).as("open files " + warm + " -> " + end).isLessThanOrEqualTo(warm.fds() + 4);
            assertThat(end.heapKiB()).as("heap after GC " + warm + " -> " + end)
                    .isLessThanOrEqualTo(warm.heapKiB() * 3 / 2 + 16 * 1024);
            assertThat(end.rssKiB()).as("RSS " + warm + " -> " + end)
                    .isLessThanOrEqualTo(warm.rssKiB() * 3 / 2 + 64 * 1024);
        }
    }

    private static void waitUntil(long t0, long second) throws InterruptedException {
        long left = t0 + TimeUnit.SECONDS.toNanos(second) - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    private long segments() {
        try (Stream<Path> files = Files.walk(dir.resolve("journal"))) {
            return files.filter(p -> p.getFileName().toString().endsWith(".seg")).count();
        } catch (IOException e) {
            return -1;
        }
    }

    private Map<Long, Integer> localIds(Pattern id) {
        return ids("local.log", id);
    }

    private Map<Long, Integer> ids(String file, Pattern id) {
        return ids(TestClient.textLines(dir.resolve(file)), id);
    }

    private long count(String file, Pattern id) {
        return ids(file, id).size();
    }

    /** Checks {@code condition} once a second (the files are large) for up to {@code seconds}. */
    private static boolean awaitEvery(java.util.function.BooleanSupplier condition, long seconds)
            throws InterruptedException {
        for (long i = 0; i < seconds; i++) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(1000);
        }
        return condition.getAsBoolean();
    }

    private static String tail(String log) {
        return log.length() <= 4000 ? log : log.substring(log.length() - 4000);
    }

    private static Map<Long, Integer> ids(Iterable<String> lines, Pattern id) {
        Map<Long, Integer> m = new java.util.HashMap<>();
        for (String l : lines) {
            Matcher matcher = id.matcher(l);
            if (matcher.find()) {
                m.merge(Long.parseLong(matcher.group(1)), 1, Integer::sum);
            }
        }
        return m;
    }

    private final AtomicLong fileLines = new AtomicLong();

    /** 200 lines a second into {@code file}, renamed to file.1 (file.1 to file.2) every 30 s of the plan. */
    private void startFileWriter(Path file) {
        Thread t = new Thread(() -> {
            long nextRotation = System.nanoTime() + TimeUnit.SECONDS.toNanos(Math.max(1, at(30)));
            try {
                while (!stop.get()) {
                    StringBuilder sb = new StringBuilder();
                    for (int i = 0; i < 20; i++) {
                        sb.append("f=").append(fileLines.getAndIncrement()).append(" from a log file\n");
                    }
                    Files.writeString(file, sb, StandardCharsets.US_ASCII, StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND);
                    if (System.nanoTime() - nextRotation > 0) {
                        Path one = file.resolveSibling(file.getFileName() + ".1");
                        if (Files.exists(one)) {
                            Files.move(one, file.resolveSibling(file.getFileName() + ".2"),
                                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                        }
                        Files.move(file, one);
                        nextRotation += TimeUnit.SECONDS.toNanos(Math.max(1, at(30)));
                    }
                    Thread.sleep(100);
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, "file-writer");
        threads.add(t);
        t.start();
    }

    /** One sample of the router process. */
    record Sample(long rssKiB, long heapKiB, long fds, long threads, long routerThreads) {
    }

    /** The JVM's own threads, which it starts and ends as it likes (GC workers, JIT compilers): not the router's. */
    private static final Pattern JVM_THREAD = Pattern.compile("GC Thread.*|G1 .*|C[12] CompilerThread.*|VM .*|"
            + "Signal Dispatcher|Attach Listener|Common-Cleaner|Notification Thread|Service Thread|Sweeper thread|"
            + "Monitor Deflation Thread|Reference Handler|Finalizer|JFR .*|process reaper|DestroyJavaVM|"
            + "RMI .*|JMX .*");

    /** Samples a process every 10 s of the plan: RSS and threads from /proc, heap used after a full GC by jcmd. */
    private final class Sampler {
        private final long pid;
        final List<Sample> samples = new ArrayList<>();
        /** The router's threads at the last sample. */
        volatile List<String> threadNames = List.of();

        Sampler(long pid) {
            this.pid = pid;
        }

        void sampleUntil(long t0, long second) throws Exception {
            long every = TimeUnit.SECONDS.toNanos(Math.max(1, at(10)));
            while (System.nanoTime() - (t0 + TimeUnit.SECONDS.toNanos(second)) < 0) {
                samples.add(sample());
                long left = Math.min(every, t0 + TimeUnit.SECONDS.toNanos(second) - System.nanoTime());
                if (left > 0) {
                    TimeUnit.NANOSECONDS.sleep(left);
                }
            }
        }

        /** The median of the last three samples. */
        Sample level() {
            List<Sample> last = samples.subList(Math.max(0, samples.size() - 3), samples.size());
            return new Sample(median(last, Sample::rssKiB), median(last, Sample::heapKiB), median(last, Sample::fds),
                    median(last, Sample::threads), median(last, Sample::routerThreads));
        }

        private static long median(List<Sample> l, java.util.function.ToLongFunction<Sample> f) {
            long[] v = l.stream().mapToLong(f).sorted().toArray();
            return v[v.length / 2];
        }

        private Sample sample() throws Exception {
            long rss = 0;
            long threadCount = 0;
            for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (l.startsWith("VmRSS:")) {
                    rss = Long.parseLong(l.replaceAll("\\D", ""));
                } else if (l.startsWith("Threads:")) {
                    threadCount = Long.parseLong(l.replaceAll("\\D", ""));
                }
            }
            long fds;
            try (Stream<Path> s = Files.list(Path.of("/proc/" + pid + "/fd"))) {
                fds = s.count();
            }
            String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
            new ProcessBuilder(jcmd, Long.toString(pid), "GC.run").redirectErrorStream(true).start()
                    .waitFor(30, TimeUnit.SECONDS);
            Process info = new ProcessBuilder(jcmd, Long.toString(pid), "GC.heap_info").redirectErrorStream(true)
                    .start();
            String out = new String(info.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            info.waitFor(30, TimeUnit.SECONDS);
            Matcher m = Pattern.compile("used (\\d+)K").matcher(out);
            long heap = m.find() ? Long.parseLong(m.group(1)) : -1;
            Process dump = new ProcessBuilder(jcmd, Long.toString(pid), "Thread.print").redirectErrorStream(true)
                    .start();
            String stacks = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            dump.waitFor(30, TimeUnit.SECONDS);
            List<String> names = new ArrayList<>();
            Matcher t = Pattern.compile("(?m)^\"([^\"]*)\"").matcher(stacks);
            while (t.find()) {
                if (!JVM_THREAD.matcher(t.group(1)).matches()) {
                    names.add(t.group(1));
                }
            }
            threadNames = names;
            return new Sample(rss, heap, fds, threadCount, names.size());
        }
    }

    /** 1,000 messages a second over one TCP connection; paused (connection closed) around a restart. */
    private final class Sender {
        private final String address;
        final AtomicLong sent = new AtomicLong();
        private volatile boolean paused;
        private volatile boolean idle;

        Sender(String address) {
            this.address = address;
        }

        void start() {
            Thread t = new Thread(this::run, "sender");
            threads.add(t);
            t.start();
        }

        private void run() {
            while (!stop.get()) {
                try (Socket s = new Socket()) {
                    s.connect(dev.logrouter.netty.HostPort.parse(address), 5000);
                    OutputStream out = s.getOutputStream();
                    idle = false;
                    while (!stop.get() && !paused) {
                        StringBuilder sb = new StringBuilder();
                        for (int i = 0; i < 10; i++) {
                            sb.append("<13>Mar  1 10:00:00 soak app: s=").append(sent.get() + i)
                                    .append(" over tcp\n");
                        }
                        out.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        sent.addAndGet(10);
                        Thread.sleep(10);
                    }
                } catch (IOException e) {
                    throw new IllegalStateException("the router refused a message while it ran", e);
                } catch (InterruptedException e) {
                    return;
                }
                idle = true;
                while (paused && !stop.get()) {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
            idle = true;
        }

        /** Stops sending and closes the connection (what a client does when told the server goes down). */
        void pause() {
            paused = true;
            assertThat(TestClient.await(() -> idle, 30_000)).isTrue();
        }

        void resume() {
            paused = false;
        }
    }
}
