package dev.logrouter.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static dev.logrouter.server.TestClient.await;
import static dev.logrouter.server.TestClient.sendTcp;
import static dev.logrouter.server.TestClient.textLines;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Parsers, filters, rewrites and routes on real frames: one router for the class (Netty on loopback,
 * real ring with two parse workers, file sinks), configured as an operator would, and the lines its
 * sinks write. Each test sends its own messages, marked with a unique word, and waits for them.
 */
class ParsingRoutesTest {

    @TempDir
    static Path dir;
    private static Router router;
    private static String tcp;

    @BeforeAll
    static void start() throws Exception {
        String yaml = """
                sources:
                  - {name: net, type: tcp, bind: "127.0.0.1:0"}
                pipeline: {ring-size: 1024, parse-workers: 2, time-zone: UTC}
                parsers:
                  app-json: [{type: json, prefix: ".json."}]
                  app-kv: [{type: kv, prefix: ".kv."}]
                  app-xml: [{type: xml}]
                  app-csv: [{type: csv, prefix: ".csv.", columns: [user, action, status]}]
                  app-regex: [{type: regex, prefix: ".re.", patterns: ["user (?<user>\\\\w+) from (?<ip>[0-9.]+)"]}]
                rewrites:
                  mask: [{type: subst, field: MSG, pattern: "password=\\\\S+", replacement: "password=***"},
                         {type: set-tag, tag: masked}]
                  rename: [{type: set, field: HOST, value: "${.json.host}"}]
                  no-pid: [{type: unset, field: PID}, {type: set-tag, tag: csv}, {type: clear-tag, tag: csv},
                           {type: set-tag, tag: csv-done}]
                filters:
                  errors: 'level(err..emerg)'
                routes:
                  - {name: json, filter: 'program("jsonapp")', parsers: [app-json], to: [json, json-lines]}
                  - {name: json-rename, filter: 'program("jsonapp") and exists(".json.host")', rewrite: [rename], to: [json]}
                  - {name: json-failed, filter: 'tags(".parse.json.failed")', to: [failed], final: true}
                  - {name: kv, filter: 'program("kvapp")', parsers: [app-kv], to: [kv]}
                  - {name: kv-5xx, filter: 'program("kvapp") and "${.kv.status}" >= "500"', to: [kv-5xx], final: true}
                  - {name: kv-done, filter: 'program("kvapp")', final: true}
                  - {name: xml, filter: 'program("xmlapp")', parsers: [app-xml], to: [xml], final: true}
                  - {name: csv, filter: 'program("csvapp")', parsers: [app-csv], rewrite: [no-pid], to: [csv], final: true}
                  - {name: regex, filter: 'program("sshd") and message("Accepted" type(string) flags(substring))', parsers: [app-regex], to: [regex]}
                  - {name: auth, filter: 'facility(auth, authpriv)', to: [auth], final: true}
                  - {name: secrets, filter: 'message("password=")', rewrite: [mask], to: [masked], final: true}
                  - {name: errors, filter: 'filter(errors) and not program("jsonapp")', to: [errors]}
                  - {name: rest, fallback: true, to: [other]}
                sinks:
                  - {name: json, type: file, path: "%1$s/json.log", template: "${HOST} ${.json.user} ${.json.src.ip} ${MSG}\\n"}
                  - {name: json-lines, type: file, path: "%1$s/json-lines.log", template: "$(format-json --key .json.src.* m=${.json.m} host=${HOST})\\n"}
                  - {name: failed, type: file, path: "%1$s/failed.log", template: "${TAGS} ${MSG}\\n"}
                  - {name: kv, type: file, path: "%1$s/kv.log", template: "${.kv.user}|${.kv.msg}|${.kv.status}\\n"}
                  - {name: kv-5xx, type: file, path: "%1$s/kv-5xx.log", template: "${.kv.status} ${.kv.user}\\n"}
                  - {name: auth, type: file, path: "%1$s/auth.log", template: "${FACILITY} ${PROGRAM} ${MSG}\\n"}
                  - {name: xml, type: file, path: "%1$s/xml.log", template: "${.xml.event.user}|${.xml.event.src._ip}\\n"}
                  - {name: csv, type: file, path: "%1$s/csv.log", template: "${.csv.user}|${.csv.action}|${.csv.status}|${PROGRAM}[${PID}]|${TAGS}\\n"}
                  - {name: regex, type: file, path: "%1$s/regex.log", template: "${.re.user}@${.re.ip}\\n"}
                  - {name: masked, type: file, path: "%1$s/masked.log", template: "${TAGS}|${MSG}\\n"}
                  - {name: errors, type: file, path: "%1$s/errors.log", template: "${LEVEL} ${MSG}\\n"}
                  - {name: other, type: file, path: "%1$s/other.log", template: "${PROGRAM} ${MSG}\\n"}
                """.formatted(dir);
        router = TestClient.startRouter(yaml);
        tcp = router.boundAddress("net");
    }

