package dev.logrouter.core.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.logrouter.core.event.EventContext;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.filter.FilterExpression;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Templates and filters evaluated over a list of messages ({@link EventContext}): {@code ${NAME}@N} with the
 * reference's multi-digit quirk and its literal-{@code @} rules, {@code $CONTEXT_ID}/{@code $_}, and the functions
 * {@code context-length}, {@code if}, {@code grep}, {@code context-lookup}, {@code context-values}.
 */
class TemplateContextTest {

    /** A list of events, oldest first, as the correlator keeps one. */
    private static final class ListContext implements EventContext {
        final List<LogEvent> events = new ArrayList<>();
        final byte[] id;

        ListContext(String id) {
            this.id = id.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public int size() {
            return events.size();
        }

        @Override
        public LogEvent back(int n) {
            return events.get(events.size() - 1 - n);
        }

        @Override
        public byte[] idArray() {
            return id;
        }

        @Override
        public int idOffset() {
            return 0;
        }

        @Override
        public int idLength() {
            return id.length;
        }
    }

    private static LogEvent event(String msg, String pid) {
        LogEvent e = new LogEvent();
        byte[] m = msg.getBytes(StandardCharsets.UTF_8);
        byte[] p = pid.getBytes(StandardCharsets.UTF_8);
        byte[] raw = new byte[m.length + p.length];
        System.arraycopy(m, 0, raw, 0, m.length);
        System.arraycopy(p, 0, raw, m.length, p.length);
        e.setRaw(raw, 0, raw.length);
        e.setField(LogEvent.MSG, 0, m.length);
        if (!pid.isEmpty()) {
            e.setField(LogEvent.PID, m.length, p.length);
        }
        return e;
    }

    /** A context of messages with MSG m0..m(n-1), oldest first; PID alternates 1, 2; the last has the context set. */
    private static LogEvent lastOfContext(int n, String id) {
        ListContext c = new ListContext(id);
        for (int i = 0; i < n; i++) {
            LogEvent e = event("m" + i, i % 2 == 0 ? "1" : "2");
            e.fields().set("i", Integer.toString(i));
            c.events.add(e);
        }
        LogEvent last = c.events.get(n - 1);
        last.setContext(c);
        return last;
    }

    private static String render(String template, LogEvent e) {
        ByteBuilder out = new ByteBuilder(16);
        Template.compile(template, ZoneOffset.UTC).render(e, out);
        return out.toString();
    }

    @Test
    void plainReferencesReadTheLastMessageAndAtNCountsBack() {
        LogEvent last = lastOfContext(3, "c");
        assertThat(render("${MSG}|${MSG}@0|${MSG}@1|${MSG}@2|${MSG}@3|${i}@1|${PID}@1", last))
                .isEqualTo("m2|m2|m1|m0||1|2");
    }

    @Test
    void withoutContextTheEventIsItsOwnOneMessageContext() {
        LogEvent e = event("alone", "7");
        assertThat(render("${MSG}@0/${MSG}@1/$(context-length)/[$CONTEXT_ID]", e)).isEqualTo("alone//1/[]");
    }

    @Test
    void multiDigitReferencesFollowTheReferenceQuirk() {
        LogEvent last = lastOfContext(20, "c");
        // n += n * 10 + d: "10" -> 11, "12" -> 13 (message index counted back from the last = m19)
        assertThat(render("${MSG}@10", last)).isEqualTo("m" + (19 - 11));
        assertThat(render("${MSG}@12", last)).isEqualTo("m" + (19 - 13));
        assertThat(render("${MSG}@9", last)).isEqualTo("m10");
        assertThat(render("${MSG}@99", last)).isEmpty(); // 9 -> 9 + 90 + 9 = 108: out of range
    }

    @Test
    void anAtSignThatIsNoReferenceStaysLiteral() {
        LogEvent last = lastOfContext(2, "c");
        assertThat(render("${MSG}@x", last)).isEqualTo("m1@x");
        assertThat(render("${MSG}@@1", last)).isEqualTo("m1@1");
        assertThat(render("${MSG}@", last)).isEqualTo("m1@");
        assertThat(render("user@host", last)).isEqualTo("user@host");
        // the reference reads @N only after ${...} and $(...): after an unbraced name it is text
        assertThat(render("$MSG@1", last)).isEqualTo("m1@1");
    }

    @Test
    void contextIdMacroAndItsAlias() {
        LogEvent last = lastOfContext(2, "sess-alice");
        assertThat(render("$CONTEXT_ID ${CONTEXT_ID} $_ ${_} ${CONTEXT_ID}@1", last))
                .isEqualTo("sess-alice sess-alice sess-alice sess-alice sess-alice");
        assertThat(render("${CONTEXT_ID}@5", last)).isEmpty();
    }

    @Test
    void contextLengthAndFunctionsWithAReferenceSeeOneMessage() {
        LogEvent last = lastOfContext(3, "c");
        assertThat(render("$(context-length) $(context-length)@1 $(context-length)@0 [$(context-length)@3]", last))
                .isEqualTo("3 1 1 []");
        // the context of the referenced message is restored afterwards
        assertThat(last.context().size()).isEqualTo(3);
    }

