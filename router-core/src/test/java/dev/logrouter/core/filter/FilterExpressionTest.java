package dev.logrouter.core.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Every construct of the filter language on events parsed from real syslog lines by {@link SyslogHeaderParser}:
 * each filter is checked against messages that must match and messages that must not.
 */
class FilterExpressionTest {

    /** auth.info (38), program sshd, pid 4721. */
    static final String SSHD = "<38>Feb  5 17:32:18 web1 sshd[4721]: Failed password for invalid user admin "
            + "from 203.0.113.9 port 51234 ssh2";
    /** user.err (11), program postgres. */
    static final String POSTGRES = "<11>Feb  5 17:32:19 db2 postgres[911]: ERROR:  relation \"users\" does not exist";
    /** mail.info (22), program postfix/smtpd. */
    static final String POSTFIX = "<22>Feb  5 17:32:20 mx1 postfix/smtpd[2211]: connect from unknown[198.51.100.4]";
    /** kern.emerg (0), program kernel, no pid. */
    static final String KERNEL = "<0>Feb  5 17:32:21 fw1 kernel: Out of memory: Killed process 1234 (java)";
    /** local4.notice (165), RFC 5424 with structured data. */
    static final String IETF = "<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 "
            + "[exampleSDID@32473 iut=\"3\" eventSource=\"Application\" eventID=\"1011\"] An application event";
    /** local7.debug (191), UTF-8 text. */
    static final String UTF8 = "<191>Feb  5 17:32:22 café app: Größe überschritten für Ärger";

    static LogEvent event(String line) {
        LogEvent e = new LogEvent();
        e.clear();
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        e.setRaw(b, 0, b.length);
        byte[] peer = "192.0.2.7".getBytes(StandardCharsets.US_ASCII);
        e.setPeer(peer, 0, peer.length);
        e.setSource(0, "net".getBytes(StandardCharsets.US_ASCII), LogEvent.FORMAT_AUTO, 0);
        new SyslogHeaderParser(ZoneOffset.UTC).parse(e);
        assertThat(e.hasFlag(LogEvent.FLAG_PARSE_ERROR)).as("test line parses: %s", line).isFalse();
        return e;
    }

    static boolean test(String filter, String line) {
        return FilterExpression.compile(filter, Map.of()).newFilter().test(event(line));
    }

    static boolean test(String filter, LogEvent e) {
        return FilterExpression.compile(filter, Map.of()).newFilter().test(e);
    }

    @Nested
    class Priorities {

        @Test
        void facilityNamesListsRangesAndNumbers() {
            assertThat(test("facility(auth)", SSHD)).isTrue();
            assertThat(test("facility(mail, kern)", SSHD)).isFalse();
            assertThat(test("facility(mail, kern)", KERNEL)).isTrue();
            assertThat(test("facility(mail kern)", POSTFIX)).isTrue();
            assertThat(test("facility(local0..local7)", IETF)).isTrue();
            assertThat(test("facility(local7..local0)", IETF)).isTrue();
            assertThat(test("facility(local0..local3)", IETF)).isFalse();
            assertThat(test("facility(2)", POSTFIX)).isTrue();
            assertThat(test("facility(3)", POSTFIX)).isFalse();
            assertThat(test("FACILITY(MAIL)", POSTFIX)).isTrue();
        }

        @Test
        void levelRangesInEitherOrderAndSynonyms() {
            // syslog-ng numbers severities emerg=0 .. debug=7; a range is inclusive, written either way
            assertThat(test("level(info..emerg)", SSHD)).isTrue();
            assertThat(test("level(emerg..info)", SSHD)).isTrue();
            assertThat(test("level(info..emerg)", UTF8)).isFalse(); // debug
            assertThat(test("level(err..emerg)", POSTGRES)).isTrue();
            assertThat(test("level(warning..emerg)", SSHD)).isFalse();
            assertThat(test("priority(emerg)", KERNEL)).isTrue();
            assertThat(test("severity(notice, debug)", IETF)).isTrue();
            assertThat(test("severity(notice, debug)", SSHD)).isFalse();
            assertThat(test("level(error)", POSTGRES)).isTrue(); // syslog-ng alias of err
            assertThat(test("level(panic)", KERNEL)).isTrue();
            assertThat(test("level(3)", POSTGRES)).isTrue();
        }
    }

    @Nested
    class Matching {