    @AfterAll
    static void stop() throws Exception {
        assertThat(router.stop()).isTrue();
    }

    /** Waits for the line of {@code file} containing {@code marker} and returns it. */
    private static String line(String file, String marker) {
        Path p = dir.resolve(file);
        assertThat(await(() -> textLines(p).stream().anyMatch(l -> l.contains(marker)), 10_000))
                .as("a line with %s in %s", marker, file).isTrue();
        return textLines(p).stream().filter(l -> l.contains(marker)).findFirst().orElseThrow();
    }

    private static List<String> lines(String file, String marker) {
        return textLines(dir.resolve(file)).stream().filter(l -> l.contains(marker)).toList();
    }

    private static long parser(String name, String counter) {
        return router.metrics().require("Parser", name).value(counter);
    }

    @Test
    void jsonIsParsedFlattenedAndAHostRewrittenFromIt() throws Exception {
        sendTcp(tcp, "<14>Oct 11 22:14:15 web1 jsonapp[1]: {\"user\":\"alice\",\"src\":{\"ip\":\"192.0.2.7\"},"
                + "\"host\":\"renamed-host\",\"m\":\"json-ok-1\"}\n");
        assertThat(line("json.log", "json-ok-1"))
                .startsWith("renamed-host alice 192.0.2.7 {\"user\"");
        // two routes took it, both naming the json sink: a sink is a bit in the mask, so it is written once
        assertThat(lines("json.log", "json-ok-1")).hasSize(1);
    }

    @Test
    void brokenJsonIsTaggedRoutedToTheFailureSinkAndKeepsItsMessage() throws Exception {
        long failed = parser("app-json.json", "failed");
        String msg = "{\"user\":\"bob\",\"m\":\"json-broken-1\"";
        sendTcp(tcp, "<14>Oct 11 22:14:15 web1 jsonapp[1]: " + msg + "\n");
        assertThat(line("failed.log", "json-broken-1")).isEqualTo(".parse.json.failed " + msg);
        // the json route took it too (its filter matched) and delivered it without parsed fields
        assertThat(line("json.log", "json-broken-1")).isEqualTo("web1   " + msg);
        assertThat(parser("app-json.json", "failed")).isEqualTo(failed + 1);
    }

    @Test
    void kvPairsWithQuotedValues() throws Exception {
        sendTcp(tcp, "<14>Oct 11 22:14:15 web1 kvapp: user=carol status=200 msg=\"kv-ok-1 with spaces\"\n");
        assertThat(line("kv.log", "kv-ok-1")).isEqualTo("carol|kv-ok-1 with spaces|200");
    }

    @Test
    void aNumericComparisonOnAParsedFieldSelectsServerErrors() throws Exception {
        sendTcp(tcp, "<14>Oct 11 22:14:15 web1 kvapp: user=ivan status=503 msg=kv-5xx-1\n"
                + "<14>Oct 11 22:14:15 web1 kvapp: user=judy status=404 msg=kv-4xx-1\n");
        assertThat(line("kv.log", "kv-4xx-1")).isEqualTo("judy|kv-4xx-1|404");
        assertThat(line("kv-5xx.log", "ivan")).isEqualTo("503 ivan");
        assertThat(line("kv.log", "kv-5xx-1")).isEqualTo("ivan|kv-5xx-1|503");
        assertThat(lines("kv-5xx.log", "judy")).isEmpty();
    }

