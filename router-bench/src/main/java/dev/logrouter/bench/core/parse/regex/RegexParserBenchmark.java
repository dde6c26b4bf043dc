package dev.logrouter.bench.core.parse.regex;

import dev.logrouter.bench.core.parse.ParserBenchmark;
import dev.logrouter.core.parse.regex.RegexParserConfig;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Throughput (messages/s) of the {@code regex} parser on one ~400-byte message per shape, as a parse worker
 * runs it: the syslog header is parsed once in setup, and each operation clears the event's field table and
 * matches MSG. Shapes: {@code access} (an anchored combined-log pattern, 11 groups), {@code sshd} (the third of
 * three patterns matches, unanchored, in a long line), {@code utf8} (non-ASCII input, decoded per message).
 * Setup checks the field count, so a failing parse is never what is measured.
 */
public class RegexParserBenchmark extends ParserBenchmark {

    static final String ACCESS = "203.0.113.7 - jdoe [01/May/2024:12:34:56 +0000] \"POST /api/v2/orders/77812/items"
            + "?expand=prices,stock&currency=EUR&session=4bf92f3577b34da6a3ce929d0e0e4736 HTTP/1.1\" 502 5123 "
            + "\"https://shop.example.com/checkout/basket?step=payment&variant=b\" \"Mozilla/5.0 (X11; Linux "
            + "x86_64; rv:125.0) Gecko/20100101 Firefox/125.0\" rt=1.834 uct=0.001 uht=1.833 urt=1.833 "
            + "upstream=10.1.2.3:8443 cache=MISS";
    static final String[] ACCESS_PATTERNS = {
        "^(?<client>\\S+) \\S+ (?<user>\\S+) \\[(?<time>[^\\]]+)\\] \"(?<method>[A-Z]+) (?<path>\\S+) "
            + "(?<proto>[^\"]+)\" (?<status>\\d{3}) (?<bytes>\\d+) \"(?<referer>[^\"]*)\" \"(?<agent>[^\"]*)\" "
            + "rt=(?<rt>[0-9.]+)"};
    static final String SSHD = "pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh "
            + "ruser= rhost=203.0.113.7 user=admin; then: Failed password for invalid user admin from 203.0.113.7 "
            + "port 52144 ssh2 after 3 attempts within 60 seconds on connection 77812903 of listener 0.0.0.0:22, "
            + "client version SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13, kex curve25519-sha256, cipher "
            + "chacha20-poly1305@openssh.com, mac implicit";
    static final String[] SSHD_PATTERNS = {
        "^Accepted (?<method>\\S+) for (?<user>\\S+) from (?<ip>\\S+) port (?<port>\\d+)",
        "Connection closed by (?<ip>\\S+) port (?<port>\\d+)",
        "Failed (?<method>\\S+) for (?:invalid user )?(?<user>\\S+) from (?<ip>[0-9.]+) port (?<port>\\d+)"};
    static final String UTF8 = "Benutzer Jürgen Müller (jürgen.müller@example.de) hat die Bestellung "
            + "ORD-2024-0501-77812 über 182,40 € storniert; Grund: „Lieferzeit zu lang“ — Filiale München-Süd, "
            + "Kasse 7, Schicht Früh, Bon 0042-7781, Rückerstattung auf Karte ****1234 veranlasst, "
            + "Bestätigung an Kundin gesendet, Vorgang 東京-42 abgeschlossen um 12:34:56";
    static final String[] UTF8_PATTERNS = {
        "^Benutzer (?<name>[\\p{L} ]+) \\((?<mail>[^)]+)\\) hat die Bestellung (?<order>\\S+) über (?<amount>[0-9,]+) € "
            + "(?<action>\\p{L}+); Grund: „(?<reason>[^“]+)“"};

    @Param({"access", "sshd", "utf8"})
    public String shape;

    @Setup
    public void setUp() {
        String line;
        String[] patterns;
        int expected;
        switch (shape) {
            case "access" -> {
                line = ACCESS;
                patterns = ACCESS_PATTERNS;
                expected = 11;
            }
            case "sshd" -> {
                line = SSHD;
                patterns = SSHD_PATTERNS;
                expected = 4;
            }
            default -> {
                line = UTF8;
                patterns = UTF8_PATTERNS;
                expected = 6;
            }
        }
        receive("web01", line);
        create(RegexParserConfig.of(patterns), "regex");
        checkParsed(shape, expected);
    }
}
