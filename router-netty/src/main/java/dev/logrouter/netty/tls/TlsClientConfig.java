package dev.logrouter.netty.tls;

import com.fasterxml.jackson.annotation.JsonAlias;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;

import java.util.List;

/**
 * {@code tls:} of a {@code type: syslog} sink with {@code transport: tls}: the client side of syslog over TLS
 * (RFC 5425). The server's certificate is checked against {@code ca-file} (or the JDK's trust store) and, with
 * {@code verify-hostname}, must name the host connected to; a client certificate for mutual TLS comes from PEM files
 * ({@code cert-file} + {@code key-file}) or a PKCS#12 {@code keystore}. The same protocol, cipher and provider
 * options as a TLS source's.
 *
 * <p>Threads: immutable, any thread.
 */
public record TlsClientConfig(
        @Option(doc = "PEM bundle of the CA certificates that sign the servers' certificates; absent: the JDK's "
                + "default trust store (public CAs).", defaultValue = Option.NONE)
        @JsonAlias("ca")
        String caFile,
        @Option(doc = "Check that the server's certificate names the host connected to (its DNS name or IP address "
                + "in the hosts entry), as HTTPS does. Turn off only for certificates without the right names.",
                defaultValue = "true")
        Boolean verifyHostname,
        @Option(doc = "PEM file with this client's certificate chain, for servers that require client certificates "
                + "(mutual TLS). With key-file; or use keystore.", defaultValue = Option.NONE)
        @JsonAlias("cert")
        String certFile,
        @Option(doc = "PEM file with the client's private key in PKCS#8 (BEGIN PRIVATE KEY, or BEGIN ENCRYPTED "
                + "PRIVATE KEY with key-password).", defaultValue = Option.NONE)
        @JsonAlias("key")
        String keyFile,
        @Option(doc = "Password of an encrypted key-file.", defaultValue = Option.NONE)
        String keyPassword,
        @Option(doc = "PKCS#12 file with the client's private key and certificate chain (instead of cert-file and "
                + "key-file).", defaultValue = Option.NONE)
        String keystore,
        @Option(doc = "Password of the keystore (and of its key).", defaultValue = Option.NONE)
        String keystorePassword,
        @Option(doc = "TLS protocol versions allowed: TLSv1.3 and/or TLSv1.2 (older ones are refused).",
                defaultValue = "[TLSv1.3, TLSv1.2]")
        List<String> protocols,
        @Option(doc = "Cipher suites allowed, by their IANA names; empty = forward-secret AEAD suites only (as a TLS "
                + "source's ciphers).", defaultValue = "[]")
        List<String> ciphers,
        @Option(doc = "jdk, openssl (BoringSSL through netty-tcnative) or auto (openssl where it loads, else jdk).",
                defaultValue = "auto")
        TlsConfig.Provider provider,
        @Option(doc = "A connection whose handshake has not completed in this time is closed and counted as a "
                + "failed connect.", defaultValue = "10s")
        TimeSpan handshakeTimeout) {

    /** Checks the options; null means "not given yet" (the loader builds records once before filling defaults). */
    public TlsClientConfig {
        TlsConfig.checkKeyMaterial(certFile, keyFile, keyPassword, keystore, keystorePassword);
        if (protocols != null) {
            TlsConfig.checkProtocols(protocols);
            protocols = List.copyOf(protocols);
        }
        if (ciphers != null) {
            ciphers = List.copyOf(ciphers);
        }
        if (handshakeTimeout != null && handshakeTimeout.millis() <= 0) {
            throw new IllegalArgumentException("tls: handshake-timeout must be at least 1ms");
        }
    }

    /** Without the passwords, which must not reach logs or error messages. */
    @Override
    public String toString() {
        return "TlsClientConfig[caFile=" + caFile + ", verifyHostname=" + verifyHostname + ", certFile=" + certFile
                + ", keyFile=" + keyFile + ", keystore=" + keystore + ", protocols=" + protocols + ", ciphers="
                + ciphers + ", provider=" + provider + "]";
    }
}
