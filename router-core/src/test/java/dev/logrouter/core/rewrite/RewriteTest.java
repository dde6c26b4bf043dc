package dev.logrouter.core.rewrite;

import dev.logrouter.core.config.ConfigLoader;
import dev.logrouter.core.config.CoreComponents;
import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParserConfig;
import dev.logrouter.core.route.RouteEvaluator;
import dev.logrouter.core.route.Routes;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Template;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;

import static dev.logrouter.core.parse.MessageParserFixture.context;
import static dev.logrouter.core.parse.MessageParserFixture.loader;
import static dev.logrouter.core.parse.MessageParserFixture.syslogEvent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The rewrite rules (set, unset, subst, set-tag, clear-tag) on events parsed from real syslog lines by the
 * real header parser, seen through templates as a sink would see them; their counters; option errors; and a
 * {@code rewrites:} chain loaded from YAML and run by a route.
 */
class RewriteTest {

    private static final String BSD = "<34>Oct 11 22:14:15 mymachine su[123]: user=alice ip=10.0.0.7 login failed";
    private static final String IETF = "<165>1 2003-10-11T22:14:15.000003-07:00 mymachine.example.com evntslog 77 ID47 "
            + "[meta sequenceId=\"1\"] An application event";

    private MetricGroup metrics;

    private static LogEvent bsd(String line) {
        return syslogEvent(line.getBytes(StandardCharsets.UTF_8), LogEvent.FORMAT_RFC3164);
    }

    private static LogEvent ietf(String line) {
        return syslogEvent(line.getBytes(StandardCharsets.UTF_8), LogEvent.FORMAT_RFC5424);
    }

    private EventParser step(ParserConfig cfg, String type) {
        metrics = new MetricGroup("Parser", "w." + type);
        return cfg.create(context(type, metrics));
    }

    private static String render(String template, LogEvent e) {
        ByteBuilder out = new ByteBuilder(16);
        Template.compile(template, ZoneOffset.UTC).render(e, out);
        return out.toString();
    }

    private static SubstConfig subst(String field, String pattern, String replacement, boolean global) {
        return new SubstConfig(null, field, pattern, "regex", replacement, global, false);
    }

    // ------------------------------------------------------------------ set

    @Test
    void setHostThenTemplatesSeeTheNewHost() {
        LogEvent e = bsd(BSD);
        step(new SetConfig(null, "HOST", "${HOST}.example.com"), "set").parse(e);
        assertThat(render("${HOST}", e)).isEqualTo("mymachine.example.com");
        assertThat(render("${DATE} ${HOST} ${MSGHDR}${MSG}", e))
                .isEqualTo("Oct 11 22:14:15 mymachine.example.com su[123]: user=alice ip=10.0.0.7 login failed");
        assertThat(metrics.value("applied")).isEqualTo(1);
    }

    @Test
    void setMayReadTheFieldItWrites() {
        LogEvent e = bsd(BSD);
        EventParser s = step(new SetConfig(null, "MSG", "[${PROGRAM}] ${MSG} (${MSG})"), "set");
        s.parse(e);
        assertThat(render("${MSG}", e)).isEqualTo("[su] user=alice ip=10.0.0.7 login failed "
                + "(user=alice ip=10.0.0.7 login failed)");
        s.parse(e); // again, on the rewritten value
        assertThat(render("${MSG}", e)).startsWith("[su] [su] user=alice").endsWith("failed))");
        assertThat(metrics.value("applied")).isEqualTo(2);
    }

    @Test
    void setEveryHeaderFieldAndMessageSynonym() {
        LogEvent e = bsd(BSD);
        step(new SetConfig(null, "PROGRAM", "sudo"), "set").parse(e);
        step(new SetConfig(null, "PID", "9"), "set").parse(e);
        step(new SetConfig(null, "MSGID", "AUTH"), "set").parse(e);
        step(new SetConfig(null, "MESSAGE", "replaced"), "set").parse(e);
        assertThat(render("${PROGRAM}|${PID}|${MSGID}|${MSGHDR}${MSG}", e)).isEqualTo("sudo|9|AUTH|sudo[9]: replaced");
    }

