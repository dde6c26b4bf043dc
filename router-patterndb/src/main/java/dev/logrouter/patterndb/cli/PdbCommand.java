package dev.logrouter.patterndb.cli;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Template;
import dev.logrouter.patterndb.PdbEvents;
import dev.logrouter.patterndb.PdbOutput;
import dev.logrouter.patterndb.PdbSession;
import dev.logrouter.patterndb.classify.PatternDb;
import dev.logrouter.patterndb.ruleset.ExampleDef;
import dev.logrouter.patterndb.ruleset.PatternDbFile;
import dev.logrouter.patterndb.ruleset.PdbLoadException;
import dev.logrouter.patterndb.ruleset.PdbLoader;
import dev.logrouter.patterndb.ruleset.RuleDef;
import dev.logrouter.patterndb.ruleset.RulesetDef;
import dev.logrouter.patterndb.ruleset.TestValue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code logrouter pdb match|test|dump}: the PatternDB tool, with the commands and output of syslog-ng's
 * {@code pdbtool} so that scripts and habits carry over.
 *
 * <pre>
 *   pdb match -p FILE... (-P PROGRAM -M MESSAGE | -f LOGFILE)   classify, print every emitted message
 *   pdb test [-r RULE_ID] FILE...                               run the files' examples
 *   pdb dump -p FILE [-P PROGRAM | -T]                          print a rule tree (or the program tree)
 * </pre>
 *
 * <p>Threads: runs on the calling (main) thread.
 */
public final class PdbCommand {

    private PdbCommand() {
    }

