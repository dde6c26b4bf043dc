package dev.logrouter.netty.tls;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;

/**
 * The TLS counters of one source, in the source's metric group.
 *
 * <p>Threads: event loops and the reloading thread add; JMX reads.
 */
public final class TlsCounters {

    final Counter handshakes;
    final Counter handshakeFailures;
    final Counter errors;
    final Counter reloads;
    final Counter reloadFailures;
    volatile String lastError = "";
    volatile String lastReloadError = "";

    /** A reload succeeded: counted, and the last reload error cleared. */
    public void reloaded() {
        reloads.inc();
        lastReloadError = "";
    }

    /** A reload failed: counted and described. */
    public void reloadFailed(String why) {
        reloadFailures.inc();
        lastReloadError = why;
    }

    public TlsCounters(MetricGroup g, ServerTls tls) {
        handshakes = g.counter("tlsHandshakes", "TLS handshakes completed.");
        handshakeFailures = g.counter("tlsHandshakeFailures", "TLS handshakes that failed (no or untrusted client "
                + "certificate under client-auth, protocol or cipher not allowed, not TLS, handshake-timeout); the "
                + "connection is closed.");
        errors = g.counter("tlsErrors", "Connections closed by a TLS error after the handshake (e.g. a bad record).");
        reloads = g.counter("tlsReloads", "Certificate reloads (files changed, or the reloadTls operation).");
        reloadFailures = g.counter("tlsReloadFailures", "Reloads that failed; the previous certificate stays in use.");
        g.text("tlsLastError", "The last TLS handshake failure or error: peer and reason.", () -> lastError);
        g.text("tlsLastReloadError", "Why the last failed reload failed; empty after a good one.", () -> lastReloadError);
        g.text("tlsProvider", "The TLS implementation serving this source: openssl or jdk (provider auto resolved).",
                tls::providerName);
        g.text("tlsCertificate", "The server certificate in use: subject and expiry.", tls::certificateSummary);
        g.gauge("tlsCertificateDaysLeft", "Whole days until the server certificate in use expires (negative: expired).",
                () -> java.time.Duration.between(java.time.Instant.now(), tls.notAfter()).toDays());
    }
}
