package dev.logrouter.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP host that fails on command, in front of a real receiver: every connection accepted on {@link #port()} is
 * relayed byte for byte to {@code upstream} (so TLS and RELP pass through end to end), and a test makes the host
 * {@link #down() refuse connects} (the listener closed: the port answers with a reset, as a host whose syslog server
 * is stopped), {@link #reset() reset} or {@link #closeAll() cleanly close} every open connection, or
 * {@link #stall() stop reading} (a black hole: connects are accepted, nothing is read; the sender's writes pile up in
 * the kernel buffers) until {@link #resume()}. What a stalled connection's kernel buffers took is relayed when it
 * resumes or when the sender closes: the host was stuck, not dead.
 *
 * <p>Threads: the test's thread commands; one acceptor thread, two pump threads per connection.
 */
final class FaultProxy implements AutoCloseable {

    private final InetSocketAddress upstream;
    private final int port;
    private volatile ServerSocket listener;
    private volatile boolean stalled;
    private final Object stallLock = new Object();
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    /** The senders' ends of the open connections. */
    private final List<Socket> clients = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /** A host on a free loopback port, up (accepting) from the start unless {@code up} is false. */
    FaultProxy(InetSocketAddress upstream, boolean up) throws IOException {
        this.upstream = upstream;
        try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            this.port = probe.getLocalPort();
        }
        if (up) {
            up();
        }
    }

    int port() {
        return port;
    }

    /** {@code 127.0.0.1:PORT}. */
    String address() {
        return "127.0.0.1:" + port;
    }

    /** Opens the listener (a host coming back); resumes reading. */
    synchronized void up() throws IOException {
        resume();
        if (listener != null) {
            return;
        }
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        listener = s;
        Thread t = new Thread(() -> accept(s), "fault-proxy-accept-" + port);
        t.setDaemon(true);
        t.start();
    }

    /** Closes the listener and resets every open connection: connects are refused from now on. */
    synchronized void down() throws IOException {
        ServerSocket s = listener;
        listener = null;
        if (s != null) {
            s.close();
        }
        reset();
    }

    /** Resets (RST) every open connection; the listener stays as it is. */
    void reset() {
        for (Socket c : open) {
            try {
                c.setSoLinger(true, 0);
            } catch (SocketException ignored) {
                // closed already
            }
            closeQuietly(c);
        }
    }

    /** Closes every open connection cleanly (FIN) and closes the listener: a receiver stopped cleanly. */
    synchronized void closeAll() throws IOException {
        ServerSocket s = listener;
        listener = null;
        if (s != null) {
            s.close();
        }
        for (Socket c : clients) {
            try {
                c.shutdownOutput();
            } catch (IOException ignored) {
                // closed already
            }
        }
    }

    /** Stops reading every connection, open and new (accepted, never read). */
    void stall() {
        stalled = true;
    }

    /** Reads again. */
    void resume() {
        synchronized (stallLock) {
            stalled = false;
            stallLock.notifyAll();
        }
    }

    private void accept(ServerSocket s) {
        try {
            while (!closed) {
                Socket client = s.accept();
                Socket server;
                try {
                    server = new Socket();
                    server.connect(upstream, 5_000);
                } catch (IOException e) {
                    closeQuietly(client);
                    continue;
                }
                open.add(client);
                open.add(server);
                clients.add(client);
                java.util.concurrent.atomic.AtomicInteger ended = new java.util.concurrent.atomic.AtomicInteger();
                pump(client, server, true, ended);
                pump(server, client, false, ended);
            }
        } catch (IOException listenerClosed) {
            // down() or close()
        }
    }

    /**
     * Copies {@code from} to {@code to}; the sender's side ({@code fromSender}) obeys {@link #stall()}. An end of
     * stream is passed on as a half close; the second direction to end (or any error) closes both sockets.
     */
    private void pump(Socket from, Socket to, boolean fromSender, java.util.concurrent.atomic.AtomicInteger ended) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16 * 1024];
            boolean clean = false;
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                while (true) {
                    if (fromSender) {
                        awaitReading(from);
                    }
                    int n = in.read(buf);
                    if (n < 0) {
                        to.shutdownOutput();
                        clean = true;
                        break;
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // reset or closed: both sides close below
            } finally {
                if (!clean || ended.incrementAndGet() == 2) {
                    closeQuietly(from);
                    closeQuietly(to);
                    open.remove(from);
                    open.remove(to);
                    clients.remove(fromSender ? from : to);
                }
            }
        }, "fault-proxy-" + port + (fromSender ? "-up" : "-down"));
        t.setDaemon(true);
        t.start();
    }

    private void awaitReading(Socket from) throws InterruptedException {
        synchronized (stallLock) {
            while (stalled && !closed && !from.isClosed()) {
                stallLock.wait(100);
            }
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        resume();
        down();
    }
}
