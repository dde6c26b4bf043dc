package dev.logrouter.netty.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
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
                Path ks = ServerTls.readable("keystore", cfg.keystore(), stamps);
                char[] pw = cfg.keystorePassword() == null ? new char[0] : cfg.keystorePassword().toCharArray();
                KeyStore store = KeyStore.getInstance("PKCS12");
                try (InputStream in = Files.newInputStream(ks)) {
                    store.load(in, pw);
                } catch (IOException | GeneralSecurityException e) {
                    throw new IllegalArgumentException("tls: keystore " + ks + " does not load as PKCS#12 (wrong "
                            + "keystore-password?): " + e.getMessage(), e);
                }
                String alias = ServerTls.keyAlias(store);
                if (alias == null || !(store.getCertificate(alias) instanceof X509Certificate c)) {
                    throw new IllegalArgumentException("tls: keystore " + ks + " holds no private key with a "
                            + "certificate");
                }
                ServerTls.requireMatch((PrivateKey) store.getKey(alias, pw), c, "keystore " + ks);
                KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(store, pw);
                b.keyManager(kmf);
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
            // an engine made now reports what the provider refuses (protocols, suites) before the first connect
            SSLEngine probe = context.newEngine(UnpooledByteBufAllocator.DEFAULT);
            String[] enabled = probe.getEnabledCipherSuites();
            io.netty.util.ReferenceCountUtil.release(probe); // an OpenSSL engine holds native memory
            if (enabled.length == 0) {
                throw new IllegalArgumentException("tls: no cipher suite is enabled for protocols " + cfg.protocols()
                        + " with ciphers " + cfg.ciphers());
            }
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
