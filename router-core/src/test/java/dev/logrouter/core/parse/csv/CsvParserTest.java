package dev.logrouter.core.parse.csv;

import static dev.logrouter.core.parse.MessageParserFixture.context;
import static dev.logrouter.core.parse.MessageParserFixture.loadStep;
import static dev.logrouter.core.parse.MessageParserFixture.msg;
import static dev.logrouter.core.parse.MessageParserFixture.syslogEvent;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.metrics.MetricGroup;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CsvParserTest {

    private static final int FAILED = Tags.id(".parse.csv.failed");
    private static final List<String> ABC = List.of("a", "b", "c");
    /** A real RFC 3164 header; MSG is what follows. */
    private static final String HEADER = "<13>May  1 12:34:56 web01 access: ";

    private final MetricGroup metrics = new MetricGroup("Parser", "test.csv");

    private static CsvParserConfig cfg(List<String> columns, String delimiters, String dialect, List<String> flags,
                                       String nullValue) {
        return new CsvParserConfig(null, "", "${MSG}", columns, delimiters, List.of(), "\"\"''", dialect, flags,
                nullValue);
    }

    private LogEvent parse(CsvParserConfig cfg, String msg) {
        LogEvent e = syslogEvent(HEADER, msg);
        cfg.create(context("csv", metrics)).parse(e);
        return e;
    }

    private static String f(LogEvent e, String name) {
        return e.fields().get(name);
    }

    @Test
    void columnsAreNamedInOrder() {
        LogEvent e = parse(CsvParserConfig.of(ABC), "val1,val2,val3");
        assertThat(f(e, "a")).isEqualTo("val1");
        assertThat(f(e, "b")).isEqualTo("val2");
        assertThat(f(e, "c")).isEqualTo("val3");
        assertThat(e.hasTag(FAILED)).isFalse();
        assertThat(metrics.value("parsed")).isEqualTo(1);
    }

    @Test
    void prefixIsPrepended() {
        CsvParserConfig c = new CsvParserConfig(null, ".csv.", "${MSG}", ABC, ",", List.of(), "\"\"''",
                "escape-none", List.of(), null);
        LogEvent e = parse(c, "1,2,3");
        assertThat(f(e, ".csv.a")).isEqualTo("1");
        assertThat(f(e, ".csv.c")).isEqualTo("3");
        assertThat(f(e, "a")).isNull();
    }

    @Test
    void quotesStripWhitespaceAndEmptyColumns() {
        LogEvent e = parse(CsvParserConfig.of(List.of("a", "b", "c", "d", "e")), " x ,\"y, z\",  'it''s' ,'it''s',");
        assertThat(f(e, "a")).isEqualTo("x");
        assertThat(f(e, "b")).isEqualTo("y, z");
        assertThat(f(e, "c")).as("a quote after blanks opens nothing (syslog-ng looks for it first)")
                .isEqualTo("'it''s'");
        assertThat(f(e, "d")).as("escape-none: the second quote closes, the rest is literal").isEqualTo("it's'");
        assertThat(f(e, "e")).as("a trailing delimiter leaves the last column missing").isNull();
        LogEvent quotedBlanks = parse(CsvParserConfig.of(ABC), "\" in \",\"\",x");
        assertThat(f(quotedBlanks, "a")).as("strip-whitespace strips inside quotes too").isEqualTo("in");
        assertThat(f(quotedBlanks, "b")).isEmpty();
        LogEvent kept = parse(cfg(ABC, ",", "escape-none", List.of(), null), " x ,\" y \", z");
        assertThat(f(kept, "a")).isEqualTo(" x ");
        assertThat(f(kept, "b")).isEqualTo(" y ");
        assertThat(f(kept, "c")).isEqualTo(" z");
    }

    @Test
    void afterAClosingQuoteTextUpToTheDelimiterIsKept() {
        LogEvent e = parse(CsvParserConfig.of(ABC), "\"ab\"cd,'x'\"y\",z");
        assertThat(f(e, "a")).isEqualTo("abcd");
        assertThat(f(e, "b")).isEqualTo("x\"y\"");
        assertThat(f(e, "c")).isEqualTo("z");
    }

    @Test
    void dialects() {
        String line = "\"a\\\"b\",\"c\"\"d\",\"\\t\\x41\\q\"";
        LogEvent none = parse(cfg(ABC, ",", "escape-none", List.of(), null), line);
        assertThat(f(none, "a")).isEqualTo("a\\b\"");
        LogEvent backslash = parse(cfg(ABC, ",", "escape-backslash", List.of(), null), line);
        assertThat(f(backslash, "a")).isEqualTo("a\"b");
        assertThat(f(backslash, "b")).isEqualTo("c\"d\"");
        assertThat(f(backslash, "c")).isEqualTo("tx41q");
        LogEvent doubled = parse(cfg(ABC, ",", "escape-double-char", List.of(), null), line);
        assertThat(f(doubled, "b")).isEqualTo("c\"d");
        LogEvent sequences = parse(cfg(ABC, ",", "escape-backslash-with-sequences", List.of(), null), line);
        assertThat(f(sequences, "a")).isEqualTo("a\"b");
        assertThat(f(sequences, "c")).isEqualTo("\tAq");
        LogEvent viaFlag = parse(cfg(ABC, ",", "escape-none", List.of("escape-double-char"), null), line);
        assertThat(f(viaFlag, "b")).isEqualTo("c\"d");
    }

    @Test
    void severalDelimitersStringDelimitersAndNullValue() {
        LogEvent e = parse(cfg(List.of("a", "b", "c", "d"), ";|", "escape-none", List.of("strip-whitespace"), "-"),
                "1;2|-;4");
        assertThat(f(e, "a")).isEqualTo("1");
        assertThat(f(e, "b")).isEqualTo("2");
        assertThat(f(e, "c")).isEmpty();
        assertThat(f(e, "d")).isEqualTo("4");
        CsvParserConfig s = new CsvParserConfig(null, "", "${MSG}", ABC, "", List.of("::", "=>"), "\"\"''",
                "escape-none", List.of(), null);
        LogEvent se = parse(s, "x::y=>z:w");
        assertThat(f(se, "a")).isEqualTo("x");
        assertThat(f(se, "b")).isEqualTo("y");
        assertThat(f(se, "c")).isEqualTo("z:w");
    }

    @Test
    void greedyLastColumnTakesTheRestVerbatim() {
        CsvParserConfig c = cfg(List.of("ip", "rest"), ",", "escape-none", List.of("greedy", "strip-whitespace"),
                null);
        LogEvent e = parse(c, "10.0.0.1,  GET \"/a,b\" 200, 512  ");
        assertThat(f(e, "ip")).isEqualTo("10.0.0.1");
        assertThat(f(e, "rest")).isEqualTo("GET \"/a,b\" 200, 512");
        LogEvent shortLine = parse(cfg(ABC, ",", "escape-none", List.of("greedy", "drop-invalid"), null), "1,2");
        assertThat(shortLine.hasTag(FAILED)).as("the greedy column may be empty").isFalse();
        assertThat(f(shortLine, "c")).isEmpty();
    }

    @Test
    void moreColumnsThanNamesKeepsTheNamedOnesAsSyslogNgDoes() {
        String line = "1,2,3,4,5";
        LogEvent e = parse(CsvParserConfig.of(ABC), line);
        assertThat(e.hasTag(FAILED)).isFalse();
        assertThat(f(e, "a")).isEqualTo("1");
        assertThat(f(e, "c")).isEqualTo("3");
        assertThat(e.fields().size()).isEqualTo(3);
        assertThat(metrics.value("parsed")).isEqualTo(1);
        assertThat(metrics.value("failed")).isZero();
        assertThat(msg(e)).isEqualTo(line);
    }

    @Test
    void moreColumnsThanNamesWithDropInvalidFailsAndDiscards() {
        String line = "1,2,3,4,5";
        LogEvent e = parse(cfg(ABC, ",", "escape-none", List.of("drop-invalid"), null), line);
        assertThat(e.hasTag(FAILED)).isTrue();
        assertThat(e.hasFlag(LogEvent.FLAG_DISCARD)).isTrue();
        assertThat(e.fields().size()).as("rolled back").isZero();
        assertThat(msg(e)).isEqualTo(line);
        assertThat(metrics.value("failed")).isEqualTo(1);
        assertThat(metrics.value("parsed")).isZero();
    }

    @Test
    void fewerColumnsThanNames() {
        LogEvent lenient = parse(CsvParserConfig.of(ABC), "1,2");
        assertThat(lenient.hasTag(FAILED)).isFalse();
        assertThat(f(lenient, "b")).isEqualTo("2");
        assertThat(f(lenient, "c")).isNull();
        LogEvent strict = parse(cfg(ABC, ",", "escape-none", List.of("drop-invalid"), null), "1,2");
        assertThat(strict.hasTag(FAILED)).isTrue();
        assertThat(strict.fields().size()).isZero();
        LogEvent trailing = parse(cfg(ABC, ",", "escape-none", List.of("drop-invalid"), null), "1,2,3,");
        assertThat(trailing.hasTag(FAILED)).as("a trailing delimiter after the last column is complete").isFalse();
        assertThat(metrics.value("failed")).isEqualTo(1);
    }

    @Test
    void unbalancedQuoteTakesTheRestOfTheInput() {
        LogEvent e = parse(CsvParserConfig.of(ABC), "1,\"2,3");
        assertThat(f(e, "b")).isEqualTo("2,3");
        assertThat(f(e, "c")).isNull();
    }

    @Test
    void utf8BytesPassThrough() {
        LogEvent e = parse(CsvParserConfig.of(ABC), "caf\u00e9,\u65e5\u672c,\"\ud83d\ude00\"");
        assertThat(f(e, "a")).isEqualTo("caf\u00e9");
        assertThat(f(e, "b")).isEqualTo("\u65e5\u672c");
        assertThat(f(e, "c")).isEqualTo("\ud83d\ude00");
    }

    @Test
    void optionsAreCheckedAndDefaultedFromYaml() throws Exception {
        assertThatThrownBy(() -> cfg(List.of(), ",", "escape-none", List.of(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("columns");
        assertThatThrownBy(() -> cfg(ABC, ",", "escape-all", List.of(), null))
                .hasMessageContaining("dialect").hasMessageContaining("escape-double-char");
        assertThatThrownBy(() -> cfg(ABC, ",", "escape-none", List.of("lazy"), null)).hasMessageContaining("lazy");
        assertThatThrownBy(() -> cfg(ABC, "\u00a7", "escape-none", List.of(), null))
                .hasMessageContaining("string-delimiters");
        assertThatThrownBy(() -> new CsvParserConfig(null, "", "${MSG}", ABC, ",", List.of(), "\"", "escape-none",
                List.of(), null)).hasMessageContaining("quote-pairs");
        assertThat(loadStep("type: csv", "columns: [a, b, c]")).isEqualTo(CsvParserConfig.of(ABC));
        assertThatThrownBy(() -> loadStep("type: csv")).hasMessageContaining("columns");
    }
}
