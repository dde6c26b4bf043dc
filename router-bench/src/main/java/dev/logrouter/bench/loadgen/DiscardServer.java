package dev.logrouter.bench.loadgen;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Iterator;
import java.util.Locale;

/**
 * A TCP discard receiver on a loopback port, to measure {@link LoadGen}'s own ceiling (like the bench kit's
 * socat sink). One selector thread reads and drops everything, counting bytes (and LF-terminated lines with
 * {@code --lines}).
 *
 * <pre>
 * java -cp router-bench.jar dev.logrouter.bench.loadgen.DiscardServer --port 15600 [--lines] [--duration 60]
 * </pre>
 *
 * <p>Stops after {@code --duration} seconds (default 60), or once {@code --idle} seconds (default 2) pass with
 * no open connection after at least one was accepted. Prints one line to stdout:
 * {@code received_bytes=N lines=N connections=N elapsed_s=X rate_mbs=Y} (elapsed from first to last byte).
 */
public final class DiscardServer {

    private static final int READ_BUFFER = 1 << 20;

    private DiscardServer() {
    }

    /** Entry point; see the class comment. */
    public static void main(String[] args) throws IOException {
        String host = "127.0.0.1";
        int port = -1;
        boolean lines = false;
        double duration = 60;
        double idle = 2;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--host" -> host = args[++i];
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--lines" -> lines = true;
                case "--duration" -> duration = Double.parseDouble(args[++i]);
                case "--idle" -> idle = Double.parseDouble(args[++i]);
                default -> {
                    System.err.println("usage: DiscardServer --port N [--host 127.0.0.1] [--lines] "
                            + "[--duration S] [--idle S]");
                    System.exit(2);
                }
            }
        }
        if (port < 0) {
            System.err.println("discard: --port is required");
            System.exit(2);
        }
        InetAddress address;
        try {
            address = LoadGenOptions.loopback(host);
        } catch (IllegalArgumentException e) {
            System.err.println("discard: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.out.println(serve(new InetSocketAddress(address, port), lines, (long) (duration * 1e9),
                (long) (idle * 1e9)));
    }

    /** Accepts and drains connections until the duration or the idle time ends; returns the summary line. */
    static String serve(InetSocketAddress bind, boolean countLines, long durationNanos, long idleNanos)
            throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(READ_BUFFER);
        long bytes = 0;
        long lines = 0;
        long accepted = 0;
        int open = 0;
        long first = 0;
        long last = 0;
        long start = System.nanoTime();
        long idleSince = 0;
        try (Selector selector = Selector.open(); ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(bind, 1024);
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
            System.err.println("discard: listening on " + bind);
            while (true) {
                long now = System.nanoTime();
                if (now - start >= durationNanos || (accepted > 0 && open == 0 && now - idleSince >= idleNanos)) {
                    break;
                }
                selector.select(100);
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    if (key.isAcceptable()) {
                        SocketChannel ch = server.accept();
                        if (ch != null) {
                            ch.configureBlocking(false);
                            ch.register(selector, SelectionKey.OP_READ);
                            accepted++;
                            open++;
                        }
                        continue;
                    }
                    SocketChannel ch = (SocketChannel) key.channel();
                    int n;
                    try {
                        n = ch.read(buffer.clear());
                    } catch (IOException e) {
                        n = -1;
                    }
                    if (n < 0) {
                        key.cancel();
                        ch.close();
                        if (--open == 0) {
                            idleSince = System.nanoTime();
                        }
                    } else if (n > 0) {
                        last = System.nanoTime();
                        if (first == 0) {
                            first = last;
                        }
                        bytes += n;
                        if (countLines) {
                            for (int i = 0; i < n; i++) {
                                if (buffer.get(i) == '\n') {
                                    lines++;
                                }
                            }
                        }
                    }
                }
            }
            for (SelectionKey key : selector.keys()) {
                key.channel().close();
            }
        }
        double seconds = Math.max(last - first, 1) / 1e9;
        return String.format(Locale.ROOT, "received_bytes=%d lines=%d connections=%d elapsed_s=%.3f rate_mbs=%.2f",
                bytes, lines, accepted, seconds, bytes / seconds / 1e6);
    }
}
