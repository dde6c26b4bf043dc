package dev.logrouter.netty.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

/**
 * The client side of TLS for the syslog sink: builds Netty's client {@link SslContext} (JDK or OpenSSL provider) from
 * {@link TlsClientConfig} once, so that a bad CA bundle, certificate, key, protocol or cipher is an error at start
 * (and at {@code check-config}), and hands each new connection an {@link SslHandler} that verifies the server's
 * certificate chain and, with {@code verify-hostname}, its name; SNI names the host connected to.
 *
 * <p>Threads: immutable after construction; {@link #newHandler} on event loops.
 */
public final class ClientTls {

    private final TlsClientConfig cfg;
    private final SslContext context;

    /** @throws IllegalArgumentException saying which file or option is at fault and why */
    public ClientTls(TlsClientConfig cfg) {
        this.cfg = cfg;
        this.context = build(cfg);
    }

    /** A handler for a new connection to {@code host:port} (the name verified and sent as SNI). Event loop. */
    public SslHandler newHandler(ByteBufAllocator alloc, String host, int port) {
        SslHandler h = context.newHandler(alloc, host, port);
        h.setHandshakeTimeoutMillis(cfg.handshakeTimeout().millis());
        return h;
    }

    /** The provider in use: "openssl" or "jdk" ({@code auto} resolved). */
    public String providerName() {
        return context instanceof io.netty.handler.ssl.JdkSslContext ? "jdk" : "openssl";
    }

    private static SslContext build(TlsClientConfig cfg) {
        List<ServerTls.FileStamp> stamps = new ArrayList<>();
        try {
            SslContextBuilder b = SslContextBuilder.forClient();
            if (cfg.keystore() != null) {
                b.keyManager(ServerTls.keyStore(ServerTls.readable("keystore", cfg.keystore(), stamps),
                        cfg.keystorePassword()).keyManagers());
            } else if (cfg.certFile() != null) {
                Path certFile = ServerTls.readable("cert-file", cfg.certFile(), stamps);
                Path keyFile = ServerTls.readable("key-file", cfg.keyFile(), stamps);
                List<X509Certificate> chain = ServerTls.certificates("cert-file", certFile);
                PrivateKey key = cfg.keyPassword() == null ? PemKeys.readPkcs8(keyFile) : null;
                try {
                    if (key != null) {
                        ServerTls.requireMatch(key, chain.get(0), "key-file " + keyFile + " and cert-file " + certFile);
                        b.keyManager(key, chain.toArray(X509Certificate[]::new));
                    } else {
                        b.keyManager(certFile.toFile(), keyFile.toFile(), cfg.keyPassword());
                    }
                } catch (IllegalArgumentException e) {
                    if (e.getMessage() != null && e.getMessage().startsWith("tls: ")) {
                        throw e;
                    }
                    throw new IllegalArgumentException("tls: key-file " + keyFile + " does not load (a PKCS#8 PEM "
                            + "key is needed; an encrypted one needs key-password): " + ServerTls.rootMessage(e), e);
                }
            }
            if (cfg.caFile() != null) {
                Path ca = ServerTls.readable("ca-file", cfg.caFile(), stamps);
                b.trustManager(ServerTls.certificates("ca-file", ca).toArray(X509Certificate[]::new));
            }
            b.sslProvider(ServerTls.provider(cfg.provider())).protocols(cfg.protocols())
                    .endpointIdentificationAlgorithm(cfg.verifyHostname() ? "HTTPS" : null);
            ServerTls.ciphers(b, cfg.protocols(), cfg.ciphers());
            SslContext context = b.build();
            ServerTls.requireCipherSuites(context, cfg.protocols(), cfg.ciphers());
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("tls: " + ServerTls.rootMessage(e), e);
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("tls: " + e, e);
        }
    }

    @Override
    public String toString() {
        return "ClientTls[" + cfg + "]";
    }
}