        @Test
        void programHostMessageAreUnanchoredRegexSearchesByDefault() {
            assertThat(test("program(\"ssh\")", SSHD)).isTrue();
            assertThat(test("program(\"^sshd$\")", SSHD)).isTrue();
            assertThat(test("program(\"^ssh$\")", SSHD)).isFalse();
            assertThat(test("program(postfix)", POSTFIX)).isTrue(); // a bare word is a pattern too
            assertThat(test("host(\"^web[0-9]+$\")", SSHD)).isTrue();
            assertThat(test("host(\"^web[0-9]+$\")", POSTGRES)).isFalse();
            assertThat(test("message(\"Failed password\")", SSHD)).isTrue();
            assertThat(test("message(\"failed password\")", SSHD)).isFalse();
            assertThat(test("message(\"port \\\\d+ ssh2$\")", SSHD)).isTrue();
            assertThat(test("message('port \\d+ ssh2$')", SSHD)).isTrue(); // single quotes: no escapes
            assertThat(test("message(\"\\\\d{6}\")", SSHD)).isFalse();
        }

        @Test
        void ignoreCaseFlag() {
            assertThat(test("message(\"failed password\" flags(ignore-case))", SSHD)).isTrue();
            assertThat(test("message(\"FAILED.*ADMIN\" flags(ignore_case))", SSHD)).isTrue();
            assertThat(test("program(\"SSHD\" type(string) flags(ignore-case))", SSHD)).isTrue();
        }

        @Test
        void stringTypeIsExactUnlessPrefixOrSubstring() {
            assertThat(test("program(\"sshd\" type(string))", SSHD)).isTrue();
            assertThat(test("program(\"ssh\" type(string))", SSHD)).isFalse();
            assertThat(test("program(\"ssh\" type(string) flags(prefix))", SSHD)).isTrue();
            assertThat(test("program(\"shd\" type(string) flags(prefix))", SSHD)).isFalse();
            assertThat(test("program(\"shd\" type(string) flags(substring))", SSHD)).isTrue();
            assertThat(test("message(\"user admin\" type(string) flags(substring))", SSHD)).isTrue();
            assertThat(test("message(\"user root\" type(string) flags(substring))", SSHD)).isFalse();
            // a regex metacharacter is literal text for type(string)
            assertThat(test("program(\"postfix/smtpd\" type(string))", POSTFIX)).isTrue();
            assertThat(test("program(\"postfix.smtpd\" type(string))", POSTFIX)).isFalse();
            assertThat(test("program(\"postfix.smtpd\")", POSTFIX)).isTrue();
        }

        @Test
        void globTypeMatchesTheWholeValue() {
            assertThat(test("program(\"post*\" type(glob))", POSTFIX)).isTrue();
            assertThat(test("program(\"*smtpd\" type(glob))", POSTFIX)).isTrue();
            assertThat(test("program(\"post\" type(glob))", POSTFIX)).isFalse();
            assertThat(test("host(\"web?\" type(glob))", SSHD)).isTrue();
            assertThat(test("host(\"caf?\" type(glob))", UTF8)).isTrue(); // ? is one UTF-8 character
            assertThat(test("host(\"web??\" type(glob))", SSHD)).isFalse();
        }

        @Test
        void matchOnAnyFieldOrMacro() {
            LogEvent e = event(IETF);
            assertThat(test("match(\"^10[0-9]+$\" value(\".SDATA.exampleSDID@32473.eventID\"))", e)).isTrue();
            assertThat(test("match(\"^2\" value(\".SDATA.exampleSDID@32473.eventID\"))", e)).isFalse();
            assertThat(test("match(\"ID47\" value(\"MSGID\"))", e)).isTrue();
            assertThat(test("match(\"local4\" value(\"FACILITY\"))", e)).isTrue();
            assertThat(test("match(\"^net$\" value(\"SOURCE\"))", e)).isTrue();
            assertThat(test("match(\"^192\\\\.0\\\\.2\\\\.\" value(\"SOURCEIP\"))", e)).isTrue();
            assertThat(test("match(\"example.com/evntslog$\" template(\"${HOST}/${PROGRAM}\"))", e)).isTrue();
            // an unset field is matched as the empty string
            assertThat(test("match(\"^$\" value(\".json.nothing\"))", e)).isTrue();
            assertThat(test("match(\".\" value(\".json.nothing\"))", e)).isFalse();
        }

        @Test
        void matchWithoutValueSeesProgramPidAndMessageAsSyslogNgDoes() {
            assertThat(test("match(\"^sshd\\\\[4721\\\\]: Failed\")", SSHD)).isTrue();
            assertThat(test("match(\"^kernel: Out of memory\")", KERNEL)).isTrue();
        }

        @Test
        void sourceIsTheSourceNameComparedAsAStringByDefault() {
            assertThat(test("source(\"net\")", SSHD)).isTrue();
            assertThat(test("source(\"ne\")", SSHD)).isFalse(); // exact, as syslog-ng's source()
            assertThat(test("source(\"n.t\")", SSHD)).isFalse();
            assertThat(test("source(\"n.t\" type(pcre))", SSHD)).isTrue();
            assertThat(test("source(\"other\")", SSHD)).isFalse();
        }