    @Test
    void setANameValueFieldAndAStructuredDataParam() {
        LogEvent e = ietf(IETF);
        step(new SetConfig(null, "env", "prod-${HOST}"), "set").parse(e);
        step(new SetConfig(null, ".SDATA.meta.region", "eu"), "set").parse(e);
        step(new SetConfig(null, ".SDATA.meta.sequenceId", "${.SDATA.meta.sequenceId}0"), "set").parse(e);
        assertThat(e.fields().get("env")).isEqualTo("prod-mymachine.example.com");
        assertThat(render("${SDATA}", e)).isEqualTo("[meta sequenceId=\"10\" region=\"eu\"]");
    }

    @Test
    void aParamAddedToTheFirstOfTwoElementsStaysInThatElement() {
        LogEvent e = ietf("<165>1 2003-10-11T22:14:15Z host app - ID47 [meta a=\"1\"][origin ip=\"192.0.2.1\"] text");
        step(new SetConfig(null, ".SDATA.meta.region", "eu"), "set").parse(e);
        step(new SetConfig(null, ".SDATA.new@1.k", "v"), "set").parse(e);
        // RFC 5424 wants each SD-ID once: the new param joins its element, a new SD-ID opens one at the end
        assertThat(render("${SDATA}", e))
                .isEqualTo("[meta a=\"1\" region=\"eu\"][origin ip=\"192.0.2.1\"][new@1 k=\"v\"]");
    }

    // ------------------------------------------------------------------ unset

    @Test
    void unsetAHeaderField() {
        LogEvent e = bsd(BSD);
        EventParser u = step(new UnsetConfig(null, "PID"), "unset");
        u.parse(e);
        assertThat(render("${PID}|${MSGHDR}${MSG}", e)).isEqualTo("|su: user=alice ip=10.0.0.7 login failed");
        u.parse(e); // nothing left to unset
        assertThat(metrics.value("applied")).isEqualTo(1);
        step(new UnsetConfig(null, "${HOST}"), "unset").parse(e);
        assertThat(render("[${HOST}]", e)).isEqualTo("[]");
    }

    @Test
    void unsetANameValueField() {
        LogEvent e = ietf(IETF);
        e.fields().set("drop.me", "x");
        step(new UnsetConfig(null, "drop.me"), "unset").parse(e);
        assertThat(e.fields().get("drop.me")).isNull();
        assertThat(e.fields().get(".SDATA.meta.sequenceId")).isEqualTo("1");
        assertThat(metrics.value("applied")).isEqualTo(1);
    }

    // ------------------------------------------------------------------ subst

    @Test
    void substOnMsgWithGroupsAndMacros() {
        LogEvent e = bsd(BSD);
        step(subst("MSG", "user=(\\w+) ip=(\\S+)", "user <$1> from ${2} on ${HOST} [$0]", false), "subst").parse(e);
        assertThat(render("${MSG}", e))
                .isEqualTo("user <alice> from 10.0.0.7 on mymachine [user=alice ip=10.0.0.7] login failed");
        assertThat(metrics.value("applied")).isEqualTo(1);
        assertThat(metrics.value("aborted")).isZero();
    }

    @Test
    void substFirstOrGlobal() {
        LogEvent a = bsd("<13>Oct 11 22:14:15 host app: a1 b22 c333");
        step(subst("MSG", "\\d+", "#", false), "subst").parse(a);
        assertThat(render("${MSG}", a)).isEqualTo("a# b22 c333");
        LogEvent b = bsd("<13>Oct 11 22:14:15 host app: a1 b22 c333");
        step(subst("MSG", "\\d+", "#", true), "subst").parse(b);
        assertThat(render("${MSG}", b)).isEqualTo("a# b# c#");
        LogEvent c = bsd("<13>Oct 11 22:14:15 host app: abc");
        step(subst("MSG", "x*", "-", true), "subst").parse(c);
        assertThat(render("${MSG}", c)).isEqualTo("abc".replaceAll("x*", "-"));
    }

