package dev.logrouter.netty.tls;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonCreator;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;

import java.util.List;

/**
 * {@code tls:} of a TCP source: syslog over TLS (RFC 5425). The server's certificate and key come from PEM
 * files ({@code cert-file} + {@code key-file}) or a PKCS#12 key store ({@code keystore}); client certificates
 * are checked against the PEM bundle {@code ca-file}.
 *
 * <p>Threads: immutable, any thread.
 */
public record TlsConfig(
        @Option(doc = "PEM file with the server's certificate chain (server certificate first). With key-file; "
                + "or use keystore.", defaultValue = Option.NONE)
        @JsonAlias("cert")
        String certFile,
        @Option(doc = "PEM file with the server's private key in PKCS#8 (BEGIN PRIVATE KEY, or BEGIN ENCRYPTED "
                + "PRIVATE KEY with key-password). Convert an older key with `openssl pkcs8 -topk8 -nocrypt`.",
                defaultValue = Option.NONE)
        @JsonAlias("key")
        String keyFile,
        @Option(doc = "Password of an encrypted key-file.", defaultValue = Option.NONE)
        String keyPassword,
        @Option(doc = "PKCS#12 file with the server's private key and certificate chain (instead of cert-file and "
                + "key-file).", defaultValue = Option.NONE)
        String keystore,
        @Option(doc = "Password of the keystore (and of its key).", defaultValue = Option.NONE)
        String keystorePassword,
        @Option(doc = "PEM bundle of the CA certificates that sign client certificates (needed unless client-auth "
                + "is none).", defaultValue = Option.NONE)
        @JsonAlias("ca")
        String caFile,
        @Option(doc = "none: no client certificate asked for; optional: asked for, and if sent it must chain to "
                + "ca-file; required: a connection without a client certificate that chains to ca-file is refused "
                + "(mutual TLS; syslog-ng's peer-verify(required-trusted)).", defaultValue = "none")
        @JsonAlias("peer-verify")
        ClientAuthMode clientAuth,
        @Option(doc = "TLS protocol versions allowed: TLSv1.3 and/or TLSv1.2 (older ones are refused).",
                defaultValue = "[TLSv1.3, TLSv1.2]")
        List<String> protocols,
        @Option(doc = "Cipher suites allowed, by their IANA names; empty = forward-secret AEAD suites only: TLS 1.3's "
                + "TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384, TLS_CHACHA20_POLY1305_SHA256 and TLS 1.2's "
                + "ECDHE-(ECDSA|RSA) with AES-GCM or ChaCha20-Poly1305. A name the JDK does not support is a config "
                + "error. With provider openssl, TLS 1.3 suites cannot be narrowed (BoringSSL enables its three).",
                defaultValue = "[]")
        List<String> ciphers,
        @Option(doc = "jdk: the JDK's TLS; openssl: BoringSSL through netty-tcnative (bundled for Linux x86-64 and "
                + "ARM64), less CPU per message (docs/performance.md); auto: openssl where its native library loads, "
                + "else jdk.", defaultValue = "auto")
        Provider provider,
        @Option(doc = "A connection that has not completed its handshake in this time is closed and counted.",
                defaultValue = "10s")
        TimeSpan handshakeTimeout,
        @Option(doc = "How often the certificate, key and CA files are checked for changes; changed files are "
                + "loaded for new connections (open ones keep theirs) without a restart. 0 = only on the JMX "
                + "operation reloadTls. A file that does not load keeps the previous certificate (counted).",
                defaultValue = "1m")
        TimeSpan reloadInterval) {

    /** Checks the options; null means "not given yet" (the loader builds records once before filling defaults). */
    public TlsConfig {
        checkKeyMaterial(certFile, keyFile, keyPassword, keystore, keystorePassword);
        if (clientAuth == ClientAuthMode.none && caFile != null) {
            throw new IllegalArgumentException("tls: ca-file is given but client-auth is none, so no client certificate "
                    + "would be checked; set client-auth: required (or optional)");
        }
        if (clientAuth != null && clientAuth != ClientAuthMode.none && caFile == null) {
            throw new IllegalArgumentException("tls: client-auth " + clientAuth + " needs ca-file");
        }
        if (protocols != null) {
            checkProtocols(protocols);
            protocols = List.copyOf(protocols);
        }
        if (ciphers != null) {
            ciphers = List.copyOf(ciphers);
        }
        if (handshakeTimeout != null && handshakeTimeout.millis() <= 0) {
            throw new IllegalArgumentException("tls: handshake-timeout must be at least 1ms");
        }
        if (reloadInterval != null && reloadInterval.nanos() < 0) {
            throw new IllegalArgumentException("tls: reload-interval must be >= 0");
        }
    }

    /** Refuses a certificate and key given half, or both as PEM files and as a key store, and stray passwords. */
    static void checkKeyMaterial(String certFile, String keyFile, String keyPassword, String keystore,
                                 String keystorePassword) {
        boolean pem = certFile != null || keyFile != null;
        if (pem && keystore != null) {
            throw new IllegalArgumentException("tls: give either cert-file and key-file, or keystore, not both");
        }
        if (pem && (certFile == null || keyFile == null)) {
            throw new IllegalArgumentException("tls: cert-file and key-file go together");
        }
        if (keyPassword != null && keyFile == null) {
            throw new IllegalArgumentException("tls: key-password applies to key-file only");
        }
        if (keystorePassword != null && keystore == null) {
            throw new IllegalArgumentException("tls: keystore-password applies to keystore only");
        }
    }

    /** Refuses a protocol list that is empty or names anything but TLSv1.3 and TLSv1.2. */
    static void checkProtocols(List<String> protocols) {
        if (protocols.isEmpty()) {
            throw new IllegalArgumentException("tls: protocols must name TLSv1.3 and/or TLSv1.2");
        }
        for (String p : protocols) {
            if (!"TLSv1.3".equals(p) && !"TLSv1.2".equals(p)) {
                throw new IllegalArgumentException("tls: protocols: only TLSv1.2 and TLSv1.3 are allowed, not " + p);
            }
        }
    }

        /** True once defaults are filled: a certificate source is given. Checked when the source is built. */
    public void requireCertificate() {
        if (certFile == null && keystore == null) {
            throw new IllegalArgumentException("tls: needs cert-file and key-file, or keystore");
        }
    }

    /** Without the passwords, which must not reach logs or error messages. */
    @Override
    public String toString() {
        return "TlsConfig[certFile=" + certFile + ", keyFile=" + keyFile + ", keystore=" + keystore + ", caFile="
                + caFile + ", clientAuth=" + clientAuth + ", protocols=" + protocols + ", ciphers=" + ciphers + ", provider="
                + provider + "]";
    }

    /** Which TLS implementation serves the handshakes and records. */
    public enum Provider { auto, jdk, openssl }

    /**
     * Whether client certificates are asked for and required. Also read from syslog-ng's {@code peer-verify} values:
     * {@code optional-trusted} and {@code required-trusted}; the untrusted ones are refused (a certificate asked for
     * is always verified against ca-file).
     */
    public enum ClientAuthMode {
        none, optional, required;

        /** The mode named {@code value}, or the one a syslog-ng {@code peer-verify} value stands for. */
        @JsonCreator
        public static ClientAuthMode of(String value) {
            switch (value) {
                case "optional-trusted":
                    return optional;
                case "required-trusted":
                    return required;
                case "optional-untrusted":
                case "required-untrusted":
                    throw new IllegalArgumentException("client-auth (peer-verify) " + value + " is not supported: a "
                            + "client certificate asked for is always verified against ca-file; use none, optional "
                            + "(optional-trusted) or required (required-trusted)");
                default:
                    for (ClientAuthMode m : values()) {
                        if (m.name().equals(value)) {
                            return m;
                        }
                    }
                    throw new IllegalArgumentException("client-auth must be none, optional or required (or syslog-ng's "
                            + "optional-trusted, required-trusted), not '" + value + "'");
            }
        }
    }
}
