package dev.logrouter.server;

import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.testing.TestPki;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real router with a mutual-TLS source (RFC 5425), fed by {@code openssl s_client} as a real TLS client: the
 * client certificate's common name routes messages (a route filter on {@code ${.tls.x509_cn}}) and is written by
 * the template; a client whose certificate no CA signed, and one without a certificate, are refused, counted, and
 * deliver nothing; the router keeps serving. {@code check-config} loads the certificate files and says what is wrong.
 */
class TlsRouterTest {

    @TempDir
    static Path dir;
    private static TestPki pki;
    private static Router router;
    private static String address;
    private static Path web;
    private static Path other;

    @BeforeAll
    static void start() throws Exception {
        pki = new TestPki(dir);
        pki.server("server", "localhost");
        pki.client("web", "/O=Example/OU=frontend/CN=web-01");
        pki.client("db", "/O=Example/OU=storage/CN=db-01");
        pki.rogue("intruder", "/O=Example/OU=frontend/CN=web-01");
        web = dir.resolve("web.log");
        other = dir.resolve("other.log");
        router = TestClient.startRouter(config(pki.key("server")));
        address = router.boundAddress("tls");
    }

    private static String config(Path key) {
        return """
                sources:
                  - name: tls
                    type: tcp
                    bind: "127.0.0.1:0"
                    tls: {cert-file: "%s", key-file: "%s", ca-file: "%s", client-auth: required}
                pipeline: {ring-size: 1024, parse-workers: 2, time-zone: UTC}
                routes:
                  - {name: web, filter: '"${.tls.x509_cn}" eq "web-01"', to: [web], final: true}
                  - {name: rest, fallback: true, to: [other]}
                sinks:
                  - {name: web, type: file, path: "%s", template: "${.tls.x509_cn}|${.tls.x509_ou}|${HOST}|${MSG}\\n"}
                  - {name: other, type: file, path: "%s", template: "${.tls.x509_cn}|${.tls.x509_o}|${MSG}\\n"}
                """.formatted(pki.cert("server"), key, pki.caFile(), web, other);
    }

    @AfterAll
    static void stop() throws Exception {
        if (router != null) {
            router.stop();
        }
    }

    /** Runs openssl s_client with this client certificate (null: none), writes the frames, and waits for its exit. */
    private static void sClient(String client, String protocol, byte[]... frames) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("openssl", "s_client", "-connect", address, "-CAfile",
                pki.caFile().toString(), "-verify_return_error", "-quiet", "-no_ign_eof", "-" + protocol.replace("TLSv1.",
                        "tls1_")));
        if (client != null) {
            cmd.addAll(List.of("-cert", pki.cert(client).toString(), "-key", pki.key(client).toString()));
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try (OutputStream in = p.getOutputStream()) {
            for (byte[] f : frames) {
                in.write(f);
            }
        } catch (java.io.IOException refusedEarly) {
            // s_client already gave up: the server refused the handshake
        }
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("openssl s_client ends after its input").isTrue();
    }

    private static MetricGroup source() {
        return router.metrics().require("Source", "tls");
    }

    @Test
    void clientCertificateSubjectRoutesMessagesAndUntrustedClientsAreRefused() throws Exception {
        sClient("web", "TLSv1.3", TestClient.octet("<13>1 2026-11-22T10:00:00Z web-host app - - - one over TLS 1.3"),
                TestClient.octet("<13>1 2026-11-22T10:00:01Z web-host app - - - two\nlines"));
        sClient("db", "TLSv1.2", TestClient.octet("<13>1 2026-11-22T10:00:02Z db-host app - - - from the database"));
        assertThat(TestClient.await(() -> TestClient.textLines(web).size() == 3
                && TestClient.textLines(other).size() == 1, 20_000)).as(() -> "received " + source().value("received")
                + ", handshakes " + source().value("tlsHandshakes") + ", failures " + source().value("tlsHandshakeFailures")
                + ", web " + TestClient.textLines(web) + ", other " + TestClient.textLines(other)).isTrue();
        assertThat(TestClient.textLines(web)).containsExactly("web-01|frontend|web-host|one over TLS 1.3",
                "web-01|frontend|web-host|two", "lines");
        assertThat(TestClient.textLines(other)).containsExactly("db-01|Example|from the database");

        long failures = source().value("tlsHandshakeFailures");
        // openssl sends its certificate even though the server's CA list does not name its issuer: refused
        sClient("intruder", "TLSv1.3", TestClient.octet("<13>1 2026-11-22T10:00:03Z evil app - - - spoofed web-01"));
        sClient(null, "TLSv1.2", TestClient.octet("<13>1 2026-11-22T10:00:04Z anon app - - - no certificate"));
        assertThat(TestClient.await(() -> source().value("tlsHandshakeFailures") == failures + 2, 20_000)).isTrue();

        // the router keeps serving, and the refused clients delivered nothing
        sClient("web", "TLSv1.3", TestClient.octet("<13>1 2026-11-22T10:00:05Z web-host app - - - still serving"));
        assertThat(TestClient.await(() -> TestClient.textLines(web).size() == 4, 20_000)).isTrue();
        assertThat(TestClient.textLines(web).get(3)).isEqualTo("web-01|frontend|web-host|still serving");
        assertThat(TestClient.textLines(other)).hasSize(1);
        assertThat(source().value("received")).isEqualTo(4);
        assertThat(source().value("tlsHandshakes")).as("web, db, web").isEqualTo(3);
    }

    @Test
    void checkConfigLoadsTheCertificateFiles() throws Exception {
        Path cfg = dir.resolve("bad.yaml");
        Files.writeString(cfg, config(pki.key("db"))); // a key that belongs to another certificate
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(new String[] {"check-config", "--config", cfg.toString()}, new PrintStream(out, true),
                new PrintStream(err, true));
        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("source tls: tls: the private key does not belong "
                + "to the certificate");

        Files.writeString(cfg, config(pki.key("server")));
        assertThat(Main.run(new String[] {"check-config", "--config", cfg.toString()}, new PrintStream(out, true),
                new PrintStream(err, true))).isZero();
    }
}
