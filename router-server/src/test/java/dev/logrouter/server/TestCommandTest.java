package dev.logrouter.server;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code logrouter test} through {@link Main#run}, in process, on a real configuration file (two sources, json and
 * kv parser chains, filter routes and a fallback, a file sink with a template, an RFC 5424 syslog relay with a
 * journal) and a real input file: the exact text and json output, {@code --expect} equal and changed, bad arguments,
 * an invalid configuration, and that nothing was bound or written (the file sink's directory and the relay's journal
 * directory are never created).
 */
class TestCommandTest {

    /** The receive time of every message: RFC 3164 dates take their year from it. */
    private static final String NOW = "2026-10-12T08:00:00Z";

    @TempDir
    Path dir;
    private Path config;
    private Path input;

    private record Output(int code, String out, String err) {
    }

    private static Output main(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Output(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @BeforeEach
    void files() throws Exception {
        config = dir.resolve("router.yaml");
        // port 1 on the relay: a test that connected would fail; the file sink's directory must stay absent
        Files.writeString(config, """
                sources:
                  - {name: legacy, type: tcp, bind: "127.0.0.1:0", format: rfc3164}
                  - {name: modern, type: tcp, bind: "127.0.0.1:0", format: rfc5424}
                pipeline: {time-zone: UTC}
                parsers:
                  app-json: [{type: json, prefix: ".json."}]
                  app-kv: [{type: kv, prefix: ".kv."}]
                routes:
                  - {name: json, filter: 'program("jsonapp")', parsers: [app-json], to: [files, relay]}
                  - {name: kv, filter: 'program("kvapp")', parsers: [app-kv], to: [files], final: true}
                  - {name: errors, from: [modern], filter: 'level(err..emerg)', to: [relay]}
                  - {name: rest, fallback: true, from: [legacy], to: [relay]}
                sinks:
                  - name: files
                    type: file
                    path: "%1$s/logs/${HOST}/${PROGRAM}.log"
                    template: "${ISODATE} ${HOST} user=${.json.user}${.kv.user} ${MSG}\\n"
                  - name: relay
                    type: syslog
                    hosts: ["127.0.0.1:1"]
                    format: rfc5424
                    buffer: journal
                    journal: {dir: "%1$s/journal"}
                """.formatted(dir));
        input = dir.resolve("input.txt");
        Files.writeString(input, """
                <14>Oct 11 22:14:15 web1 jsonapp[1]: {"user":"alice","n":1}
                <14>Oct 11 22:14:16 web1 kvapp[2]: user=bob status=500

                <13>Oct 11 22:14:17 web2 cron: job\tdone
                """);
    }

    private static final String TEXT = """
            1: <14>Oct 11 22:14:15 web1 jsonapp[1]: {"user":"alice","n":1}
              routes: json
              -> sink files:
                   path: %1$s/logs/web1/jsonapp.log
                   line: 2026-10-11T22:14:15+00:00 web1 user=alice {"user":"alice","n":1}\\n
              -> sink relay: 73 <14>1 2026-10-11T22:14:15+00:00 web1 jsonapp 1 - - {"user":"alice","n":1}
            2: <14>Oct 11 22:14:16 web1 kvapp[2]: user=bob status=500
              routes: kv
              -> sink files:
                   path: %1$s/logs/web1/kvapp.log
                   line: 2026-10-11T22:14:16+00:00 web1 user=bob user=bob status=500\\n
            4: <13>Oct 11 22:14:17 web2 cron: job\\tdone
              routes: rest
              -> sink relay: 56 <13>1 2026-10-11T22:14:17+00:00 web2 cron - - - job\\tdone
            """;

    private static final String JSON = """
            {"line":1,"input":"<14>Oct 11 22:14:15 web1 jsonapp[1]: {\\"user\\":\\"alice\\",\\"n\\":1}","routes":["json"],\
            "sinks":{"files":{"path":"%1$s/logs/web1/jsonapp.log",\
            "line":"2026-10-11T22:14:15+00:00 web1 user=alice {\\"user\\":\\"alice\\",\\"n\\":1}\\n"},\
            "relay":{"frame":"73 <14>1 2026-10-11T22:14:15+00:00 web1 jsonapp 1 - - {\\"user\\":\\"alice\\",\\"n\\":1}"}}}
            {"line":2,"input":"<14>Oct 11 22:14:16 web1 kvapp[2]: user=bob status=500","routes":["kv"],\
            "sinks":{"files":{"path":"%1$s/logs/web1/kvapp.log",\
            "line":"2026-10-11T22:14:16+00:00 web1 user=bob user=bob status=500\\n"}}}
            {"line":4,"input":"<13>Oct 11 22:14:17 web2 cron: job\\tdone","routes":["rest"],\
            "sinks":{"relay":{"frame":"56 <13>1 2026-10-11T22:14:17+00:00 web2 cron - - - job\\tdone"}}}
            """;

    @Test
    void textShowsTheRoutesAndWhatEachSinkWouldWrite() throws Exception {
        Output r = main("test", "--config", config.toString(), "--input", input.toString(),
                "--now", NOW);
        assertThat(r.code()).as(r.err()).isZero();
        // "Oct 11" takes its year from --now; the relay frames the message as RFC 5424 with octet counting; the
        // empty line 3 is skipped; the tab of line 4 is shown as \t
        assertThat(r.out()).isEqualTo(TEXT.formatted(dir));
        assertNothingWasCreated();
    }

    @Test
    void jsonIsOneStableObjectPerMessage() throws Exception {
        Output r = main("test", "--config", config.toString(), "--input", input.toString(), "--format", "json",
                "--now", NOW);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(JSON.formatted(dir));
        assertNothingWasCreated();
    }

    @Test
    void aSecondSourceFillsTheEventAsThatSourceWould() throws Exception {
        // RFC 5424 on the source with format rfc5424; on the legacy source it would be read as RFC 3164
        Files.writeString(input, "<11>1 2026-01-15T10:00:00Z db1 postgres 42 ID7 [x@1 k=\"v\"] disk full\n"
                + "<14>1 2026-01-15T10:00:01Z db1 postgres 42 - - all fine\n");
        Output r = main("test", "--config", config.toString(), "--input", input.toString(), "--source", "modern",
                "--now", NOW);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("""
                1: <11>1 2026-01-15T10:00:00Z db1 postgres 42 ID7 [x@1 k="v"] disk full
                  routes: errors
                  -> sink relay: 73 <11>1 2026-01-15T10:00:00+00:00 db1 postgres 42 ID7 [x@1 k="v"] disk full
                2: <14>1 2026-01-15T10:00:01Z db1 postgres 42 - - all fine
                  routes: (none)
                  -> no sink (unrouted)
                """);
    }

    @Test
    void everySinkTypeShowsTheRecordItsEncoderMakesWithoutAClient() throws Exception {
        // unreachable addresses: a sink that built its client or connected would fail or hang, not print
        Files.writeString(config, """
                sources: [{name: net, type: tcp, bind: "127.0.0.1:0", format: rfc3164}]
                pipeline: {time-zone: UTC}
                sinks:
                  - {name: kafka, type: kafka, bootstrap-servers: "127.0.0.1:1", topic: "logs-${HOST}", key: "${PID}",
                     headers: {program: "${PROGRAM}", none: "${.none}"}, template: "${MSG}"}
                  - {name: es, type: elasticsearch, hosts: ["http://127.0.0.1:1"], index: "Logs-${YEAR}.${MONTH}",
                     template: '{"m":"${MSG}"}'}
                  - {name: es-id, type: elasticsearch, hosts: ["http://127.0.0.1:1"], index: "x", id: "${HOST}-${PID}",
                     template: '{"m":"${MSG}"}'}
                  - {name: hdfs, type: hdfs, uri: "hdfs://127.0.0.1:1", path: "/logs/${HOST}/app.log",
                     template: "${PROGRAM}: ${MSG}\\n"}
                """);
        Files.writeString(input, "<14>Oct 11 22:14:15 web1 app[7]: hello\n");
        Output r = main("test", "--config", config.toString(), "--input", input.toString(), "--now", NOW);
        assertThat(r.code()).as(r.err()).isZero();
        // no routes: every sink takes every message
        assertThat(r.out()).isEqualTo("""
                1: <14>Oct 11 22:14:15 web1 app[7]: hello
                  routes: (none)
                  -> sink kafka:
                       topic: logs-web1
                       key: 7
                       header.program: app
                       value: hello
                  -> sink es:
                       index: logs-2026.10
                       id: (generated)
                       document: {"m":"hello"}
                  -> sink es-id:
                       index: x
                       id: web1-7
                       document: {"m":"hello"}
                  -> sink hdfs:
                       path: /logs/web1/app.log
                       line: app: hello\\n
                """);
    }

    @Test
    void expectIsExitZeroWhenEqualAndOneWithTheDiffWhenNot() throws Exception {
        Path golden = dir.resolve("expected.jsonl");
        Files.writeString(golden, JSON.formatted(dir));
        Output equal = main("test", "--config", config.toString(), "--input", input.toString(), "--expect",
                golden.toString(), "--now", NOW);
        assertThat(equal.code()).as(equal.err()).isZero();
        assertThat(equal.out()).isEqualTo("logrouter test: output equals " + golden + " (3 lines)\n");

        // the configuration changes: kv messages now also go to the relay
        Files.writeString(config, Files.readString(config).replace("parsers: [app-kv], to: [files]",
                "parsers: [app-kv], to: [files, relay]"));
        Output changed = main("test", "--config", config.toString(), "--input", input.toString(), "--expect",
                golden.toString(), "--now", NOW);
        assertThat(changed.code()).isEqualTo(1);
        assertThat(changed.err()).isEqualTo("logrouter test: output differs from " + golden + ":\n");
        String[] json = JSON.formatted(dir).split("\n");
        assertThat(changed.out()).isEqualTo(String.join("\n",
                "--- " + golden + " (expected)",
                "+++ actual",
                "@@ -1,3 +1,3 @@",
                " " + json[0],
                "-" + json[1],
                "+" + json[1].replace("\\n\"}}}", "\\n\"},\"relay\":{\"frame\":\"68 <14>1 2026-10-11T22:14:16+00:00 "
                        + "web1 kvapp 2 - - user=bob status=500\"}}}"),
                " " + json[2]) + "\n");
        assertNothingWasCreated();
    }

    @Test
    void badArgumentsAreExitTwoAndAnInvalidConfigurationExitOne() throws Exception {
        assertThat(main("test", "--config", config.toString()).code()).isEqualTo(2); // no --input
        Output noSource = main("test", "--config", config.toString(), "--input", input.toString(), "--source", "x");
        assertThat(noSource.code()).isEqualTo(2);
        assertThat(noSource.err()).startsWith("logrouter test: --source: no source 'x' (there are: legacy, modern)\n");
        assertThat(main("test", "--config", config.toString(), "--input", dir.resolve("none").toString()).code())
                .isEqualTo(2);
        assertThat(main("test", "--config", config.toString(), "--input", input.toString(), "--format", "xml")
                .code()).isEqualTo(2);
        assertThat(main("test", "--config", config.toString(), "--input", input.toString(), "--now", "today")
                .code()).isEqualTo(2);

        Files.writeString(config, Files.readString(config).replace("to: [files, relay]", "to: [files, nowhere]"));
        Output invalid = main("test", "--config", config.toString(), "--input", input.toString());
        assertThat(invalid.code()).isEqualTo(1);
        assertThat(invalid.err()).startsWith("logrouter: invalid configuration: " + config).contains("nowhere");
        assertThat(invalid.out()).isEmpty();
    }

    private void assertNothingWasCreated() throws Exception {
        assertThat(dir.resolve("logs")).as("the file sink wrote nothing").doesNotExist();
        assertThat(dir.resolve("journal")).as("the relay's journal was not created").doesNotExist();
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).isSubsetOf("router.yaml", "input.txt",
                    "expected.jsonl");
        }
    }
}
