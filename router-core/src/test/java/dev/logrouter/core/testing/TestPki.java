package dev.logrouter.core.testing;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * A throw-away PKI made with the {@code openssl} command for TLS tests: a CA, server certificates for
 * {@code localhost}/127.0.0.1 signed by it (PEM: {@code <name>.pem} + PKCS#8 {@code <name>.key}, and PKCS#12
 * {@code <name>.p12} with password {@link #PASSWORD}), client certificates signed by it, and self-signed
 * "rogue" certificates no CA vouches for. EC P-256 keys, valid for 2 days.
 *
 * <p>Threads: used by one test thread.
 */
public final class TestPki {

    public static final String PASSWORD = "test-secret";

    private final Path dir;

    /** Makes the CA in {@code dir}. */
    public TestPki(Path dir) throws IOException, InterruptedException {
        this.dir = dir;
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/O=logrouter tests/CN=Test CA", "-keyout", file("ca.key"), "-out", file("ca.pem"));
    }

    /** The CA certificate (PEM): what a server's ca-file or a client's trust holds. */
    public Path caFile() {
        return dir.resolve("ca.pem");
    }

    public Path cert(String name) {
        return dir.resolve(name + ".pem");
    }

    public Path key(String name) {
        return dir.resolve(name + ".key");
    }

    public Path p12(String name) {
        return dir.resolve(name + ".p12");
    }

    /** A server certificate for localhost and 127.0.0.1, signed by the CA. */
    public TestPki server(String name, String commonName) throws IOException, InterruptedException {
        return signed(name, "/CN=" + commonName, "subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                + "extendedKeyUsage=serverAuth\n", "ec");
    }

    /** A server certificate as {@link #server}, with an RSA key (2048 bits) instead of an EC one. */
    public TestPki rsaServer(String name, String commonName) throws IOException, InterruptedException {
        return signed(name, "/CN=" + commonName, "subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                + "extendedKeyUsage=serverAuth\n", "rsa:2048");
    }

    /** A client certificate with this subject (e.g. {@code /O=Example/OU=web/CN=web-01}), signed by the CA. */
    public TestPki client(String name, String subject) throws IOException, InterruptedException {
        return signed(name, subject, "extendedKeyUsage=clientAuth\n", "ec");
    }

    /** A self-signed certificate with this subject: no CA vouches for it. */
    public TestPki rogue(String name, String subject) throws IOException, InterruptedException {
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", subject, "-keyout", file(name + ".key"), "-out", file(name + ".pem"));
        return p12(name, false);
    }

    /** @param newKey openssl req's -newkey: "ec" (P-256) or "rsa:BITS" */
    private TestPki signed(String name, String subject, String extensions, String newKey)
            throws IOException, InterruptedException {
        Path ext = dir.resolve(name + ".ext");
        Files.writeString(ext, extensions);
        List<String> req = new ArrayList<>(List.of("req", "-new", "-newkey", newKey));
        if (newKey.equals("ec")) {
            req.addAll(List.of("-pkeyopt", "ec_paramgen_curve:prime256v1"));
        }
        req.addAll(List.of("-nodes", "-subj", subject, "-keyout", file(name + ".key"), "-out", file(name + ".csr")));
        openssl(req.toArray(String[]::new));
        openssl("x509", "-req", "-in", file(name + ".csr"), "-CA", file("ca.pem"), "-CAkey", file("ca.key"),
                "-CAcreateserial", "-days", "2", "-extfile", ext.toString(), "-out", file(name + ".pem"));
        return p12(name, true);
    }

    private TestPki p12(String name, boolean withCa) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("pkcs12", "-export", "-in", file(name + ".pem"), "-inkey",
                file(name + ".key"), "-passout", "pass:" + PASSWORD, "-out", file(name + ".p12")));
        if (withCa) {
            cmd.addAll(List.of("-certfile", file("ca.pem")));
        }
        openssl(cmd.toArray(String[]::new));
        return this;
    }

    /**
     * A client-side SSL context: trusts the CA, and presents {@code clientName}'s certificate (null: none).
     *
     * @param protocol e.g. "TLSv1.3" or "TLSv1.2"
     */
    public SSLContext clientContext(String clientName, String protocol) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(caFile())) {
            Certificate ca = CertificateFactory.getInstance("X.509").generateCertificate(in);
            trust.setCertificateEntry("ca", ca);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        KeyManagerFactory kmf = null;
        if (clientName != null) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(p12(clientName))) {
                ks.load(in, PASSWORD.toCharArray());
            }
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, PASSWORD.toCharArray());
        }
        SSLContext ctx = SSLContext.getInstance(protocol);
        ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return ctx;
    }

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    /** Runs {@code openssl args...}; throws with its output when it fails. */
    public static void openssl(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add("openssl");
        cmd.addAll(List.of(args));
        Commands.run(cmd);
    }
}
