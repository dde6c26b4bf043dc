/**
 * {@code loadgen}: a loggen-like syslog load generator for the end-to-end benchmarks.
 *
 * <pre>
 *   LoadGen (main) ──▶ ConnectionSender ×N  (one thread per TCP/UDP connection)
 *                        │  MessageBatch: fixed-size frames, seq/timestamp patched in place
 *                        │  Pacer: optional per-connection rate limit
 *                        ▼
 *                  127.0.0.1:PORT  (the router's tcp/udp source)
 * </pre>
 *
 * <p>Plain JDK only ({@code java.nio}); it never connects anywhere but loopback.
 */
package dev.logrouter.bench.loadgen;
