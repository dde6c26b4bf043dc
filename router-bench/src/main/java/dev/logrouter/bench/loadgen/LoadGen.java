package dev.logrouter.bench.loadgen;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * Command-line syslog load generator in the manner of syslog-ng's {@code loggen}: N parallel TCP, TLS or UDP
 * connections to a loopback port, fixed-size RFC 3164 (LF framed) or RFC 5424 (octet counted) messages carrying
 * a per-connection sequence number, optional total rate, bounded by a count or a duration.
 *
 * <pre>
 * java -cp router-bench/target/router-bench.jar dev.logrouter.bench.loadgen.LoadGen \
 *     --port 5514 --connections 10 --size 400 --count 1000000 --format rfc3164
 * </pre>
 *
 * <p>stdout gets exactly one line, {@code sent=N elapsed_s=X rate_msgs=Y rate_mbs=Z} (MB = 10^6 bytes, elapsed
 * from the first write to the last connection finishing); everything else goes to stderr. Exit status: 0 when
 * every connection finished cleanly, 1 on a connection error or the hard timeout, 2 on a usage error.
 */
public final class LoadGen {

    private static final int BATCH_BYTES = 256 * 1024;
    private static final long PROGRESS_INTERVAL_NANOS = 1_000_000_000L;

    private LoadGen() {
    }

    /** Entry point; see the class comment for options and output. */
    public static void main(String[] args) {
        LoadGenOptions options;
        try {
            options = LoadGenOptions.parse(args);
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().isEmpty()) {
                System.err.println("loadgen: " + e.getMessage());
            }
            System.err.println(LoadGenOptions.USAGE);
            System.exit(e.getMessage().isEmpty() ? 0 : 2);
            return;
        }
        System.exit(run(options, System.out, System.err));
    }

    /**
     * Connects, sends, waits, prints the summary line to {@code out}; returns the exit status.
     * Diagnostics go to {@code err}.
     */
    static int run(LoadGenOptions options, PrintStream out, PrintStream err) {
        List<ConnectionSender> senders;
        try {
            senders = connect(options);
        } catch (IllegalArgumentException e) {
            err.println("loadgen: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("loadgen: cannot connect to " + target(options) + ": " + e);
            out.println(summary(0, 0, options.size()));
            return 1;
        }
        CountDownLatch go = new CountDownLatch(1);
        long start = System.nanoTime() + 1_000_000L;
        long end = options.durationNanos() > 0 ? start + options.durationNanos() : Long.MAX_VALUE;
        long hardDeadline = start + options.durationNanos() + options.timeoutNanos();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < senders.size(); i++) {
            ConnectionSender sender = senders.get(i);
            sender.schedule(go, start, end);
            Thread thread = new Thread(sender, "loadgen-" + i);
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        go.countDown();
        boolean timedOut = !awaitAll(threads, senders, hardDeadline, options.progress() ? err : null);
        if (timedOut) {
            err.println("loadgen: hard timeout (" + options.timeoutNanos() / 1_000_000_000L
                    + " s past the planned end): stopping; the receiver is not reading");
            senders.forEach(ConnectionSender::stop);
            joinQuietly(threads);
        }
        long sent = 0;
        long last = start;
        int failures = 0;
        for (ConnectionSender sender : senders) {
            sent += sender.sent();
            last = Math.max(last, sender.finishedNanos());
            if (sender.error() != null) {
                failures++;
                if (failures <= 3) {
                    err.println("loadgen: connection failed after " + sender.sent() + " messages: " + sender.error());
                }
            }
        }
        if (failures > 3) {
            err.println("loadgen: " + failures + " connections failed in all");
        }
        out.println(summary(sent, last - start, options.size()));
        out.flush();
        return failures > 0 || timedOut ? 1 : 0;
    }

    /** Opens every connection before any message is sent; closes them all if one fails. */
    private static List<ConnectionSender> connect(LoadGenOptions options) throws IOException {
        InetSocketAddress target = target(options);
        MessageBatch.Framing framing = options.udp() ? MessageBatch.Framing.DATAGRAM
                : options.format() == SyslogFormat.RFC5424 ? MessageBatch.Framing.OCTET_COUNTED
                : MessageBatch.Framing.LF;
        int capacity = Math.max(1, BATCH_BYTES / options.size());
        long pid = ProcessHandle.current().pid();
        List<ConnectionSender> senders = new ArrayList<>();
        try {
            for (int i = 0; i < options.connections(); i++) {
                MessageBatch batch = new MessageBatch(options.format(), framing, options.size(), capacity, i, pid);
                senders.add(options.udp()
                        ? new UdpSender(target, batch, options.countFor(i), options.rateFor(i))
                        : options.tls() ? new TlsSender(target, batch, options.countFor(i), options.rateFor(i))
                        : new TcpSender(target, batch, options.countFor(i), options.rateFor(i)));
            }
        } catch (IOException | RuntimeException e) {
            senders.forEach(ConnectionSender::stop);
            throw e;
        }
        return senders;
    }

    private static InetSocketAddress target(LoadGenOptions options) {
        return new InetSocketAddress(options.address(), options.port());
    }

    /**
     * Waits for all threads until {@code deadline}; prints a rate line per second to {@code progress} if not
     * null. Returns false on timeout.
     */
    private static boolean awaitAll(List<Thread> threads, List<ConnectionSender> senders, long deadline,
                                    PrintStream progress) {
        long lastReport = System.nanoTime();
        long lastSent = 0;
        for (Thread thread : threads) {
            while (thread.isAlive()) {
                long now = System.nanoTime();
                if (now - deadline >= 0) {
                    return false;
                }
                try {
                    thread.join(Math.max(1, Math.min(deadline - now, PROGRESS_INTERVAL_NANOS) / 1_000_000L));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
                now = System.nanoTime();
                if (progress != null && now - lastReport >= PROGRESS_INTERVAL_NANOS) {
                    long sent = senders.stream().mapToLong(ConnectionSender::sent).sum();
                    progress.printf(Locale.ROOT, "loadgen: sent=%d rate_msgs=%.0f%n", sent,
                            (sent - lastSent) * 1e9 / (now - lastReport));
                    lastReport = now;
                    lastSent = sent;
                }
            }
        }
        return true;
    }

    private static void joinQuietly(List<Thread> threads) {
        for (Thread thread : threads) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The one stdout line. */
    static String summary(long sent, long elapsedNanos, int size) {
        double seconds = Math.max(elapsedNanos, 1) / 1e9;
        return String.format(Locale.ROOT, "sent=%d elapsed_s=%.3f rate_msgs=%.0f rate_mbs=%.2f",
                sent, seconds, sent / seconds, sent * (double) size / seconds / 1e6);
    }
}