    @Test
    void substLiteralAndIgnoreCaseAndNoMatch() {
        LogEvent e = bsd("<13>Oct 11 22:14:15 host app: cost $5.00 (approx.) COST");
        step(new SubstConfig(null, "MSG", "$5.00 (approx.)", "string", "five", false, false), "subst").parse(e);
        assertThat(render("${MSG}", e)).isEqualTo("cost five COST");
        step(new SubstConfig(null, null, "cost", "regex", "price", true, true), "subst").parse(e);
        assertThat(render("${MSG}", e)).isEqualTo("price five price");
        EventParser none = step(subst("MSG", "nothing-here", "x", true), "subst");
        none.parse(e);
        assertThat(render("${MSG}", e)).isEqualTo("price five price");
        assertThat(metrics.value("applied")).isZero();
    }

    @Test
    void substOnHostAndOnANameValueField() {
        LogEvent e = ietf(IETF);
        step(subst("HOST", "\\.example\\.com$", "", false), "subst").parse(e);
        step(subst(".SDATA.meta.sequenceId", "^", "seq-", false), "subst").parse(e);
        assertThat(render("${HOST} ${SDATA}", e)).isEqualTo("mymachine [meta sequenceId=\"seq-1\"]");
        step(subst("not.there", "x", "y", false), "subst").parse(e);
        assertThat(e.fields().get("not.there")).isNull();
    }

    @Test
    void substKeepsBytesThatAreNotUtf8AndMultiByteText() throws Exception {
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        raw.write("<13>Oct 11 22:14:15 host app: ".getBytes(StandardCharsets.US_ASCII));
        raw.write(new byte[] {(byte) 0xff, 'x'});
        raw.write(" árvíztűrő 😀 secret=hunter2 ".getBytes(StandardCharsets.UTF_8));
        raw.write(new byte[] {(byte) 0xc3});
        LogEvent e = syslogEvent(raw.toByteArray(), LogEvent.FORMAT_RFC3164);
        step(subst("MSG", "secret=\\S+", "secret=***", true), "subst").parse(e);
        ByteArrayOutputStream want = new ByteArrayOutputStream();
        want.write(new byte[] {(byte) 0xff, 'x'});
        want.write(" árvíztűrő 😀 secret=*** ".getBytes(StandardCharsets.UTF_8));
        want.write(new byte[] {(byte) 0xc3});
        byte[] msg = java.util.Arrays.copyOfRange(e.fieldArray(LogEvent.MSG), e.fieldOffset(LogEvent.MSG),
                e.fieldOffset(LogEvent.MSG) + e.fieldLength(LogEvent.MSG));
        assertThat(msg).isEqualTo(want.toByteArray());
        step(subst("MSG", "(ű)(r)", "$2$1", false), "subst").parse(e);
        assertThat(render("${MSG}", e)).contains(" árvíztrűő 😀 secret=*** ");
    }

    @Test
    void catastrophicBacktrackingIsBoundedAndTheMessageKept() {
        String evil = "a".repeat(40) + "!";
        LogEvent e = bsd("<13>Oct 11 22:14:15 host app: " + evil);
        // JDK 9+ defuses (a+)+b; a bounded repeat of .* still backtracks polynomially (~10^11 steps here)
        EventParser s = step(subst("MSG", "(.*a){12}b", "x", false), "subst");
        s.parse(e);
        assertThat(render("${MSG}", e)).isEqualTo(evil);
        assertThat(metrics.value("aborted")).isEqualTo(1);
        assertThat(metrics.value("applied")).isZero();
        LogEvent ok = bsd("<13>Oct 11 22:14:15 host app: " + "a".repeat(12) + "b");
        s.parse(ok); // the same instance keeps working
        assertThat(render("${MSG}", ok)).isEqualTo("x");
        assertThat(metrics.value("applied")).isEqualTo(1);
    }