        @Test
        void utf8PatternsSeeWholeCharacters() {
            assertThat(test("message(\"Größe\")", UTF8)).isTrue();
            assertThat(test("message(\"^Gr.ße\")", UTF8)).isTrue(); // non-ASCII pattern: decoded, . is one char
            assertThat(test("message(\"^Gr.ße\")", SSHD)).isFalse();
            assertThat(test("message(\"ärger\" flags(ignore-case))", UTF8)).isTrue(); // Unicode case folding
            // an ASCII pattern sees bytes: ö and ß are two chars each, unless flags(utf8) asks for decoding
            assertThat(test("message(\"^Gr.{4}e\")", UTF8)).isTrue();
            assertThat(test("message(\"^Gr..e\")", UTF8)).isFalse();
            assertThat(test("message(\"^Gr..e\" flags(utf8))", UTF8)).isTrue();
        }
    }

    @Nested
    class TagsExistsAndComparisons {

        @Test
        void tagsMatchAnyOfTheNames() {
            LogEvent e = event(SSHD);
            e.addTag(Tags.id(".parse.json.failed"));
            assertThat(test("tags(\".parse.json.failed\")", e)).isTrue();
            assertThat(test("tags(\"other\", \".parse.json.failed\")", e)).isTrue();
            assertThat(test("tags(\"other\" \"third\")", e)).isFalse();
            assertThat(test("tags(\".parse.json.failed\")", SSHD)).isFalse();
        }

        @Test
        void existsMeansSetAndNotEmpty() {
            LogEvent e = event(IETF);
            e.fields().set(".json.empty", "");
            assertThat(test("exists(\".SDATA.exampleSDID@32473.iut\")", e)).isTrue();
            assertThat(test("exists(\".SDATA.exampleSDID@32473.nope\")", e)).isFalse();
            assertThat(test("exists(\".json.empty\")", e)).isFalse();
            assertThat(test("exists(\"PID\")", e)).isFalse(); // '-' in RFC 5424 is no pid
            assertThat(test("exists(\"PID\")", SSHD)).isTrue();
            assertThat(test("exists(\"MSGID\")", e)).isTrue();
        }

        @Test
        void numericComparisons() {
            LogEvent e = event(IETF);
            String id = "\"${.SDATA.exampleSDID@32473.eventID}\"";
            assertThat(test(id + " == \"1011\"", e)).isTrue();
            assertThat(test(id + " == \"01011\"", e)).isTrue(); // numbers, not strings
            assertThat(test(id + " != \"1011\"", e)).isFalse();
            assertThat(test(id + " > \"999\"", e)).isTrue(); // a string compare would say "1011" < "999"
            assertThat(test(id + " >= \"1011\"", e)).isTrue();
            assertThat(test(id + " < \"1011\"", e)).isFalse();
            assertThat(test(id + " <= 1011", e)).isTrue(); // a bare number on the right
            assertThat(test("\"$PID\" > \"4000\"", SSHD)).isTrue();
            assertThat(test("\"${FACILITY_NUM}\" == \"4\"", SSHD)).isTrue();
            assertThat(test("\"${LEVEL_NUM}\" <= \"3\"", POSTGRES)).isTrue();
        }

        @Test
        void numericComparisonOfTextFollowsAtoi() {
            LogEvent e = event(SSHD);
            e.fields().set(".kv.size", "  42kB");
            e.fields().set(".kv.word", "abc");
            e.fields().set(".kv.neg", "-7");
            e.fields().set(".kv.frac", "1.5");
            assertThat(test("\"${.kv.size}\" == \"42\"", e)).isTrue(); // leading space skipped, tail ignored
            assertThat(test("\"${.kv.word}\" == \"0\"", e)).isTrue(); // no number reads as 0
            assertThat(test("\"${.kv.neg}\" < \"0\"", e)).isTrue();
            assertThat(test("\"${.kv.missing}\" == \"0\"", e)).isTrue();
            assertThat(test("\"${.kv.frac}\" > \"1\"", e)).isTrue(); // deliberate: fractions are kept
            assertThat(test("\"${.kv.frac}\" < \"2\"", e)).isTrue();
        }

