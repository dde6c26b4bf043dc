package dev.logrouter.netty.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The server side of a TLS source: builds Netty's {@link SslContext} (JDK or OpenSSL provider) from {@link TlsConfig},
 * hands each new connection an {@link SslHandler}, and swaps in a new context when the certificate, key or CA
 * files change ({@link #reloadIfChanged}) or the operator asks ({@link #reload}). A context that does not build
 * is never swapped in: the previous one stays and the failure is counted and described.
 *
 * <p>Threads: {@link #newHandler} on event loops (one volatile read); reloads on whichever thread asks (the
 * source's scheduled check on Netty's global executor, or a JMX thread), serialised by this object's lock.
 */
public final class ServerTls {

    /** Forward-secret AEAD suites only, when {@code ciphers} is empty. */
    static final List<String> DEFAULT_CIPHERS = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

    /**
     * The server session cache's timeout, in seconds: over the JDK's longest TLS 1.3 ticket lifetime (7 days), so that
     * the JDK provider sends no session tickets after a TLS 1.3 handshake (with the OpenSSL provider the same test
     * passes without this). Syslog senders never read: a ticket left unread in a sender's socket when it closes makes its
     * kernel reset the connection, which discards on our side every byte not read yet (TlsSourceTest
     * aSenderThatNeverReads...). Long-lived syslog connections gain nothing from resumption anyway.
     */
    static final long NO_TICKETS_SESSION_TIMEOUT = 8 * 24 * 3600L;

    private final TlsConfig cfg;
    private volatile Loaded loaded;
    /** The file stamps of the last failed reload: the periodic check does not retry until they change. */
    private List<FileStamp> failedStamps = List.of();

    /** A built context and what it was built from. */
    private record Loaded(SslContext context, List<FileStamp> stamps, X509Certificate certificate) {
    }

    /** A file's identity for change detection: modification time and size; -1, -1 when it cannot be read. */
    record FileStamp(Path path, long modified, long size) {
        static FileStamp of(Path p) {
            try {
                return new FileStamp(p, Files.getLastModifiedTime(p).toMillis(), Files.size(p));
            } catch (IOException e) {
                return new FileStamp(p, -1, -1); // gone or unreadable: a change, which the reload reports
            }
        }
    }

    /**
     * Builds the first context: every file is read and checked now, so a bad certificate, key, CA bundle,
     * protocol or cipher is an error at start (and at check-config), never at a client's first connection.
     *
     * @throws IllegalArgumentException saying which file or option is at fault and why
     */
    public ServerTls(TlsConfig cfg) {
        this.cfg = cfg;
        cfg.requireCertificate();
        this.loaded = build(cfg);
    }

    /** Builds a context from {@code cfg} once, to report its errors (check-config). */
    public static void check(TlsConfig cfg) {
        new ServerTls(cfg);
    }

    /** A handler for a new connection, from the current context. Event loop. */
    public SslHandler newHandler(ByteBufAllocator alloc) {
        SslHandler h = loaded.context().newHandler(alloc);
        h.setHandshakeTimeoutMillis(cfg.handshakeTimeout().millis());
        return h;
    }

    /** The current server certificate: subject, and when it expires. */
    public String certificateSummary() {
        X509Certificate c = loaded.certificate();
        return c == null ? "" : c.getSubjectX500Principal().getName() + " (expires " + c.getNotAfter().toInstant() + ")";
    }

    /** When the current server certificate expires. */
    public Instant notAfter() {
        X509Certificate c = loaded.certificate();
        return c == null ? Instant.EPOCH : c.getNotAfter().toInstant();
    }

    /**
     * Builds a new context from the files and swaps it in for new connections.
     *
     * @throws IllegalArgumentException when it does not build; the previous context stays
     */
    public synchronized void reload() {
        loaded = build(cfg);
    }

    /**
     * {@link #reload} when a file the current context was built from changed (or vanished) since, and not to the
     * same state as at the last failed reload (reported once already); true when it reloaded. Same failure as
     * reload.
     */
    public synchronized boolean reloadIfChanged() {
        List<FileStamp> now = new ArrayList<>();
        for (FileStamp s : loaded.stamps()) {
            now.add(FileStamp.of(s.path()));
        }
        if (now.equals(loaded.stamps()) || now.equals(failedStamps)) {
            return false;
        }
        try {
            reload();
        } catch (RuntimeException e) {
            failedStamps = now;
            throw e;
        }
        failedStamps = List.of();
        return true;
    }


    private static Loaded build(TlsConfig cfg) {
        List<FileStamp> stamps = new ArrayList<>();
        try {
            SslContextBuilder b;
            X509Certificate cert;
            if (cfg.keystore() != null) {
                KeyStoreMaterial m = keyStore(readable("keystore", cfg.keystore(), stamps), cfg.keystorePassword());
                cert = m.certificate();
                KeyManagerFactory kmf = m.keyManagers();
                b = SslContextBuilder.forServer(kmf);
            } else {
                Path certFile = readable("cert-file", cfg.certFile(), stamps);
                Path keyFile = readable("key-file", cfg.keyFile(), stamps);
                List<X509Certificate> chain = certificates("cert-file", certFile);
                cert = chain.get(0);
                java.security.PrivateKey key = cfg.keyPassword() == null ? PemKeys.readPkcs8(keyFile) : null;
                if (key != null) {
                    requireMatch(key, cert, "key-file " + keyFile + " and cert-file " + certFile);
                }
                try {
                    if (key != null) {
                        // the key and chain just checked are the ones served: a renewal landing now cannot slip in
                        b = SslContextBuilder.forServer(key, chain.toArray(X509Certificate[]::new));
                    } else { // encrypted, or a form only Netty reads (or refuses with its reason)
                        b = SslContextBuilder.forServer(certFile.toFile(), keyFile.toFile(), cfg.keyPassword());
                    }
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("tls: key-file " + keyFile + " does not load (a PKCS#8 PEM key "
                            + "is needed: `openssl pkcs8 -topk8 -nocrypt -in old.key -out new.key`; an encrypted one "
                            + "needs key-password): " + rootMessage(e), e);
                }
            }
            b.sslProvider(provider(cfg.provider())).protocols(cfg.protocols())
                    .sessionTimeout(NO_TICKETS_SESSION_TIMEOUT);
            ciphers(b, cfg.protocols(), cfg.ciphers());
            if (cfg.clientAuth() != TlsConfig.ClientAuthMode.none) {
                Path ca = readable("ca-file", cfg.caFile(), stamps);
                b.trustManager(certificates("ca-file", ca).toArray(X509Certificate[]::new));
                b.clientAuth(cfg.clientAuth() == TlsConfig.ClientAuthMode.required ? ClientAuth.REQUIRE
                        : ClientAuth.OPTIONAL);
            }
            SslContext context = b.build();
            requireCipherSuites(context, cfg.protocols(), cfg.ciphers());
            return new Loaded(context, List.copyOf(stamps), cert);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("tls: " + rootMessage(e), e);
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) { // e.g. a provider's own exception: still a "does not load" with a reason
            throw new IllegalArgumentException("tls: " + e, e);
        }
    }

    /** A PKCS#12 key store's key managers and the certificate of its key. */
    record KeyStoreMaterial(KeyManagerFactory keyManagers, X509Certificate certificate) {
    }

    /**
     * Loads a PKCS#12 key store ({@code keystore} + {@code keystore-password}) and checks that its key belongs to its
     * certificate. Throws IllegalArgumentException naming the file and the fault.
     */
    static KeyStoreMaterial keyStore(Path ks, String password) throws GeneralSecurityException {
        char[] pw = password == null ? new char[0] : password.toCharArray();
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(ks)) {
            store.load(in, pw);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("tls: keystore " + ks + " does not load as PKCS#12 (wrong "
                    + "keystore-password?): " + e.getMessage(), e);
        }
        String alias = keyAlias(store);
        if (alias == null || !(store.getCertificate(alias) instanceof X509Certificate c)) {
            throw new IllegalArgumentException("tls: keystore " + ks + " holds no private key with a certificate");
        }
        requireMatch((java.security.PrivateKey) store.getKey(alias, pw), c, "keystore " + ks);
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, pw);
        return new KeyStoreMaterial(kmf, c);
    }

    /**
     * Sets the cipher suites: {@code configured}, or {@link #DEFAULT_CIPHERS} when empty; refuses a name this JDK does
     * not support and a list that leaves no suite for {@code protocols}.
     */
    static void ciphers(SslContextBuilder b, List<String> protocols, List<String> configured) {
        List<String> ciphers = configured.isEmpty() ? DEFAULT_CIPHERS : configured;
        Set<String> supported;
        try {
            supported = new HashSet<>(Arrays.asList(
                    SSLContext.getDefault().getSupportedSSLParameters().getCipherSuites()));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("tls: the JDK's TLS does not load: " + e, e);
        }
        for (String c : ciphers) {
            if (!supported.contains(c)) {
                throw new IllegalArgumentException("tls: ciphers: " + c + " is not a cipher suite this JDK supports");
            }
        }
        boolean tls13 = ciphers.stream().anyMatch(ServerTls::isTls13Suite);
        boolean tls12 = ciphers.stream().anyMatch(c -> !isTls13Suite(c));
        if (!(tls13 && protocols.contains("TLSv1.3")) && !(tls12 && protocols.contains("TLSv1.2"))) {
            throw new IllegalArgumentException("tls: ciphers " + ciphers + " leave no cipher suite for "
                    + "protocols " + protocols + " (TLS 1.3 uses TLS_AES_* and TLS_CHACHA20_*, TLS 1.2 "
                    + "the others)");
        }
        b.ciphers(ciphers, IdentityCipherSuiteFilter.INSTANCE);
    }

    /**
     * Makes an engine from a new context, so that what the provider refuses (protocols, suites) is reported before the
     * first connection: none enabled is an IllegalArgumentException.
     */
    static void requireCipherSuites(SslContext context, List<String> protocols, List<String> ciphers) {
        SSLEngine probe = context.newEngine(UnpooledByteBufAllocator.DEFAULT);
        String[] enabled = probe.getEnabledCipherSuites();
        io.netty.util.ReferenceCountUtil.release(probe); // an OpenSSL engine holds native memory
        if (enabled.length == 0) {
            throw new IllegalArgumentException("tls: no cipher suite is enabled for protocols " + protocols
                    + " with ciphers " + ciphers);
        }
    }

    /** The provider to use; openssl when asked for but unavailable is an error that says why. */
    static SslProvider provider(TlsConfig.Provider p) {
        return switch (p) {
            case jdk -> SslProvider.JDK;
            case openssl -> {
                if (!OpenSsl.isAvailable()) {
                    throw new IllegalArgumentException("tls: provider openssl: netty-tcnative does not load here ("
                            + OpenSsl.unavailabilityCause() + "); use provider jdk or auto");
                }
                yield SslProvider.OPENSSL;
            }
            case auto -> OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
        };
    }

    /** The provider in use: "openssl" or "jdk" ({@code auto} resolved). */
    public String providerName() {
        return loaded.context() instanceof io.netty.handler.ssl.JdkSslContext ? "jdk" : "openssl";
    }

    private static boolean isTls13Suite(String suite) {
        return suite.startsWith("TLS_AES_") || suite.startsWith("TLS_CHACHA20_");
    }

    static Path readable(String option, String file, List<FileStamp> stamps) {
        Path p = Path.of(file);
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
            throw new IllegalArgumentException("tls: " + option + " " + p + " is not a readable file");
        }
        stamps.add(FileStamp.of(p));
        return p;
    }

    static List<X509Certificate> certificates(String option, Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            Collection<? extends Certificate> all = CertificateFactory.getInstance("X.509").generateCertificates(in);
            List<X509Certificate> out = new ArrayList<>();
            for (Certificate c : all) {
                out.add((X509Certificate) c);
            }
            if (out.isEmpty()) {
                throw new IllegalArgumentException("tls: " + option + " " + file + " holds no PEM certificate");
            }
            return out;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("tls: " + option + " " + file + " holds no readable PEM certificate: "
                    + rootMessage(e), e);
        }
    }

    static String keyAlias(KeyStore store) throws GeneralSecurityException {
        for (Enumeration<String> aliases = store.aliases(); aliases.hasMoreElements(); ) {
            String alias = aliases.nextElement();
            if (store.entryInstanceOf(alias, KeyStore.PrivateKeyEntry.class)) {
                return alias;
            }
        }
        return null;
    }

    /**
     * Refuses a key that does not belong to the certificate (a renewal caught half-way: new certificate, old
     * key), which would otherwise fail every handshake: signs a probe with the key and verifies it with the
     * certificate's public key.
     */
    static void requireMatch(java.security.PrivateKey key, X509Certificate cert, String what)
            throws GeneralSecurityException {
        String certAlg = cert.getPublicKey().getAlgorithm();
        if (!key.getAlgorithm().equals(certAlg)) {
            throw new IllegalArgumentException("tls: the private key does not belong to the certificate (" + what
                    + ": the key is " + key.getAlgorithm() + ", the certificate's key is " + certAlg + ")");
        }
        String alg = switch (key.getAlgorithm()) {
            case "EC" -> "SHA256withECDSA";
            case "RSA" -> "SHA256withRSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            default -> null;
        };
        if (alg == null) {
            return; // not checked here; the JDK reports it at the first handshake
        }
        byte[] probe = "logrouter key check".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        java.security.Signature sign = java.security.Signature.getInstance(alg);
        sign.initSign(key);
        sign.update(probe);
        byte[] sig = sign.sign();
        java.security.Signature verify = java.security.Signature.getInstance(alg);
        verify.initVerify(cert.getPublicKey());
        verify.update(probe);
        boolean ok;
        try {
            ok = verify.verify(sig);
        } catch (java.security.SignatureException e) {
            ok = false;
        }
        if (!ok) {
            throw new IllegalArgumentException("tls: the private key does not belong to the certificate (" + what
                    + ")");
        }
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + Objects.toString(t.getMessage(),
                t.getClass().getSimpleName()) + ")";
    }

    @Override
    public String toString() {
        return "ServerTls[" + cfg + "]";
    }
}