    @Test
    void substOptionErrorsNameTheProblem() {
        assertThatThrownBy(() -> step(subst("MSG", "(unclosed", "x", false), "subst"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a valid regular expression");
        assertThatThrownBy(() -> step(subst("MSG", "(a)", "$2", false), "subst"))
                .hasMessageContaining("replacement refers to group $2 but the pattern has 1 group");
        assertThatThrownBy(() -> new SubstConfig(null, "MSG", "a", "glob", "b", false, false))
                .hasMessageContaining("pattern-type must be regex (or pcre) or string");
        assertThatThrownBy(() -> new SetConfig(null, "", "x")).hasMessageContaining("field must not be empty");
        assertThatThrownBy(() -> step(new SetConfig(null, "HOST", "${unterminated"), "set"))
                .hasMessageContaining("unterminated '${'");
    }

    // ------------------------------------------------------------------ tags

    @Test
    void setTagAndClearTag() {
        LogEvent e = bsd(BSD);
        EventParser set = step(new SetTagConfig(null, "auth-failure"), "set-tag");
        MetricGroup setMetrics = metrics;
        set.parse(e);
        set.parse(e);
        assertThat(e.hasTag(Tags.id("auth-failure"))).isTrue();
        assertThat(render("${TAGS}", e)).isEqualTo("auth-failure");
        assertThat(setMetrics.value("applied")).isEqualTo(1);
        e.addTag(Tags.id(".parse.json.failed"));
        EventParser clear = step(new ClearTagConfig(null, ".parse.json.failed"), "clear-tag");
        clear.parse(e);
        clear.parse(e);
        assertThat(render("${TAGS}", e)).isEqualTo("auth-failure");
        assertThat(metrics.value("applied")).isEqualTo(1);
    }

    // ------------------------------------------------------------------ from YAML through a route

    @Test
    void aRewriteChainFromYamlRunsInItsRoute() throws Exception {
        ConfigLoader loader = loader();
        RouterConfig cfg = loader.load(String.join("\n",
                "sources:",
                "  - {type: tcp, name: in}",
                "sinks:",
                "  - {type: file, name: out, path: /tmp/x.log}",
                "rewrites:",
                "  fix:",
                "    - {type: set, field: HOST, value: \"${HOST}.example.com\"}",
                "    - {type: subst, pattern: \"ip=(\\\\S+)\", replacement: \"ip=<$1>\", global: true}",
                "    - {type: unset, field: PID}",
                "    - {type: set-tag, tag: rewritten}",
                "    - {type: clear-tag, tag: nope}",
                "routes:",
                "  - {name: all, rewrite: [fix], to: [out]}",
                ""), "router.yaml");
        MetricRegistry registry = new MetricRegistry();
        Routes routes = new Routes(cfg, ZoneOffset.UTC, registry, c -> CoreComponents.steps().entrySet().stream()
                .filter(en -> en.getValue() == c).findFirst().orElseThrow().getKey());
        RouteEvaluator ev = routes.newEvaluator();
        LogEvent e = bsd(BSD);
        ev.parse(e);
        assertThat(e.sinkMask()).isEqualTo(1L);
        assertThat(render("${HOST} ${MSGHDR}${MSG} ${TAGS}", e))
                .isEqualTo("mymachine.example.com su: user=alice ip=<10.0.0.7> login failed rewritten");
        assertThat(registry.require("Parser", "fix.subst").value("applied")).isEqualTo(1);
        assertThat(registry.require("Parser", "fix.set").value("applied")).isEqualTo(1);
        assertThatThrownBy(() -> loader.load(String.join("\n",
                "sources:", "  - {type: tcp, name: in}",
                "sinks:", "  - {type: file, name: out, path: /tmp/x.log}",
                "rewrites:", "  fix:", "    - {type: subst, replacement: x}", ""), "router.yaml"))
                .hasMessageContaining("pattern");
    }
}