    @Test
    void ifEvaluatesItsFilterOverTheContext() {
        LogEvent last = lastOfContext(3, "c");
        assertThat(render("$(if (\"$(context-length)\" == \"3\") three other)", last)).isEqualTo("three");
        assertThat(render("$(if (\"${MSG}@1\" eq \"m1\") \"yes ${MSG}@2\" 'no')", last)).isEqualTo("yes m0");
        assertThat(render("$(if (message(\"m2\") and not program(\"x\")) a b)", last)).isEqualTo("a");
        assertThat(render("$(if (\"${MSG}\" eq \"zzz\") a b)", event("alone", "1"))).isEqualTo("b");
    }

    @Test
    void grepFiltersEachMessageAloneOldestFirst() {
        LogEvent last = lastOfContext(5, "c");
        assertThat(render("$(grep (\"${PID}\" eq \"1\") ${MSG})", last)).isEqualTo("m0,m2,m4");
        assertThat(render("$(grep (\"${PID}\" eq \"1\") ${MSG} ${i})", last)).isEqualTo("m0,0,m2,2,m4,4");
        assertThat(render("$(grep -m 2 (\"${PID}\" eq \"1\") ${MSG})", last)).isEqualTo("m0,m2");
        assertThat(render("$(grep --max-count=1 (\"${PID}\" eq \"2\") ${MSG})", last)).isEqualTo("m1");
        // each message is its own one-message context inside grep
        assertThat(render("$(grep (\"$(context-length)\" == \"1\") ${i})", last)).isEqualTo("0,1,2,3,4");
        assertThat(last.context().size()).isEqualTo(5);
    }

    @Test
    void contextValuesAndLookupWriteListElements() {
        LogEvent last = lastOfContext(3, "c");
        assertThat(render("$(context-values ${MSG} ${PID})", last)).isEqualTo("m0,1,m1,2,m2,1");
        last.fields().set("i", "a, b");
        assertThat(render("$(context-values ${i})", last)).isEqualTo("0,1,\"a, b\"");
        assertThat(render("$(context-lookup (\"${PID}\" eq \"1\") ${i} ${nothing})", last))
                .isEqualTo("0,\"\",\"a, b\",\"\"");
        assertThat(render("$(context-values ${MSG})", event("say \"hi\"", "1"))).isEqualTo("'say \"hi\"'");
    }

    @Test
    void filterComparisonsSeeTheContextOfTheEvent() {
        LogEvent last = lastOfContext(2, "c");
        assertThat(FilterExpression.compile("\"$(context-length)\" ne \"1\"", Map.of()).newFilter().test(last))
                .isTrue();
        assertThat(FilterExpression.compile("\"${MSG}@1\" eq \"m0\"", Map.of()).newFilter().test(last)).isTrue();
        assertThat(FilterExpression.compile("\"$CONTEXT_ID\" eq \"c\"", Map.of()).newFilter().test(last)).isTrue();
        LogEvent alone = event("m", "1");
        assertThat(FilterExpression.compile("\"$(context-length)\" ne \"1\"", Map.of()).newFilter().test(alone))
                .isFalse();
    }

    @Test
    void parenthesisedArgumentsKeepTheirQuotes() {
        assertThat(TemplateFunctions.splitArguments("if (\"${x}\" eq \"a b\") \"then x\" else"))
                .containsExactly("if", "(\"${x}\" eq \"a b\")", "then x", "else");
        assertThat(TemplateFunctions.splitArguments("grep ((a) or (b(\")\"))) ${y}"))
                .containsExactly("grep", "((a) or (b(\")\")))", "${y}");
    }

    @Test
    void compileErrorsNameTheFunction() {
        assertThatThrownBy(() -> Template.compile("$(if (\"a\" eq \"b\") x)", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("$(if) takes three arguments");
        assertThatThrownBy(() -> Template.compile("$(if (nosuch(\"x\")) a b)", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("$(if) condition does not compile");
        assertThatThrownBy(() -> Template.compile("$(grep (\"a\" eq \"b\"))", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least two arguments");
        assertThatThrownBy(() -> Template.compile("$(grep -m x (\"a\" eq \"b\") $MSG)", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a number");
    }

    @Test
    void aTemplateWithoutReferencesStillAllocatesNothing() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Template t = Template.compile("${MSG} ${PID} ${i} $(context-length) $CONTEXT_ID", ZoneOffset.UTC);
        Template refs = Template.compile("${MSG}@1 ${i}@0 $(context-length)@1", ZoneOffset.UTC);
        LogEvent last = lastOfContext(3, "c");
        ByteBuilder out = new ByteBuilder(256);
        for (int i = 0; i < 20_000; i++) {
            out.reset();
            t.render(last, out);
            refs.render(last, out);
        }
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 10_000; i++) {
            out.reset();
            t.render(last, out);
            refs.render(last, out);
        }
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        assertThat(out.toString()).isEqualTo("m2 1 2 3 cm1 2 1");
        assertThat(allocated).isLessThan(10_000L);
    }
}
