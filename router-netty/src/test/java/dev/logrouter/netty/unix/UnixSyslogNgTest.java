package dev.logrouter.netty.unix;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.source.Source;
import dev.logrouter.core.source.SyslogFormat;
import dev.logrouter.core.testing.Conditions;
import dev.logrouter.netty.NettyTransport;
import dev.logrouter.netty.tcp.Framing;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.logrouter.netty.unix.UnixTesting.field;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both Unix sources against the real thing: a syslog-ng 3.38 with {@code unix-dgram()} and {@code unix-stream()}
 * sockets gets the very messages our sources get (util-linux logger, glibc's syslog(3)), and each message must come out
 * with the same {@code PRI|PROGRAM|PID|HOST|MSG}; over the stream also the same {@code .unix.pid}. (syslog-ng sets
 * {@code .unix.pid} on datagrams too, from SCM_CREDENTIALS, which Netty does not read: that column is left out for
 * datagrams.) One syslog-ng in the foreground for the class, its files in the temporary directory; skipped when
 * {@code /usr/sbin/syslog-ng} is absent ({@code .ci/run} installs Debian's {@code syslog-ng-core}).
 */
class UnixSyslogNgTest {

    private static final Path SYSLOG_NG = Path.of("/usr/sbin/syslog-ng");

    @TempDir
    static Path dir;
    private static Process syslogNg;
    private static Path out;
    private static NettyTransport transport;

    @BeforeAll
    static void startSyslogNg() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(SYSLOG_NG), "syslog-ng not installed: .ci/run installs syslog-ng-core");
        transport = NettyTransport.epoll(1, "unix-test");
        out = dir.resolve("sng.out");
        Path conf = dir.resolve("syslog-ng.conf");
        Files.writeString(conf, """
                @version: 3.38
                options { use-dns(no); stats-freq(0); };
                source s_unix { unix-dgram("%s"); unix-stream("%s"); };
                destination d_out { file("%s" template("${PRI}|${PROGRAM}|${PID}|${HOST}|${MSG}|${.unix.pid}\\n")); };
                log { source(s_unix); destination(d_out); };
                """.formatted(dir.resolve("sng-dgram"), dir.resolve("sng-stream"), out));
        syslogNg = new ProcessBuilder(SYSLOG_NG.toString(), "-F", "-e", "--no-caps", "-f", conf.toString(),
                "--persist-file", dir.resolve("syslog-ng.persist").toString(),
                "--pidfile", dir.resolve("syslog-ng.pid").toString(),
                "--control", dir.resolve("syslog-ng.ctl").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("syslog-ng.log").toFile()).start();
        assertThat(Conditions.await(() -> !syslogNg.isAlive()
                || Files.exists(dir.resolve("sng-dgram")) && Files.exists(dir.resolve("sng-stream")),
                Duration.ofSeconds(20)) && syslogNg.isAlive()).as("syslog-ng listens").isTrue();
    }

    @AfterAll
    static void stopSyslogNg() throws Exception {
        if (syslogNg != null) {
            syslogNg.destroy();
            if (!syslogNg.waitFor(10, TimeUnit.SECONDS)) {
                syslogNg.destroyForcibly();
            }
        }
        if (transport != null) {
            transport.close();
        }
    }

    private static List<String> syslogNgLines(int n) throws IOException {
        assertThat(Conditions.await(() -> {
            try {
                return Files.exists(out) && Files.readAllLines(out).size() >= n;
            } catch (IOException e) {
                return false;
            }
        }, Duration.ofSeconds(20))).as("syslog-ng wrote %d lines", n).isTrue();
        return Files.readAllLines(out);
    }

    private static String row(LogEvent e) {
        String pid = e.fields().get(".unix.pid");
        return e.pri() + "|" + field(e, LogEvent.PROGRAM) + "|" + field(e, LogEvent.PID) + "|"
                + field(e, LogEvent.HOST) + "|" + field(e, LogEvent.MSG) + "|" + (pid == null ? "" : pid);
    }

    @Test
    void bothSourcesParseWhatSyslogNgParses() throws Exception {
        UnixTesting.assumeLogger();
        Path client = UnixTesting.glibcClient(dir);
        UnixTesting dgramT = new UnixTesting("dgram", 256);
        UnixTesting streamT = new UnixTesting("stream", 256);
        Path ours = dir.resolve("ours-dgram");
        Path oursStream = dir.resolve("ours-stream");
        Source dgram = new UnixDgramSource(new UnixDgramSourceConfig("dgram", ours.toString(), null, null, "0666",
                SyslogFormat.auto, ByteSize.parse("64KiB"), ByteSize.parse("0")), transport, dgramT.publisher,
                dgramT.metrics);
        Source stream = new UnixStreamSource(new UnixStreamSourceConfig("stream", oursStream.toString(), null, null,
                "0666", Framing.auto, SyslogFormat.auto, ByteSize.parse("64KiB"), 16, ByteSize.parse("0")),
                transport, streamT.publisher, streamT.metrics);
        dgram.start();
        stream.start();
        try {
            List<List<String>> loggers = List.of(
                    List.of("-t", "myprog", "-i", "-p", "local3.warning", "hello unix"),
                    List.of("-t", "plain", "no pid: here"),
                    List.of("-p", "auth.err", "-t", "sshd[4]", "tag with its own brackets"),
                    List.of("-t", "x", "  leading spaces kept"));
            // each sender writes the same messages to syslog-ng's socket, then to ours, one after the other; each
            // phase ends when syslog-ng has written it, so that its lines can be told apart by phase
            for (List<String> args : loggers) {
                for (Path p : new Path[]{dir.resolve("sng-dgram"), ours}) {
                    List<String> cmd = new ArrayList<>(List.of("logger", "-u", p.toString(), "-d"));
                    cmd.addAll(args);
                    UnixTesting.run(cmd);
                }
            }
            int l = loggers.size();
            syslogNgLines(l);
            for (List<String> args : loggers) {
                for (Path p : new Path[]{dir.resolve("sng-stream"), oursStream}) {
                    List<String> cmd = new ArrayList<>(List.of("logger", "-u", p.toString(), "-T"));
                    cmd.addAll(args);
                    UnixTesting.run(cmd);
                }
            }
            syslogNgLines(2 * l);
            // glibc: one /dev/log per run, so one run per socket
            UnixTesting.runGlibcClient(client, dir.resolve("sng-dgram"), "gtest", 2);
            UnixTesting.runGlibcClient(client, ours, "gtest", 2);
            syslogNgLines(2 * l + 3);
            UnixTesting.runGlibcClient(client, dir.resolve("sng-stream"), "gtest", 2);
            UnixTesting.runGlibcClient(client, oursStream, "gtest", 2);

            int n = l + 3;
            List<String> sng = syslogNgLines(2 * n);
            List<String> ourDgram = dgramT.events(n).stream().map(UnixSyslogNgTest::row).toList();
            List<String> ourStream = streamT.events(n).stream().map(UnixSyslogNgTest::row).toList();
            List<String> sngDgram = new ArrayList<>(sng.subList(0, l));
            sngDgram.addAll(sng.subList(2 * l, 2 * l + 3));
            List<String> sngStream = new ArrayList<>(sng.subList(l, 2 * l));
            sngStream.addAll(sng.subList(2 * l + 3, 2 * n));

            // the senders' pids differ between the two runs: a number in PID or .unix.pid compares as <n>; datagrams
            // keep their order (one socket queue), connections may overtake each other (in syslog-ng too)
            assertThat(normalize(ourDgram, false)).isEqualTo(normalize(sngDgram, false));
            assertThat(normalize(ourStream, true)).containsExactlyInAnyOrderElementsOf(normalize(sngStream, true));
            assertThat(sng.get(0)).as("a spot check of the reference")
                    .matches("156\\|myprog\\|\\d+\\|.+\\|hello unix\\|\\d+");
        } finally {
            for (Source s : new Source[]{dgram, stream}) {
                s.stopAccepting();
                s.close();
            }
        }
    }

    /** Rows with any number in PID or .unix.pid as {@code <n>}; without the .unix.pid column for datagrams. */
    private static List<String> normalize(List<String> rows, boolean credentials) {
        List<String> outRows = new ArrayList<>();
        for (String r : rows) {
            String[] f = r.split("\\|", -1);
            f[2] = f[2].matches("\\d+") ? "<n>" : f[2];
            int last = f.length - 1;
            f[last] = !credentials ? "-" : f[last].matches("\\d+") ? "<n>" : f[last];
            outRows.add(String.join("|", f));
        }
        return outRows;
    }
}