        @Test
        void stringComparisons() {
            LogEvent e = event(IETF);
            String id = "\"${.SDATA.exampleSDID@32473.eventID}\"";
            assertThat(test(id + " lt \"999\"", e)).isTrue(); // strcmp order
            assertThat(test(id + " eq \"1011\"", e)).isTrue();
            assertThat(test(id + " eq \"01011\"", e)).isFalse();
            assertThat(test(id + " NE \"1011\"", e)).isFalse();
            assertThat(test("\"${HOST}\" eq \"mymachine.example.com\"", e)).isTrue();
            assertThat(test("\"${HOST}-${PROGRAM}\" eq \"mymachine.example.com-evntslog\"", e)).isTrue();
            assertThat(test("\"${PROGRAM}\" ge \"evntslog\" and \"${PROGRAM}\" le \"evntslog\"", e)).isTrue();
            assertThat(test("\"${PROGRAM}\" gt \"evntslog\"", e)).isFalse();
            assertThat(test("\"${LEVEL}\" eq \"notice\"", e)).isTrue();
        }
    }

    @Nested
    class Logic {

        @Test
        void andOrNotWithPrecedenceNotAndOr() {
            // or binds loosest: a or b and c == a or (b and c)
            assertThat(test("program(sshd) or program(nope) and level(debug)", SSHD)).isTrue();
            assertThat(test("(program(sshd) or program(nope)) and level(debug)", SSHD)).isFalse();
            // not binds tightest: not a and b == (not a) and b
            assertThat(test("not program(postgres) and level(info)", SSHD)).isTrue();
            assertThat(test("not (program(sshd) and level(info))", SSHD)).isFalse();
            assertThat(test("not not program(sshd)", SSHD)).isTrue();
            assertThat(test("program(sshd) AND Level(info) Or program(x)", SSHD)).isTrue();
        }

        @Test
        void semicolonsJoinLikeAndAsInSyslogNg() {
            assertThat(test("program(sshd); level(info);", SSHD)).isTrue();
            assertThat(test("program(sshd); level(err)", SSHD)).isFalse();
        }

        @Test
        void namedFiltersAreExpanded() {
            Map<String, String> named = Map.of(
                    "f_ssh", "program(\"sshd\")",
                    "f_important", "level(warning..emerg) or filter(f_ssh)");
            Filter f = FilterExpression.compile("filter(f_important) and not facility(kern)", named).newFilter();
            assertThat(f.test(event(SSHD))).isTrue();
            assertThat(f.test(event(POSTGRES))).isTrue();
            assertThat(f.test(event(POSTFIX))).isFalse();
            assertThat(f.test(event(KERNEL))).isFalse();
        }

        @Test
        void commentsAndNewlinesAreWhitespace() {
            assertThat(test("program(sshd)   # the ssh daemon\n  and level(info)", SSHD)).isTrue();
        }
    }

    @Test
    void instancesAreIndependentAndReusable() {
        FilterExpression x = FilterExpression.compile("message(\"port [0-9]+\") and \"${PID}\" > \"1000\"", Map.of());
        Filter a = x.newFilter();
        Filter b = x.newFilter();
        assertThat(a).isNotSameAs(b);
        LogEvent e = event(SSHD);
        for (int i = 0; i < 3; i++) {
            assertThat(a.test(e)).isTrue();
            assertThat(b.test(event(POSTGRES))).isFalse();
        }
        assertThat(x.text()).isEqualTo("message(\"port [0-9]+\") and \"${PID}\" > \"1000\"");
    }

    @Test
    void catastrophicRegexIsAbandonedWithinItsBudgetAndCounted() {
        // (a+)+$ itself is defused by the JDK's engine (memoised since Java 9); one more nesting level is not
        MetricGroup metrics = new MetricGroup("Route", "evil");
        FilterExpression x = FilterExpression.compile("message(\"((a+)+)+$\")", Map.of(), metrics);
        LogEvent e = event("<13>Feb  5 17:32:18 h app: " + "a".repeat(40) + "!");
        Filter f = x.newFilter();
        assertThat(metrics.value(FilterExpression.BUDGET_COUNTER)).isZero();
        assertThat(f.test(e)).isFalse();
        assertThat(metrics.value(FilterExpression.BUDGET_COUNTER)).isEqualTo(1);
        assertThat(x.budgetExceeded()).isEqualTo(1);
        // the same instance still works on the next message
        assertThat(f.test(event("<13>Feb  5 17:32:18 h app: aaaa"))).isTrue();
        assertThat(metrics.value(FilterExpression.BUDGET_COUNTER)).isEqualTo(1);
        // as part of a larger expression the abandoned search is just "no match"
        Filter g = FilterExpression.compile("not message(\"((a+)+)+$\") and program(app)", Map.of(), metrics).newFilter();
        assertThat(g.test(e)).isTrue();
        assertThat(metrics.value(FilterExpression.BUDGET_COUNTER)).isEqualTo(2);
    }
}
