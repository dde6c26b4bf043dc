package dev.logrouter.server;

import dev.logrouter.netty.HostPort;
import dev.logrouter.core.testing.Conditions;

import java.io.IOException;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;

/** Loopback syslog client and waiting helpers for the end-to-end tests. */
final class TestClient {

    private TestClient() {
    }

    /** Loads {@code yaml} as a router's configuration and starts the router. */
    static Router startRouter(String yaml) throws Exception {
        Router r = new Router(ComponentTypes.loader().load(yaml, "test.yaml"));
        r.start();
        return r;
    }

    /** Opens a connection, writes the bytes, closes. */
    static void sendTcp(String hostPort, byte[] bytes) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(HostPort.parse(hostPort), 5000);
            OutputStream out = s.getOutputStream();
            out.write(bytes);
            out.flush();
        }
    }

    static void sendTcp(String hostPort, String text) throws IOException {
        sendTcp(hostPort, text.getBytes(StandardCharsets.UTF_8));
    }

    static void sendUdp(String hostPort, byte[] bytes) throws IOException {
        try (DatagramSocket s = new DatagramSocket()) {
            s.send(new DatagramPacket(bytes, bytes.length, HostPort.parse(hostPort)));
        }
    }

    /**
     * Streams {@code n} lines over one connection on a thread of its own, pausing after the first {@code pauseAt}
     * until {@code resume} opens (so that the rest arrives while a server is away). {@link #join} says how many
     * lines were written and rethrows what failed.
     */
    static final class Stream {
        private final AtomicInteger written = new AtomicInteger();
        private final AtomicReference<Throwable> error = new AtomicReference<>();
        private final Thread thread;

        Stream(String hostPort, int n, IntFunction<String> line, int pauseAt, CountDownLatch resume) {
            thread = new Thread(() -> {
                try (Socket s = new Socket()) {
                    s.connect(HostPort.parse(hostPort), 5000);
                    OutputStream out = s.getOutputStream();
                    for (int i = 0; i < n; i++) {
                        if (i == pauseAt) {
                            out.flush();
                            resume.await();
                        }
                        out.write(line.apply(i).getBytes(StandardCharsets.UTF_8));
                        written.incrementAndGet();
                    }
                } catch (Throwable e) {
                    error.set(e);
                }
            }, "sender");
            thread.setDaemon(true); // a failed test must not leave it waiting for resume
            thread.start();
        }

        int join(long timeoutMillis) throws Throwable {
            thread.join(timeoutMillis);
            if (error.get() != null) {
                throw error.get();
            }
            return written.get();
        }
    }

    /** An octet-counted frame. */
    static byte[] octet(String msg) {
        byte[] m = msg.getBytes(StandardCharsets.UTF_8);
        byte[] head = (m.length + " ").getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[head.length + m.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(m, 0, all, head.length, m.length);
        return all;
    }

    /** Waits until the condition holds or the deadline passes; returns whether it held. */
    static boolean await(BooleanSupplier condition, long timeoutMillis) {
        return Conditions.await(condition, Duration.ofMillis(timeoutMillis));
    }

    /** Lines of a file as raw bytes (split on LF), or empty when it does not exist. */
    static List<byte[]> lines(Path file) {
        List<byte[]> out = new ArrayList<>();
        if (!Files.exists(file)) {
            return out;
        }
        byte[] all;
        try {
            all = Files.readAllBytes(file);
        } catch (IOException e) {
            return out;
        }
        int start = 0;
        for (int i = 0; i < all.length; i++) {
            if (all[i] == '\n') {
                byte[] l = new byte[i - start];
                System.arraycopy(all, start, l, 0, l.length);
                out.add(l);
                start = i + 1;
            }
        }
        return out;
    }

    static List<String> textLines(Path file) {
        List<String> out = new ArrayList<>();
        for (byte[] l : lines(file)) {
            out.add(new String(l, StandardCharsets.ISO_8859_1));
        }
        return out;
    }

    /**
     * The address a router run as a child process printed ({@code logrouter: source … listening on HOST:PORT}), or
     * null while it has not yet.
     */
    static String listening(Path log) {
        try {
            for (String l : Files.readAllLines(log)) {
                int at = l.indexOf("listening on ");
                if (at >= 0) {
                    return l.substring(at + "listening on ".length()).trim();
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    /** What the {@code stats} command printed and returned. */
    record StatsOutput(int code, String out, String err) {
    }

    /** Runs the {@code stats} command in this JVM. */
    static StatsOutput stats(String... args) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = dev.logrouter.server.jmx.StatsCommand.run(args,
                new java.io.PrintStream(out, true, StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
        return new StatsOutput(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
