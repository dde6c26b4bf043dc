package dev.logrouter.server;

import dev.logrouter.netty.HostPort;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A plain RELP client for tests, written from the protocol (librelp's frame grammar): writes frames as given (so a
 * test can also write broken ones) and reads the server's frames one at a time.
 *
 * <p>Threads: one test thread.
 */
final class RelpTestClient implements AutoCloseable {

    /** A frame the server sent. */
    record Frame(int txnr, String command, String data) {
        int status() {
            return data.length() >= 3 ? Integer.parseInt(data.substring(0, 3)) : -1;
        }
    }

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private int txnr = 1;

    RelpTestClient(String hostPort) throws IOException {
        this(hostPort, 0);
    }

    /** @param receiveBuffer the socket's SO_RCVBUF, 0 = the system's */
    RelpTestClient(String hostPort, int receiveBuffer) throws IOException {
        this(connect(hostPort, receiveBuffer));
    }

    /** RELP over TLS: the handshake done with {@code tls} (its key managers present the client certificate). */
    RelpTestClient(String hostPort, javax.net.ssl.SSLContext tls) throws IOException {
        this(handshake(connect(hostPort, 0), hostPort, tls));
    }

    private RelpTestClient(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(30_000);
        out = new java.io.BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
        in = new BufferedInputStream(socket.getInputStream());
    }

    private static Socket connect(String hostPort, int receiveBuffer) throws IOException {
        Socket s = new Socket();
        if (receiveBuffer > 0) {
            s.setReceiveBufferSize(receiveBuffer);
        }
        s.connect(HostPort.parse(hostPort), 5000);
        return s;
    }

    private static Socket handshake(Socket plain, String hostPort, javax.net.ssl.SSLContext tls) throws IOException {
        var s = (javax.net.ssl.SSLSocket) tls.getSocketFactory().createSocket(plain,
                hostPort.substring(0, hostPort.lastIndexOf(':')), plain.getPort(), true);
        s.setSoTimeout(30_000);
        s.startHandshake();
        return s;
    }

    /** Sends librelp's open offers and returns the answer. */
    Frame open() throws IOException {
        send("open", "relp_version=0\nrelp_software=test,1,none\ncommands=syslog");
        flush();
        return read();
    }

    /** Sends one command with the next transaction number; returns that number. */
    int send(String command, String data) throws IOException {
        int t = txnr++;
        raw(frame(t, command, data));
        return t;
    }

    static byte[] frame(int txnr, String command, String data) {
        byte[] d = data.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream b = new ByteArrayOutputStream(d.length + 32);
        b.writeBytes((txnr + " " + command + " " + d.length + (d.length > 0 ? " " : "")).getBytes(StandardCharsets.US_ASCII));
        b.writeBytes(d);
        b.write('\n');
        return b.toByteArray();
    }

    void raw(byte[] bytes) throws IOException {
        out.write(bytes);
    }

    void flush() throws IOException {
        out.flush();
    }

    /** The next frame from the server, or null at the end of the stream. */
    Frame read() throws IOException {
        int t = number(' ');
        if (t < 0) {
            return null;
        }
        StringBuilder cmd = new StringBuilder();
        for (int c = in.read(); c != ' '; c = in.read()) {
            if (c < 0) {
                throw new IOException("stream ended in a command");
            }
            cmd.append((char) c);
        }
        int len = 0;
        int c;
        for (c = in.read(); c >= '0' && c <= '9'; c = in.read()) {
            len = len * 10 + (c - '0');
        }
        byte[] data = new byte[len];
        if (c == ' ') {
            int n = in.readNBytes(data, 0, len);
            if (n < len) {
                throw new IOException("stream ended in data");
            }
            c = in.read();
        }
        if (c != '\n') {
            throw new IOException("no trailer: " + c);
        }
        return new Frame(t, cmd.toString(), new String(data, StandardCharsets.UTF_8));
    }

    private int number(char end) throws IOException {
        int v = 0;
        int c = in.read();
        if (c < 0) {
            return -1;
        }
        for (; c != end; c = in.read()) {
            if (c < '0' || c > '9') {
                throw new IOException("not a number: " + c);
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** Half-closes the output: the server sees the end of the stream. */
    void shutdownOutput() throws IOException {
        out.flush();
        socket.shutdownOutput();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
