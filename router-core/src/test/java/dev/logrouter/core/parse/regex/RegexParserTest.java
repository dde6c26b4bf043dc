package dev.logrouter.core.parse.regex;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.option.ConfigException;
import dev.logrouter.core.parse.EventParser;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Pattern;

import static dev.logrouter.core.parse.MessageParserFixture.context;
import static dev.logrouter.core.parse.MessageParserFixture.frame;
import static dev.logrouter.core.parse.MessageParserFixture.loadStep;
import static dev.logrouter.core.parse.MessageParserFixture.msg;
import static dev.logrouter.core.parse.MessageParserFixture.syslogEvent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RegexParserTest {

    private static final int FAILED = Tags.id(".parse.regex.failed");
    private static final String SSHD = "Failed password for invalid user admin from 203.0.113.7 port 52144 ssh2";
    private static final String HEADER = "<38>May  1 12:34:56 bastion sshd[811]: ";
    private static final String USER = "user (?<user>\\S+) from (?<ip>[0-9.]+) port (?<port>\\d+)";

    private final MetricGroup metrics = new MetricGroup("Parser", "test.regex");

    /** A real RFC 3164 line with {@code msg} as its MSG, header parsed. */
    private static LogEvent event(String msg) {
        return syslogEvent(HEADER, msg);
    }

    /** The same with MSG bytes that need not be valid UTF-8. */
    private static LogEvent event(byte[] msg) {
        return syslogEvent(frame(HEADER, msg), LogEvent.FORMAT_AUTO);
    }

    private EventParser parser(RegexParserConfig cfg) {
        return cfg.create(context("regex", metrics));
    }

    private LogEvent parse(RegexParserConfig cfg, String msg) {
        LogEvent e = event(msg);
        parser(cfg).parse(e);
        return e;
    }

    @Test
    void namedGroupsBecomeFieldsUnderThePrefix() {
        RegexParserConfig c = new RegexParserConfig(null, ".ssh.", "${MSG}", List.of(USER), List.of(), 1000);
        LogEvent e = parse(c, SSHD);
        assertThat(e.fields().get(".ssh.user")).isEqualTo("admin");
        assertThat(e.fields().get(".ssh.ip")).isEqualTo("203.0.113.7");
        assertThat(e.fields().get(".ssh.port")).isEqualTo("52144");
        assertThat(e.fields().size()).isEqualTo(3);
        assertThat(e.hasTag(FAILED)).isFalse();
        assertThat(metrics.value("parsed")).isEqualTo(1);
    }

    @Test
    void firstMatchingPatternWinsAndUnmatchedGroupsWriteNothing() {
        RegexParserConfig c = RegexParserConfig.of("^Accepted (?<method>\\w+)", "(?<kind>invalid )?user (?<user>\\w+)",
                "for (?<any>.*)");
        LogEvent e = parse(c, SSHD);
        assertThat(e.fields().get("kind")).isEqualTo("invalid ");
        assertThat(e.fields().get("user")).isEqualTo("admin");
        assertThat(e.fields().get("any")).as("later patterns are not tried").isNull();
        assertThat(e.fields().get("method")).isNull();
        LogEvent valid = parse(c, "Failed password for user root from 198.51.100.1");
        assertThat(valid.fields().get("user")).isEqualTo("root");
        assertThat(valid.fields().get("kind")).isNull();
        assertThat(valid.fields().size()).isEqualTo(1);
    }

    @Test
    void noMatchFailsAndKeepsTheMessage() {
        LogEvent e = parse(RegexParserConfig.of("^Accepted (?<method>\\w+)"), SSHD);
        assertThat(e.hasTag(FAILED)).isTrue();
        assertThat(e.fields().size()).isZero();
        assertThat(msg(e)).isEqualTo(SSHD);
        assertThat(e.hasFlag(LogEvent.FLAG_DISCARD)).isFalse();
        assertThat(metrics.value("failed")).isEqualTo(1);
        assertThat(metrics.value("stepLimitExceeded")).isZero();
        RegexParserConfig drop = new RegexParserConfig(null, "", "${MSG}", List.of("^Accepted"),
                List.of("drop-invalid"), 1000);
        assertThat(parse(drop, SSHD).hasFlag(LogEvent.FLAG_DISCARD)).isTrue();
    }

    @Test
    void nonAsciiInputIsMatchedAsUnicodeAndWrittenAsUtf8() {
        RegexParserConfig c = new RegexParserConfig(null, "", "${MSG}",
                List.of("user (?<user>\\p{L}+) city (?<city>\\S+) (?<emoji>\\p{So})"), List.of("ignore-case"), 1000);
        LogEvent e = parse(c, "USER J\u00fcrgen city \u6771\u4eac \u263a ok \ud83d\ude00");
        assertThat(e.fields().get("user")).isEqualTo("J\u00fcrgen");
        assertThat(e.fields().get("city")).isEqualTo("\u6771\u4eac");
        assertThat(e.fields().get("emoji")).isEqualTo("\u263a");
        LogEvent bad = event(new byte[] {'v', '=', (byte) 0xC3, (byte) 0x28, 'z'});
        parser(RegexParserConfig.of("v=(?<v>.+)")).parse(bad);
        assertThat(bad.fields().get("v")).isEqualTo("\ufffd(z");
        LogEvent truncated = event(new byte[] {'v', '=', (byte) 0xE2, (byte) 0x82, 'z'});
        parser(RegexParserConfig.of("v=(?<v>.+)")).parse(truncated);
        assertThat(truncated.fields().get("v")).as("one U+FFFD per malformed byte, as filters and subst decode")
                .isEqualTo("\ufffd\ufffdz");
    }

    @Test
    void catastrophicBacktrackingIsBoundedAndCounted() {
        EventParser p = parser(RegexParserConfig.of("(a+)+b", "(?<all>.*)"));
        String as = "a".repeat(4000);
        for (int i = 0; i < 3; i++) {
            LogEvent e = event(as);
            p.parse(e);
            assertThat(e.hasTag(FAILED)).isTrue();
            assertThat(e.fields().get("all")).as("the parse stops at the budget, later patterns too").isNull();
            assertThat(msg(e)).isEqualTo(as);
        }
        assertThat(metrics.value("stepLimitExceeded")).isEqualTo(3);
        assertThat(metrics.value("failed")).isEqualTo(3);
        // the same parser instance still matches ordinary input afterwards
        LogEvent ok = event("aaab");
        p.parse(ok);
        assertThat(ok.hasTag(FAILED)).isFalse();
        assertThat(metrics.value("parsed")).isEqualTo(1);
    }

    @Test
    void theBudgetIsSetByTheOption() {
        // find() of .*.*.*= on 150 chars without '=' reads about 150^4/24 = 21M chars before it gives up
        String line = "k".repeat(150);
        RegexParserConfig tight = new RegexParserConfig(null, "", "${MSG}", List.of(".*.*.*="), List.of(), 1);
        LogEvent e = parse(tight, line);
        assertThat(e.hasTag(FAILED)).isTrue();
        assertThat(metrics.value("stepLimitExceeded")).as("budget = the 100000 floor").isEqualTo(1);
        RegexParserConfig roomy = new RegexParserConfig(null, "", "${MSG}", List.of(".*.*.*="), List.of(),
                1_000_000);
        LogEvent r = parse(roomy, line);
        assertThat(r.hasTag(FAILED)).as("within 150M steps: an ordinary no-match").isTrue();
        assertThat(metrics.value("stepLimitExceeded")).isEqualTo(1);
        assertThat(metrics.value("failed")).isEqualTo(2);
    }

    @Test
    void stackOverflowInTheEngineIsAFailureNotACrash() {
        // (a|b)* recurses once per repetition in java.util.regex: 60000 repetitions overflow the stack
        String line = "ab".repeat(30_000);
        LogEvent e = parse(RegexParserConfig.of("^(?<v>(a|b)*)$"), line);
        assertThat(e.hasTag(FAILED)).isTrue();
        assertThat(msg(e)).isEqualTo(line);
        assertThat(metrics.value("failed")).isEqualTo(1);
        assertThat(metrics.value("stepLimitExceeded")).isZero();
    }

    @Test
    void badPatternIsRejectedWithThePatternAndJavasMessage() {
        assertThatThrownBy(() -> RegexParserConfig.of("ok", "(?<user>\\w+"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("patterns[1]")
                .hasMessageContaining("(?<user>\\w+")
                .hasMessageContaining("Unclosed group");
        assertThatThrownBy(() -> new RegexParserConfig(null, "", "${MSG}", List.of("x"), List.of("global"), 1000))
                .hasMessageContaining("global");
        assertThatThrownBy(() -> loadStep("type: regex", "patterns: ['a[b']"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("a[b")
                .hasMessageContaining("Unclosed character class");
    }

    @Test
    void groupNamesAreFoundOnlyWhereTheyAreGroups() {
        assertThat(NamedGroups.of(Pattern.compile("(?<a>x)\\(?<b>y\\)[(?<c>]\\Q(?<d>z)\\E(?<e1>q)(?<=w)(?<!v)")))
                .containsExactly("a", "e1");
        assertThat(NamedGroups.of(Pattern.compile("(?x) (?<a>x) # (?<b>y)"))).containsExactly("a");
    }
}
