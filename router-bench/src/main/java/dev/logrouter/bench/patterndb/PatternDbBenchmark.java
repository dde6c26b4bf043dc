package dev.logrouter.bench.patterndb;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.patterndb.classify.Classifier;
import dev.logrouter.patterndb.classify.CompiledRule;
import dev.logrouter.patterndb.classify.PatternDb;
import dev.logrouter.patterndb.ruleset.PatternDbFile;
import dev.logrouter.patterndb.ruleset.PatternText;
import dev.logrouter.patterndb.ruleset.RuleDef;
import dev.logrouter.patterndb.ruleset.RulesetDef;
import dev.logrouter.patterndb.ruleset.Scope;
import dev.logrouter.patterndb.ruleset.ValueDef;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;

import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Throughput (messages/s, one thread) of PatternDB classification ({@link Classifier#classify}) as a parse
 * worker runs it: program tree, the program's rule tree, captures, class, rule id and tags written into the
 * event, one value template per rule.
 *
 * <p>The database has {@code rules} generated rules spread over {@code rules / 25} programs (at least 2, plus a
 * default ruleset). Each rule is one of eight shapes taken from real rulesets (sshd logins, sudo, postfix
 * connects, firewall drops, HTTP access lines, key=value audit lines, quoted-string app events, PCRE-checked
 * ids), made distinct by an event word and number, so rules of one program share literal prefixes and parser
 * nodes as real rulesets do. {@code hit}: 1024 messages, each generated for a random rule (realistic values,
 * ~120-200 bytes). {@code miss}: messages of known programs whose text matches no rule (the search descends a
 * few levels and fails), and of unknown programs (default program, no rule matches).
 *
 * <p>Each operation refills the event (copy of the ~150 bytes into the slot, as the ring would) and classifies it.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(org.openjdk.jmh.annotations.Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class PatternDbBenchmark {

    @Param({"10", "100", "1000", "10000"})
    public int rules;

    private static final String[] VERBS = {"accepted", "failed", "opened", "closed", "denied", "granted", "reset",
        "started", "stopped", "dropped", "queued", "expired", "renewed", "rejected", "updated", "removed"};
    private static final String[] NOUNS = {"session", "connection", "request", "ticket", "lease", "login", "job",
        "message", "transfer", "policy", "token", "account", "query", "route", "object", "stream"};

    private Classifier classifier;
    private final LogEvent event = new LogEvent();
    private byte[][] hits;
    private int[] hitProgramLength;
    private byte[][] misses;
    private int[] missProgramLength;
    private int next;

    /** The pattern of shape {@code k} for event word {@code w} and number {@code n}. */
    private static String pattern(int k, String w, int n) {
        return switch (k) {
            case 0 -> w + " " + n + " password for @ESTRING:user: @from @IPv4:ip@ port @NUMBER:port@ @ANYSTRING:proto@";
            case 1 -> w + " " + n + ": @ESTRING:user: @: TTY=@ESTRING:tty: @; PWD=@ESTRING:pwd: @; COMMAND=@ANYSTRING:cmd@";
            case 2 -> w + " " + n + " from @ESTRING:client_host:[@@IPvANY:client_ip@]";
            case 3 -> w + " " + n + " IN=@ESTRING:in: @OUT=@ESTRING:out: @SRC=@IPv4:src@ DST=@IPv4:dst@ LEN=@NUMBER:len@ @ANYSTRING:rest@";
            case 4 -> w + " " + n + " @IPv4:client@ \"@ESTRING:method: @@ESTRING:url: @HTTP/@FLOAT:ver@\" @NUMBER:status@ @NUMBER:bytes@";
            case 5 -> w + " " + n + " type=@STRING:type:_@ uid=@NUMBER:uid@ msg=@QSTRING:msg:'@ res=@STRING:res@";
            case 6 -> w + " " + n + " id=@PCRE:id:[0-9a-f]{8}@ user=@STRING:user:._-@ mac=@MACADDR:mac@ done";
            default -> w + " " + n + " for user @STRING:user@ by @HOSTNAME:host@ (uid=@NUMBER:uid@)";
        };
    }

    /** A message matching shape {@code k}. */
    private static String message(int k, String w, int n, Random r) {
        String ip = (10 + r.nextInt(200)) + "." + r.nextInt(256) + "." + r.nextInt(256) + "." + (1 + r.nextInt(254));
        String user = "user" + r.nextInt(5000);
        return switch (k) {
            case 0 -> w + " " + n + " password for " + user + " from " + ip + " port " + (1024 + r.nextInt(60000))
                    + " ssh2";
            case 1 -> w + " " + n + ": " + user + " : TTY=pts/" + r.nextInt(40) + " ; PWD=/home/" + user
                    + " ; COMMAND=/usr/bin/systemctl restart nginx.service";
            case 2 -> w + " " + n + " from mail" + r.nextInt(100) + ".example.com[" + ip + "]";
            case 3 -> w + " " + n + " IN=eth0 OUT=eth1 SRC=" + ip + " DST=192.0.2." + r.nextInt(255) + " LEN="
                    + (40 + r.nextInt(1400)) + " TOS=0x00 PREC=0x00 TTL=64 ID=0 DF PROTO=TCP SPT=443 DPT=51514";
            case 4 -> w + " " + n + " " + ip + " \"GET /api/v1/orders/" + r.nextInt(100000)
                    + "?expand=items HTTP/1.1\" " + (200 + r.nextInt(4) * 100) + " " + r.nextInt(90000);
            case 5 -> w + " " + n + " type=USER_LOGIN uid=" + r.nextInt(65000) + " msg='op=login acct=" + user
                    + " exe=/usr/sbin/sshd terminal=ssh' res=success";
            case 6 -> w + " " + n + " id=" + String.format("%08x", r.nextInt()) + " user=" + user
                    + ".svc mac=00:1b:21:" + String.format("%02x:%02x:%02x", r.nextInt(256), r.nextInt(256),
                    r.nextInt(256)) + " done";
            default -> w + " " + n + " for user " + user + " by host" + r.nextInt(50) + ".corp.example.net (uid="
                    + r.nextInt(65000) + ")";
        };
    }

    @Setup
    public void setup() throws Exception {
        Random r = new Random(42);
        int programCount = Math.max(2, rules / 25);
        List<List<RuleDef>> perProgram = new ArrayList<>();
        for (int p = 0; p < programCount; p++) {
            perProgram.add(new ArrayList<>());
        }
        int[] ruleShape = new int[rules];
        String[] ruleWord = new String[rules];
        int[] ruleNumber = new int[rules];
        int[] ruleProgram = new int[rules];
        for (int i = 0; i < rules; i++) {
            int p = i % programCount;
            int k = (i / programCount) % 8;
            String w = VERBS[(i / programCount / 8) % VERBS.length] + " " + NOUNS[(i / 7) % NOUNS.length];
            int n = 1000 + i;
            ruleShape[i] = k;
            ruleWord[i] = w;
            ruleNumber[i] = n;
            ruleProgram[i] = p;
            perProgram.get(p).add(new RuleDef("rule-" + i, i % 3 == 0 ? "security" : null, "bench", null, 0,
                    Scope.PROCESS, List.of(new PatternText(pattern(k, w, n), 1)), List.of("bench"),
                    List.of(new ValueDef("event.kind", "shape" + k + "-${PROGRAM}", null, 1)), List.of(), List.of(),
                    1));
        }
        List<RulesetDef> rulesets = new ArrayList<>();
        rulesets.add(new RulesetDef("default", "default", List.of(),
                List.of(new RuleDef("default-kernel", null, "bench", null, 0, Scope.PROCESS,
                        List.of(new PatternText("kernel: @ANYSTRING:k@", 1)), List.of(), List.of(), List.of(),
                        List.of(), 1)), 1));
        for (int p = 0; p < programCount; p++) {
            rulesets.add(new RulesetDef("prog" + p, "prog" + p, List.of(new PatternText(programName(p), 1)),
                    perProgram.get(p), 1));
        }
        PatternDb db = PatternDb.build(List.of(new PatternDbFile("bench", 4, null, rulesets, List.of())),
                w -> {
                    throw new IllegalStateException(w);
                });
        classifier = db.newClassifier();

        hits = new byte[1024][];
        hitProgramLength = new int[1024];
        for (int m = 0; m < hits.length; m++) {
            int i = r.nextInt(rules);
            set(hits, hitProgramLength, m, programName(ruleProgram[i]),
                    message(ruleShape[i], ruleWord[i], ruleNumber[i], r));
        }
        misses = new byte[1024][];
        missProgramLength = new int[1024];
        for (int m = 0; m < misses.length; m++) {
            int i = r.nextInt(rules);
            String prog = m % 4 == 3 ? "unknown-daemon" : programName(ruleProgram[i]);
            // a known prefix with a wrong number, or text no rule starts with
            String text = m % 2 == 0
                    ? message(ruleShape[i], ruleWord[i], 999_999, r)
                    : "connection tracking table full, dropping packet from " + r.nextInt(1000);
            set(misses, missProgramLength, m, prog, text);
        }
        // sanity: every hit classifies, no miss does
        for (int m = 0; m < hits.length; m++) {
            if (classify(hits[m], hitProgramLength[m]) == null) {
                throw new IllegalStateException("hit message does not match: "
                        + new String(hits[m], StandardCharsets.UTF_8));
            }
            if (classify(misses[m], missProgramLength[m]) != null) {
                throw new IllegalStateException("miss message matches: "
                        + new String(misses[m], StandardCharsets.UTF_8));
            }
        }
    }

    private static String programName(int p) {
        String[] base = {"sshd", "sudo", "postfix/smtpd", "kernel", "nginx", "auditd", "app", "cron"};
        return base[p % base.length] + (p < base.length ? "" : "-" + p);
    }

    private static void set(byte[][] into, int[] programLength, int m, String program, String message) {
        byte[] p = program.getBytes(StandardCharsets.UTF_8);
        byte[] t = message.getBytes(StandardCharsets.UTF_8);
        byte[] b = new byte[p.length + t.length];
        System.arraycopy(p, 0, b, 0, p.length);
        System.arraycopy(t, 0, b, p.length, t.length);
        into[m] = b;
        programLength[m] = p.length;
    }

    private CompiledRule classify(byte[] raw, int programLength) {
        LogEvent e = event;
        e.clear();
        e.setRaw(raw, 0, raw.length);
        e.setField(LogEvent.PROGRAM, 0, programLength);
        e.setField(LogEvent.MSG, programLength, raw.length - programLength);
        return classifier.classify(e);
    }

    @Benchmark
    public CompiledRule hit() {
        int m = next++ & 1023;
        return classify(hits[m], hitProgramLength[m]);
    }

    @Benchmark
    public CompiledRule miss() {
        int m = next++ & 1023;
        return classify(misses[m], missProgramLength[m]);
    }
}