    /** Runs one command; returns the process exit code (pdbtool's codes). */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("help") || args[0].equals("--help")) {
            usage(args.length == 0 ? err : out);
            return args.length == 0 ? 2 : 0;
        }
        try {
            return switch (args[0]) {
                case "match" -> match(args, out, err);
                case "test" -> test(args, out, err);
                case "dump" -> dump(args, out, err);
                default -> {
                    err.println("logrouter pdb: unknown command '" + args[0] + "'");
                    usage(err);
                    yield 2;
                }
            };
        } catch (UsageException e) {
            err.println("logrouter pdb: " + e.getMessage());
            usage(err);
            return 2;
        } catch (IOException e) {
            err.println("logrouter pdb: " + e.getMessage());
            return 1;
        }
    }

    private static void usage(PrintStream s) {
        s.println("usage: logrouter pdb match -p FILE [-p FILE...] (-P PROGRAM -M MESSAGE | -f LOGFILE)");
        s.println("       logrouter pdb test [-r RULE_ID] FILE...");
        s.println("       logrouter pdb dump -p FILE [-P PROGRAM | -T]");
    }

    private static final class UsageException extends Exception {
        UsageException(String m) {
            super(m);
        }
    }

    /** Parsed options: repeatable -p, single-valued others, and positional files. */
    private record Opts(List<String> patternFiles, String program, String message, String file, String ruleId,
                        boolean programTree, List<String> positional) {
    }

    private static Opts options(String[] args) throws UsageException {
        List<String> p = new ArrayList<>();
        List<String> positional = new ArrayList<>();
        String program = null;
        String message = null;
        String file = null;
        String rule = null;
        boolean tree = false;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-p", "--pdb" -> p.add(value(args, ++i, a));
                case "-P", "--program" -> program = value(args, ++i, a);
                case "-M", "--message" -> message = value(args, ++i, a);
                case "-f", "--file" -> file = value(args, ++i, a);
                case "-r", "--rule" -> rule = value(args, ++i, a);
                case "-T", "--program-tree" -> tree = true;
                default -> {
                    if (a.startsWith("-")) {
                        throw new UsageException("unknown option " + a);
                    }
                    positional.add(a);
                }
            }
        }
        return new Opts(p, program, message, file, rule, tree, positional);
    }

    private static String value(String[] args, int i, String opt) throws UsageException {
        if (i >= args.length) {
            throw new UsageException(opt + " needs a value");
        }
        return args[i];
    }

    private static PatternDb build(List<String> files, PrintStream err) throws IOException {
        if (files.isEmpty()) {
            throw new IOException("no ruleset file: give one with -p FILE");
        }
        List<Path> paths = files.stream().map(Path::of).toList();
        try {
            return PatternDb.load(paths, err::println, ZoneId.systemDefault()); // pdbtool: local time
        } catch (PdbLoadException e) {
            throw new IOException("error loading pattern database: " + e.getMessage(), e);
        }
    }

    // ------------------------------------------------------------------ match

    private static int match(String[] args, PrintStream out, PrintStream err) throws UsageException, IOException {
        Opts o = options(args);
        if (o.file() == null && o.message() == null) {
            throw new UsageException("match needs -M MESSAGE (with -P PROGRAM) or -f LOGFILE");
        }
        PatternDb db = build(o.patternFiles(), err);
        PdbSession session = new PdbSession(db);
        boolean[] lastUnknown = {false};
        java.util.function.Consumer<LogEvent> print = e -> {
            out.print(PdbOutput.format(e));
            lastUnknown[0] = PdbOutput.isUnknown(e);
        };
        if (o.file() != null) {
            SyslogHeaderParser parser = new SyslogHeaderParser(ZoneId.systemDefault());
            try (BufferedReader r = Files.newBufferedReader(Path.of(o.file()), StandardCharsets.UTF_8)) {
                String line;
                LogEvent e = new LogEvent();
                while ((line = r.readLine()) != null) {
                    PdbEvents.fillSyslogLine(e, line, parser, System.currentTimeMillis());
                    session.process(e, print);
                }
            }
        } else {
            LogEvent e = PdbEvents.message(o.program(), o.message());
            e.setReceivedMillis(System.currentTimeMillis());
            session.process(e, print);
        }
        session.finish(print);
        return lastUnknown[0] ? 1 : 0;
    }

    // ------------------------------------------------------------------ test

    private static int test(String[] args, PrintStream out, PrintStream err) throws UsageException {
        Opts o = options(args);
        List<String> files = new ArrayList<>(o.positional());
        files.addAll(o.patternFiles());
        if (files.isEmpty()) {
            throw new UsageException("test needs at least one ruleset FILE");
        }
        boolean loadFailed = false;
        int passed = 0;
        int failed = 0;
        int ruleExamples = 0;
        for (String file : files) {
            PatternDb db;
            List<RuleDef> rules = new ArrayList<>();
            try {
                PatternDbFile f = PdbLoader.load(Path.of(file));
                f.warnings().forEach(err::println); // each names its file and position
                db = PatternDb.build(List.of(f), err::println, ZoneId.systemDefault());
                for (RulesetDef rs : f.rulesets()) {
                    rules.addAll(rs.rules());
                }
            } catch (PdbLoadException | IOException e) {
                err.println("Error loading pattern database: " + e.getMessage());
                loadFailed = true;
                continue;
            }
            ExampleRunner runner = new ExampleRunner(db);
            // pdbtool walks the examples from the last to the first; correlation state carries over
            for (int r = rules.size() - 1; r >= 0; r--) {
                RuleDef rule = rules.get(r);
                if (o.ruleId() != null && !o.ruleId().equals(rule.id())) {
                    continue;
                }
                List<ExampleDef> examples = rule.examples();
                for (int x = examples.size() - 1; x >= 0; x--) {
                    ExampleDef ex = examples.get(x);
                    ruleExamples++;
                    if (!ex.testable()) {
                        out.println("NOT Testing message as program is unset: message='"
                                + (ex.message() == null ? "" : ex.message()) + "'");
                        continue;
                    }
                    out.println("Testing message: program='" + ex.program() + "' message='" + ex.message() + "'");
                    List<String> problems = runner.run(rule, ex);
                    problems.forEach(out::println);
                    if (problems.isEmpty()) {
                        passed++;
                    } else {
                        failed++;
                    }
                }
            }
        }
        out.println(passed + " passed, " + failed + " failed");
        if (loadFailed) {
            return 1;
        }
        if (o.ruleId() != null && ruleExamples == 0) {
            return 3;
        }
        return failed > 0 ? 2 : 0;
    }

    /** Classifies examples with one session per file and lists what differs from the expectation. */
    static final class ExampleRunner {
        private final PdbSession session;
        private final ByteBuilder scratch = new ByteBuilder(256);

        ExampleRunner(PatternDb db) {
            this.session = new PdbSession(db);
        }

        /** pdbtool's lines for a failing example; empty when it passes. */
        List<String> run(RuleDef rule, ExampleDef ex) {
            LogEvent e = PdbEvents.message(ex.program(), ex.message());
            e.setReceivedMillis(System.currentTimeMillis());
            List<String> problems = new ArrayList<>();
            session.process(e, emitted -> { }); // e itself is classified (and correlated) in place
            check(e, ".classifier.rule_id", rule.id(), problems);
            for (TestValue tv : ex.testValues()) {
                check(e, tv.name(), tv.value(), problems);
            }
            return problems;
        }

        private void check(LogEvent e, String name, String expected, List<String> problems) {
            String value = value(e, name);
            if (!value.equals(expected)) {
                problems.add(" Wrong match name='" + name + "', value='" + value + "', expected='" + expected + "'");
            }
        }

        /** A value by name as a template reads it (built-ins and macros included); unset reads as "". */
        String value(LogEvent e, String name) {
            scratch.reset();
            Template.compile("${" + name + "}", ZoneOffset.UTC).render(e, scratch);
            return new String(scratch.array(), 0, scratch.length(), StandardCharsets.UTF_8);
        }
    }

    // ------------------------------------------------------------------ dump

    private static int dump(String[] args, PrintStream out, PrintStream err) throws UsageException, IOException {
        Opts o = options(args);
        PatternDb db = build(o.patternFiles(), err);
        if (o.programTree()) {
            out.print(db.dumpProgramTree());
        } else {
            out.print(db.dump(o.program() == null ? "" : o.program()));
        }
        return 0;
    }
}
