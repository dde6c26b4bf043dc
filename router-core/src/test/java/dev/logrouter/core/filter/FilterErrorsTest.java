package dev.logrouter.core.filter;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Bad filter expressions fail at compile time with the column of the problem and a hint; named filters that
 * refer to each other in a cycle are rejected.
 */
class FilterErrorsTest {

    private static void fails(String text, String... fragments) {
        fails(text, Map.of(), fragments);
    }

    private static void fails(String text, Map<String, String> named, String... fragments) {
        var thrown = assertThatThrownBy(() -> FilterExpression.compile(text, named))
                .isInstanceOf(IllegalArgumentException.class);
        for (String f : fragments) {
            thrown.hasMessageContaining(f);
        }
    }

    @Test
    void syntaxErrorsNameTheColumn() {
        fails("program(\"sshd\" and level(err)", "column 16:", "unexpected 'and' in program()");
        fails("program(\"sshd\") level(err)", "column 17:", "join conditions with 'and' or 'or'");
        fails("program(\"sshd\") and", "column 20:", "expression ends where a condition is expected");
        fails("(program(\"sshd\")", "column 17:", "expected ')' to close the '(' at column 1");
        fails("program(\"sshd\"))", "column 16:", "unbalanced ')'");
        fails("progam(\"sshd\")", "column 1:", "unknown filter function 'progam'", "program()");
        fails("sshd", "column 1:", "unexpected word 'sshd'");
        fails("and program(x)", "column 1:", "'and' needs a condition before it");
        fails("", "column 1:", "empty filter expression");
        fails("message(\"abc)", "column 9:", "unterminated string");
        fails("message('abc)", "column 9:", "unterminated string");
        fails("program(x) | level(err)", "column 12:", "unexpected character '|'");
        fails("()", "column 2:", "empty parentheses");
    }

    @Test
    void badArgumentsNameTheColumn() {
        fails("level(info..emergency2)", "column 13:", "unknown severity 'emergency2'", "emerg, alert");
        fails("level()", "column 6:", "level() needs at least one severity");
        fails("facility(mial)", "column 10:", "unknown facility 'mial'", "local0..local7");
        fails("facility(24)", "column 10:", "unknown facility '24'");
        fails("level(8)", "column 7:", "unknown severity '8'");
        fails("program(\"x\" type(regex))", "column 18:", "unknown matcher type 'regex'");
        fails("program(\"x\" flags(ignorecase))", "column 19:", "unknown flag 'ignorecase'");
        fails("program(\"x\" flags(store-matches))", "column 19:", "flags(store-matches) is not supported");
        fails("program(\"x\" value(\"HOST\"))", "column 13:", "program() has no value() option");
        fails("match(\"x\" colour(red))", "column 11:", "unknown option 'colour' of match()");
        fails("tags()", "column 5:", "tags() needs at least one tag name");
        fails("exists(\"a\" \"b\")", "column 12:", "expected ')' to close exists(");
    }

    @Test
    void badRegexNamesTheColumnInsideThePattern() {
        // column 9 is the first character inside the quotes; the unclosed group is reported at its end
        fails("message(\"a(b\")", "column 1", "invalid regular expression \"a(b\"", "Unclosed group");
        fails("message(\"ab[\")", "column 12:", "invalid regular expression");
    }

    @Test
    void badComparisonsNameTheColumn() {
        fails("\"${PID}\" = \"10\"", "column 10:", "expected a comparison operator", "== != <");
        fails("\"${PID}\" == level(err)", "column 13:", "expected a quoted template or a number after '=='");
        fails("\"${PID\" == \"10\"", "column 1:", "bad template", "unterminated '${'");
    }

    @Test
    void unknownNamedFilterListsTheKnownOnes() {
        fails("filter(f_nope)", Map.of("f_a", "program(a)", "f_b", "program(b)"),
                "column 8:", "no filter named 'f_nope'", "[f_a, f_b]");
    }

    @Test
    void errorInsideANamedFilterSaysWhere() {
        fails("filter(f_a)", Map.of("f_a", "program(a) or levl(err)"),
                "column 8: in filters.f_a: column 15:", "unknown filter function 'levl'");
    }

    @Test
    void namedFilterCyclesAreRejected() {
        fails("filter(f_self)", Map.of("f_self", "program(a) or filter(f_self)"),
                "filter 'f_self' refers to itself: f_self -> f_self", "break the cycle");
        Map<String, String> loop = Map.of(
                "f_a", "program(a) and filter(f_b)",
                "f_b", "level(err) or filter(f_c)",
                "f_c", "not filter(f_a)");
        fails("filter(f_a)", loop, "refers to itself: f_a -> f_b -> f_c -> f_a");
        fails("host(x) or filter(f_c)", loop, "refers to itself: f_c -> f_a -> f_b -> f_c");
    }

    @Test
    void aNamedFilterUsedTwiceIsNotACycle() {
        Map<String, String> named = Map.of("f_a", "program(a)", "f_b", "filter(f_a) and filter(f_a)");
        FilterExpression.compile("filter(f_b) or filter(f_a)", named);
    }
}
