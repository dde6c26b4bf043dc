package dev.logrouter.sinks.elasticsearch;

import org.apache.http.Header;
import org.apache.http.HttpHost;
import org.apache.http.conn.ssl.NoopHostnameVerifier;
import org.apache.http.message.BasicHeader;
import org.elasticsearch.client.RestClient;
import org.elasticsearch.client.RestClientBuilder;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Builds the official client for a sink: the low-level {@link RestClient} (round-robin over the hosts, a failed
 * node skipped for a while and the request tried on the next, gzip bodies, timeouts, authentication and TLS); the
 * delivery writes the bulk bodies and reads the answers itself ({@link ElasticsearchDelivery}, {@link BulkAnswer}).
 *
 * <p>Threads: called once when the sink starts, on its thread.
 */
final class ElasticsearchClients {

    private ElasticsearchClients() {
    }

    static RestClient restClient(ElasticsearchSinkConfig cfg) {
        HttpHost[] hosts = cfg.hosts().stream().map(HttpHost::create).toArray(HttpHost[]::new);
        int timeout = (int) Math.min(Integer.MAX_VALUE, cfg.requestTimeout().millis());
        SSLContext ssl = cfg.caFile() == null ? null : sslContext(Path.of(cfg.caFile()));
        RestClientBuilder b = RestClient.builder(hosts)
                .setCompressionEnabled(cfg.compression())
                .setRequestConfigCallback(rc -> rc.setConnectTimeout(Math.min(timeout, 10_000))
                        .setSocketTimeout(timeout))
                .setHttpClientConfigCallback(h -> {
                    h.setMaxConnPerRoute(Math.max(10, cfg.maxInFlight() + 2));
                    h.setMaxConnTotal(Math.max(30, (cfg.maxInFlight() + 2) * hosts.length));
                    if (ssl != null) {
                        h.setSSLContext(ssl);
                    }
                    if (!cfg.verifyHostname()) {
                        h.setSSLHostnameVerifier(NoopHostnameVerifier.INSTANCE);
                    }
                    return h;
                });
        // preemptive: a challenge would make the client send every bulk body twice
        if (cfg.user() != null) {
            String basic = Base64.getEncoder().encodeToString((cfg.user() + ":" + cfg.password())
                    .getBytes(StandardCharsets.UTF_8));
            b.setDefaultHeaders(new Header[] {new BasicHeader("Authorization", "Basic " + basic)});
        } else if (cfg.apiKey() != null) {
            b.setDefaultHeaders(new Header[] {new BasicHeader("Authorization", "ApiKey " + cfg.apiKey())});
        }
        return b.build();
    }

    static SSLContext sslContext(Path pem) {
        try (InputStream in = Files.newInputStream(pem)) {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            int n = 0;
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                trust.setCertificateEntry("ca-" + n++, c);
            }
            if (n == 0) {
                throw new IllegalArgumentException("ca-file " + pem + " holds no certificate");
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("ca-file " + pem + ": " + e.getMessage(), e);
        }
    }
}