    @Test
    void formatJsonWritesSelectedFieldsAndPairsAsOneObject() throws Exception {
        sendTcp(tcp, "<14>Oct 11 22:14:15 web2 jsonapp[1]: {\"user\":\"kim\",\"src\":{\"ip\":\"192.0.2.9\","
                + "\"port\":514},\"m\":\"json-lines-1\"}\n");
        assertThat(line("json-lines.log", "json-lines-1"))
                .isEqualTo("{\"m\":\"json-lines-1\",\"host\":\"web2\",\"_json\":{\"src\":{\"port\":\"514\","
                        + "\"ip\":\"192.0.2.9\"}}}");
    }

    @Test
    void xmlElementsAndAttributes() throws Exception {
        sendTcp(tcp, "<14>Oct 11 22:14:15 web1 xmlapp: <event><user>dave-xml-1</user><src ip=\"198.51.100.9\"/></event>\n");
        assertThat(line("xml.log", "dave-xml-1")).isEqualTo("dave-xml-1|198.51.100.9");
    }

    @Test
    void xmlExternalEntitiesAreNeverResolved() throws Exception {
        long failed = parser("app-xml.xml", "failed");
        sendTcp(tcp, "<14>Oct 11 22:14:15 web1 xmlapp: <!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                + "<event><user>&x;xxe-1</user></event>\n");
        assertThat(await(() -> parser("app-xml.xml", "failed") == failed + 1, 10_000)).isTrue();
        assertThat(textLines(dir.resolve("xml.log"))).noneMatch(l -> l.contains("root:"));
    }

    @Test
    void csvColumns() throws Exception {
        sendTcp(tcp, "<14>Oct 11 22:14:15 web1 csvapp[42]: erin,csv-login-1,200\n");
        // the rewrite unset PID, and set then cleared one tag before setting another
        assertThat(line("csv.log", "csv-login-1")).isEqualTo("erin|csv-login-1|200|csvapp[]|csv-done");
    }

    @Test
    void regexNamedGroupsAfterASubstringFilter() throws Exception {
        sendTcp(tcp, "<38>Oct 11 22:14:15 bastion sshd[77]: Accepted publickey for user frank from 203.0.113.4 port 22\n");
        assertThat(line("regex.log", "frank@")).isEqualTo("frank@203.0.113.4");
        // the regex route is not final: the auth route (facility filter) takes it too
        assertThat(line("auth.log", "for user frank")).startsWith("auth sshd Accepted publickey");
    }

    @Test
    void substRewriteMasksAndTagsAndFinalStopsLaterRoutes() throws Exception {
        sendTcp(tcp, "<11>Oct 11 22:14:15 web1 login: user=gina password=hunter2 secret-1\n");
        assertThat(line("masked.log", "secret-1")).isEqualTo("masked|user=gina password=*** secret-1");
        // severity err, but the final 'secrets' route took it before the 'errors' route
        sendTcp(tcp, "<11>Oct 11 22:14:15 web1 other: after-secret-1\n");
        line("errors.log", "after-secret-1");
        assertThat(lines("errors.log", "secret-1")).noneMatch(l -> l.contains("hunter2") || l.contains("gina"));
    }

    @Test
    void namedFilterLevelRangeAndFallback() throws Exception {
        sendTcp(tcp, "<11>Oct 11 22:14:15 web1 daemon: err-level-1\n<14>Oct 11 22:14:15 web1 daemon: info-level-1\n");
        assertThat(line("errors.log", "err-level-1")).isEqualTo("err err-level-1");
        assertThat(line("other.log", "info-level-1")).isEqualTo("daemon info-level-1");
        assertThat(lines("other.log", "err-level-1")).as("taken by a route: not a fallback message").isEmpty();
        assertThat(router.metrics().require("Route", "rest").value("matched")).isGreaterThanOrEqualTo(1);
    }
}
