package dev.logrouter.server.jmx;

import dev.logrouter.core.option.Option;

import java.util.List;

/**
 * TLS of the remote JMX connector: the server's key and certificate from a key store, optionally client
 * certificates checked against a trust store.
 *
 * <p>Threads: immutable, any thread.
 */
public record JmxTlsConfig(
        @Option(doc = "Key store file with the server's private key and certificate chain.",
                defaultValue = Option.REQUIRED)
        String keystore,
        @Option(doc = "Password of the key store (and of its key).", defaultValue = Option.REQUIRED)
        String keystorePassword,
        @Option(doc = "PKCS12 or JKS.", defaultValue = "PKCS12")
        String keystoreType,
        @Option(doc = "Require a client certificate signed by a certificate in truststore.", defaultValue = "false")
        Boolean clientAuth,
        @Option(doc = "Trust store with the certificates that sign client certificates (needed with client-auth).",
                defaultValue = Option.NONE)
        String truststore,
        @Option(doc = "Password of the trust store.", defaultValue = Option.NONE)
        String truststorePassword,
        @Option(doc = "TLS protocol versions allowed.", defaultValue = "[TLSv1.3, TLSv1.2]")
        List<String> protocols) {

    /** Without the passwords, which must not reach logs or error messages. */
    @Override
    public String toString() {
        return "JmxTlsConfig[keystore=" + keystore + ", keystoreType=" + keystoreType + ", clientAuth=" + clientAuth
                + ", truststore=" + truststore + ", protocols=" + protocols + "]";
    }

    /** Checks the options; null means "not given yet" (the loader builds records once before filling defaults). */
    public JmxTlsConfig {
        if (keystoreType != null && !"PKCS12".equalsIgnoreCase(keystoreType) && !"JKS".equalsIgnoreCase(keystoreType)) {
            throw new IllegalArgumentException("keystore-type must be PKCS12 or JKS, not " + keystoreType);
        }
        if (Boolean.TRUE.equals(clientAuth) && truststore == null) {
            throw new IllegalArgumentException("client-auth needs truststore");
        }
        if (protocols != null) {
            for (String p : protocols) {
                if (!"TLSv1.3".equals(p) && !"TLSv1.2".equals(p)) {
                    throw new IllegalArgumentException("protocols: only TLSv1.2 and TLSv1.3 are allowed, not " + p);
                }
            }
            protocols = List.copyOf(protocols);
        }
    }
}
