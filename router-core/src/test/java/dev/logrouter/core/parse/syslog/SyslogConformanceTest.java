package dev.logrouter.core.parse.syslog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.logrouter.core.event.LogEvent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Replays the syslog-diff cases ({@code cases.tsv}) through {@link SyslogHeaderParser} and compares the rendered
 * {@code ISODATE|HOST|PROGRAM|PID|MSGID|SDATA|MSG} record with syslog-ng 3.38.1's, normalised as compare.py does.
 * Framing cases are skipped: they are the Netty decoders' business.
 */
class SyslogConformanceTest {

    static final Instant RECEIVED = Instant.parse("2026-11-22T06:14:00Z");
    private static final String DIR = "/syslog-conformance/";

    /** Cases whose outcome is decided by framing, not by the header parser. */
    private static final Map<String, String> FRAMING = Map.of(
            "b12", "empty UDP datagram: the source delivers nothing",
            "b34", "LF framing splits one TCP write into two messages",
            "b35", "the LF framer drops the CR before LF",
            "b37", "over-long LF-framed input is split by the framer",
            "r25", "LF-framed data on the octet-counting port: framing error, nothing delivered",
            "r26", "octet count larger than the data: nothing delivered",
            "r31", "two octet-counted frames in one write");

    @TestFactory
    Stream<DynamicTest> casesMatchSyslogNg() throws IOException {
        Map<String, JsonNode> expected = loadExpected();
        List<String[]> cases = loadCases();
        assertThat(cases).hasSize(80);
        SyslogHeaderParser parser = new SyslogHeaderParser(ZoneOffset.UTC);
        return cases.stream().map(c -> DynamicTest.dynamicTest(c[0] + " " + c[4], () -> {
            String id = c[0];
            Assumptions.assumeTrue(!FRAMING.containsKey(id), () -> "framing case: " + FRAMING.get(id));
            JsonNode exp = expected.get(id);
            byte hint = c[1].endsWith("3164") ? LogEvent.FORMAT_RFC3164 : LogEvent.FORMAT_RFC5424;
            LogEvent e = SyslogRecord.event(SyslogRecord.decodePayload(c[3]), hint, RECEIVED.toEpochMilli());
            parser.parse(e);
            boolean yearless = c[2].contains("yearless");
            String actual = normalise(SyslogRecord.render(e), RECEIVED, yearless);
            String basic = exp.get("basic").asText();
            assertThat(basic).endsWith("\n");
            Instant sentAt = OffsetDateTime.parse(exp.get("sent_at").asText()).toInstant();
            String want = normalise(basic.substring(0, basic.length() - 1), sentAt, yearless);
            assertThat(actual).isEqualTo(want);
            boolean error = want.contains("|Error processing log message: ");
            assertThat(e.hasFlag(LogEvent.FLAG_PARSE_ERROR)).isEqualTo(error);
            String ext = exp.get("ext").asText();
            assertThat(ext).startsWith("PRI=" + e.pri() + " ");
        }));
    }

    /** compare.py's normalisation of one record. */
    static String normalise(String record, Instant reference, boolean yearless) {
        String[] parts = record.split("\\|", 7);
        assertThat(parts).hasSize(7);
        try {
            Instant ts = OffsetDateTime.parse(parts[0]).toInstant();
            if (Math.abs(ts.getEpochSecond() - reference.getEpochSecond()) <= 300) {
                parts[0] = "<RECV>";
            } else if (yearless) {
                parts[0] = "YYYY" + parts[0].substring(4);
            }
        } catch (DateTimeParseException ex) {
            // left as is: the comparison shows it
        }
        if (parts[6].startsWith("Error processing log message:")) {
            parts[3] = "<PID>";
            parts[5] = parts[5].replaceAll("sequenceId=\"\\d+\"", "sequenceId=\"N\"");
        }
        return String.join("|", parts);
    }

    static List<String[]> loadCases() throws IOException {
        List<String[]> out = new ArrayList<>();
        try (InputStream in = resource("cases.tsv");
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split("\t", -1);
                String[] c = new String[5];
                for (int i = 0; i < 5; i++) {
                    c[i] = i < parts.length ? parts[i] : "";
                }
                out.add(c);
            }
        }
        return out;
    }

    static Map<String, JsonNode> loadExpected() throws IOException {
        Map<String, JsonNode> out = new HashMap<>();
        try (InputStream in = resource("syslog-ng-3.38.1.json")) {
            for (JsonNode n : new ObjectMapper().readTree(in).get("results")) {
                out.put(n.get("id").asText(), n);
            }
        }
        return out;
    }

    private static InputStream resource(String name) {
        InputStream in = SyslogConformanceTest.class.getResourceAsStream(DIR + name);
        assertThat(in).as(name).isNotNull();
        return in;
    }
}
