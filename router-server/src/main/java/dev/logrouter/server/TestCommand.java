package dev.logrouter.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.option.ConfigException;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code logrouter test}: runs sample messages through a configuration offline and prints what each sink would
 * write (like {@code vector test}), so that a configuration change can be checked in CI:
 *
 * <pre>
 *   test [--config FILE] --input FILE|- [--source NAME] [--format text|json] [--expect FILE] [--now TIME]
 *        [--log-level LEVEL]
 * </pre>
 *
 * The configuration is loaded and checked as {@code run} and {@code check-config} do ({@link Main#load}); each
 * non-empty line of {@code --input} is one message as a sender sends it, arriving on {@code --source} (default: the
 * first source), and goes through {@link ConfigTestRun}. {@code text} (the default) is for reading; {@code json} is
 * one object per message, {@code {"line", "input", "routes", "sinks": {NAME: {PART: TEXT}}}}, stable to diff.
 * {@code --expect FILE} compares the output (json unless {@code --format text} is given) with FILE: exit 0 when
 * equal, 1 with a diff of the lines that differ. {@code --now} fixes the receive time (default: now), which an
 * RFC 3164 date takes its year from, and which messages without a date are stamped with.
 *
 * <p>Exit codes: 0 done (and equal to {@code --expect}), 1 an invalid configuration or an output that differs,
 * 2 bad arguments (an unknown source, an input or expect file that cannot be read).
 *
 * <p>Threads: the main thread.
 */
final class TestCommand {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TestCommand() {
    }

    /** Runs {@code test} with the arguments after the command name. */
    static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
        String configFile = null;
        String input = null;
        String source = null;
        String format = null;
        String expect = null;
        String now = null;
        String logLevel = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                usage(out, null);
                return 0;
            }
            if (i + 1 >= args.length) {
                return usage(err, a.startsWith("-") ? a + " needs a value" : "unknown argument '" + a + "'");
            }
            switch (a) {
                case "--config", "-c" -> configFile = args[++i];
                case "--input", "-i" -> input = args[++i];
                case "--source" -> source = args[++i];
                case "--format" -> format = args[++i];
                case "--expect" -> expect = args[++i];
                case "--now" -> now = args[++i];
                case "--log-level" -> logLevel = args[++i];
                default -> {
                    return usage(err, "unknown argument '" + a + "'");
                }
            }
        }
        if (input == null) {
            return usage(err, "--input FILE is required (- for stdin)");
        }
        if (format == null) {
            format = expect != null ? "json" : "text";
        } else if (!format.equals("text") && !format.equals("json")) {
            return usage(err, "--format must be text or json, got '" + format + "'");
        }
        long receivedMillis;
        try {
            receivedMillis = now == null ? System.currentTimeMillis() : parseTime(now);
        } catch (DateTimeParseException e) {
            return usage(err, "--now must be an ISO-8601 time such as 2026-03-01T12:00:00Z, got '" + now + "'");
        }
        if (logLevel != null) {
            try {
                logLevel = Logging.checkLevel(logLevel);
            } catch (IllegalArgumentException e) {
                return usage(err, "--log-level " + e.getMessage());
            }
        }
        Logging.configure(logLevel); // before anything logs: see Logging

        RouterConfig cfg;
        try {
            cfg = Main.load(configFile, logLevel);
        } catch (ConfigException e) {
            err.println("logrouter: invalid configuration: " + e.getMessage());
            return 1;
        }
        ConfigTestRun run;
        try {
            run = new ConfigTestRun(cfg, source, receivedMillis);
        } catch (IllegalArgumentException e) {
            return usage(err, "--source: " + e.getMessage());
        }
        byte[] in;
        try {
            in = input.equals("-") ? readAll(System.in) : Files.readAllBytes(Path.of(input));
        } catch (NoSuchFileException e) {
            return usage(err, "--input: no file " + input);
        }
        List<String> expected = null;
        if (expect != null) {
            try {
                expected = lines(Files.readString(Path.of(expect), StandardCharsets.UTF_8));
            } catch (NoSuchFileException e) {
                return usage(err, "--expect: no file " + expect);
            }
        }
        if (run.correlationLeftOut()) {
            err.println("logrouter test: note: the PatternDB rulesets correlate messages or have actions; the "
                    + "correlation stage is not run (no contexts, no generated messages): each message is shown as "
                    + "the parse workers leave it");
        }

        List<String> output = new ArrayList<>();
        int start = 0;
        int lineNo = 0;
        while (start < in.length) {
            int lf = start;
            while (lf < in.length && in[lf] != '\n') {
                lf++;
            }
            lineNo++;
            int end = lf > start && in[lf - 1] == '\r' ? lf - 1 : lf; // CR LF, as the TCP source's LF framing
            if (end > start) { // empty lines are skipped, as the TCP source skips empty frames
                ConfigTestRun.Result r = run.run(lineNo, in, start, end - start);
                if (format.equals("json")) {
                    output.add(json(r));
                } else {
                    text(r, output);
                }
            }
            start = lf + 1;
        }

        if (expected == null) {
            for (String line : output) {
                out.println(line);
            }
            return 0;
        }
        List<String> diff = LineDiff.diff(expected, output, expect + " (expected)", "actual");
        if (diff.isEmpty()) {
            out.println("logrouter test: output equals " + expect + " (" + Main.count(output.size(), "line") + ")");
            return 0;
        }
        err.println("logrouter test: output differs from " + expect + ":");
        for (String line : diff) {
            out.println(line);
        }
        return 1;
    }

    /** An ISO-8601 instant or offset date-time, in epoch milliseconds. */
    private static long parseTime(String s) {
        try {
            return Instant.parse(s).toEpochMilli();
        } catch (DateTimeParseException e) {
            return OffsetDateTime.parse(s).toInstant().toEpochMilli();
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        return in.readAllBytes();
    }

    /** The lines of {@code s}, without their line ends (LF or CR LF); no empty last line for a final LF. */
    static List<String> lines(String s) {
        List<String> lines = new ArrayList<>(List.of(s.split("\r?\n", -1)));
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }

    /** One JSON object on one line: {@code line}, {@code input}, {@code routes}, {@code sinks}. */
    static String json(ConfigTestRun.Result r) throws JsonProcessingException {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("line", r.line());
        o.put("input", r.input());
        o.put("routes", r.routes());
        if (r.discarded()) {
            o.put("discarded", true);
        }
        o.put("sinks", r.sinks());
        return JSON.writeValueAsString(o);
    }

    /**
     * The message for reading: {@code LINE: INPUT}, its routes, then {@code -> sink NAME: TEXT} per sink (a record
     * of several parts on one indented line each), or {@code -> no sink (unrouted)}. Control characters are
     * escaped, so that every value stays on its line (a backslash is not: {@code json} is the exact form).
     */
    static void text(ConfigTestRun.Result r, List<String> out) {
        out.add(r.line() + ": " + escape(r.input()));
        out.add("  routes: " + (r.routes().isEmpty() ? "(none)" : String.join(", ", r.routes())));
        if (r.discarded()) {
            out.add("  -> discarded");
            return;
        }
        if (r.sinks().isEmpty()) {
            out.add("  -> no sink (unrouted)");
            return;
        }
        r.sinks().forEach((name, parts) -> {
            if (parts.size() == 1) {
                out.add("  -> sink " + name + ": " + escape(parts.values().iterator().next()));
            } else {
                out.add("  -> sink " + name + ":");
                parts.forEach((part, value) -> out.add("       " + part + ": " + escape(value)));
            }
        });
    }

    /** {@code \n}, {@code \r}, {@code \t}, and {@code \xNN} for the other control characters. */
    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\x%02x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }

    /** Prints {@code problem} (unless null) and the usage; returns 2, the exit code of bad arguments. */
    private static int usage(PrintStream err, String problem) {
        if (problem != null) {
            err.println("logrouter test: " + problem);
        }
        err.println("usage: java -jar logrouter.jar test [--config FILE] --input FILE|- [--source NAME]");
        err.println("                 [--format text|json] [--expect FILE] [--now TIME] [--log-level LEVEL]");
        return 2;
    }
}
