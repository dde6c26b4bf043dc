package dev.logrouter.bench.loadgen;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;

/**
 * One TLS connection (like {@code loggen --use-ssl}): the handshake happens when connecting, so that its cost and
 * errors come before any sender starts; frames go out in large blocking writes of the batch. Any server
 * certificate is accepted: this is a loopback benchmark client, not a secure one.
 */
final class TlsSender extends ConnectionSender {

    private static final int CONNECT_TIMEOUT_MS = 5_000;

    private final SSLSocket socket;
    private final OutputStream out;
    private byte[] copy = new byte[0];

    TlsSender(InetSocketAddress target, MessageBatch batch, long count, double perSecond) throws IOException {
        super(batch, count, perSecond);
        SSLSocket s;
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {new AnyServer()}, null);
            s = (SSLSocket) ctx.getSocketFactory().createSocket();
        } catch (GeneralSecurityException e) {
            throw new IOException("TLS client: " + e, e);
        }
        try {
            s.connect(target, CONNECT_TIMEOUT_MS);
            s.startHandshake();
        } catch (IOException e) {
            s.close();
            throw e;
        }
        this.socket = s;
        this.out = s.getOutputStream();
    }

    @Override
    void write(ByteBuffer frames, int n, int frameSize) throws IOException {
        int len = frames.remaining();
        if (copy.length < len) {
            copy = new byte[len];
        }
        frames.get(copy, 0, len);
        out.write(copy, 0, len);
    }

    @Override
    void close() throws IOException {
        socket.close();
    }

    /** Trusts every server: the benchmark measures throughput, not authentication. */
    private static final class AnyServer implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
