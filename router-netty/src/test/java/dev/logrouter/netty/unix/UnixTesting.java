package dev.logrouter.netty.unix;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.source.SyslogFormat;
import dev.logrouter.core.testing.Conditions;
import dev.logrouter.netty.RingPublisher;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The harness of the Unix source tests: a real ring whose consumer is a sequence the test holds still (slots stay as
 * published, up to the ring's size), the publisher a Unix source builds (hint with FORMAT_NO_HOSTNAME), the real
 * syslog header parser applied to what arrived, and the external senders (util-linux logger, a glibc client).
 *
 * <p>Threads: the test thread.
 */
final class UnixTesting {

    final RingBuffer<LogEvent> ring;
    final MetricGroup metrics;
    final RingPublisher publisher;
    private final SyslogHeaderParser parser = new SyslogHeaderParser(ZoneId.systemDefault());

    UnixTesting(String name, int ringSize) {
        ring = RingBuffer.createMultiProducer(LogEvent.FACTORY, ringSize);
        ring.addGatingSequences(new Sequence(-1)); // nothing consumes: every slot keeps what was published into it
        metrics = new MetricGroup("Source", name);
        publisher = new RingPublisher(ring, 0, name, UnixSources.hint(SyslogFormat.auto), 1L, metrics);
    }

    /** Waits until counter {@code name} reaches {@code value}. */
    boolean await(String name, long value) {
        return Conditions.await(() -> metrics.value(name) >= value, Duration.ofSeconds(20));
    }

    /** The first {@code n} events, parsed, once all are published (fails after 20 s). */
    List<LogEvent> events(int n) {
        if (!Conditions.await(() -> metrics.value("received") >= n && allAvailable(n), Duration.ofSeconds(20))) {
            throw new AssertionError("expected " + n + " events, got " + metrics.value("received"));
        }
        List<LogEvent> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            LogEvent e = ring.get(i);
            parser.parse(e);
            out.add(e);
        }
        return out;
    }

    private boolean allAvailable(int n) {
        for (int i = 0; i < n; i++) {
            if (!ring.isAvailable(i)) {
                return false;
            }
        }
        return true;
    }

    static String field(LogEvent e, int id) {
        return new String(e.fieldArray(id), e.fieldOffset(id), e.fieldLength(id), StandardCharsets.UTF_8);
    }

    static String raw(LogEvent e) {
        return new String(e.raw(), 0, e.rawLength(), StandardCharsets.UTF_8);
    }

    /** The local host name as the router names it (HOST of local messages). */
    static String localHost() {
        return new String(dev.logrouter.core.template.LocalHostName.get(), StandardCharsets.UTF_8);
    }

    /** Runs {@code cmd}; returns its pid after it exited 0 (fails with its output otherwise). */
    static long run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", cmd) + " failed: " + out);
        }
        return p.pid();
    }

    /** Whether {@code cmd} runs and exits 0. */
    static boolean works(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().close();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    static void assumeLogger() {
        Assumptions.assumeTrue(works(List.of("logger", "--version")),
                "util-linux logger is not installed (Debian package bsdutils): the logger tests are skipped");
    }

    /** The glibc syslog(3) client, compiled with gcc into {@code dir}; skips the test when gcc is missing. */
    static Path glibcClient(Path dir) throws IOException, InterruptedException {
        Assumptions.assumeTrue(works(List.of("gcc", "--version")),
                "gcc is not installed: the glibc syslog(3) client cannot be built, its tests are skipped");
        Assumptions.assumeTrue(works(List.of("unshare", "-m", "true")),
                "unshare -m fails (needs root or CAP_SYS_ADMIN): syslog(3) writes only to /dev/log, which the "
                        + "test can point at its socket only in a mount namespace of its own; skipped");
        Path src = dir.resolve("client.c");
        Files.writeString(src, """
                #include <stdlib.h>
                #include <syslog.h>

                /* argv[1] ident, argv[2] count: count messages with LOG_PID as local3.warning, then one without a
                   pid as daemon.err, through glibc's syslog(3), which writes to /dev/log */
                int main(int argc, char **argv) {
                    int n = argc > 2 ? atoi(argv[2]) : 1;
                    openlog(argv[1], LOG_PID | LOG_NDELAY, LOG_LOCAL3);
                    for (int i = 0; i < n; i++) {
                        syslog(LOG_WARNING, "glibc message %d", i);
                    }
                    closelog();
                    openlog(argv[1], 0, LOG_DAEMON);
                    syslog(LOG_ERR, "without pid");
                    closelog();
                    return 0;
                }
                """);
        Path bin = dir.resolve("client");
        run(List.of("gcc", "-O0", "-o", bin.toString(), src.toString()));
        return bin;
    }

    /**
     * Runs the glibc client so that its /dev/log is {@code socket}: in a mount namespace of its own, a tmpfs over
     * /dev holds a link /dev/log → socket (the host's /dev is not touched). Returns the client's pid (unshare and sh
     * exec it: one process).
     */
    static long runGlibcClient(Path client, Path socket, String ident, int count)
            throws IOException, InterruptedException {
        return run(List.of("unshare", "-m", "sh", "-c",
                "mount -t tmpfs tmpfs /dev && ln -s \"$0\" /dev/log && exec \"$1\" \"$2\" \"$3\"",
                socket.toString(), client.toString(), ident, Integer.toString(count)));
    }
}
