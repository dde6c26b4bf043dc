package dev.logrouter.core.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.logrouter.core.event.LogEvent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code in-list()} over real list files, on events parsed from real syslog lines. */
class InListFilterTest {

    @TempDir
    Path dir;

    private Path list(String content) throws IOException {
        Path f = dir.resolve("list-" + content.hashCode() + ".txt");
        Files.write(f, content.getBytes(StandardCharsets.UTF_8));
        return f;
    }

    private static boolean test(String filter, String line) {
        return FilterExpressionTest.test(filter, line);
    }

    @Test
    void theValueIsExactlyOneOfTheLines() throws IOException {
        Path hosts = list("web1\ndb2\n\n\nmx1");
        String f = "in-list(\"" + hosts + "\", value(\"HOST\"))";
        assertThat(test(f, FilterExpressionTest.SSHD)).isTrue(); // web1
        assertThat(test(f, FilterExpressionTest.POSTGRES)).isTrue(); // db2
        assertThat(test(f, FilterExpressionTest.POSTFIX)).isTrue(); // mx1, the last line, without a line end
        assertThat(test(f, FilterExpressionTest.KERNEL)).isFalse(); // fw1
        // exact: no prefix, no substring, case counts
        Path partial = list("web\nWEB1\nweb10\n");
        assertThat(test("in-list(\"" + partial + "\" value(\"HOST\"))", FilterExpressionTest.SSHD)).isFalse();
    }

    @Test
    void anyValueAndSyslogNgsShortForm() throws IOException {
        Path programs = list("sshd\npostgres\n");
        assertThat(test("in-list(\"" + programs + "\" \"PROGRAM\")", FilterExpressionTest.SSHD)).isTrue();
        assertThat(test("in-list(\"" + programs + "\" \"$PROGRAM\")", FilterExpressionTest.POSTGRES)).isTrue();
        assertThat(test("in-list(\"" + programs + "\" value(\"PROGRAM\"))", FilterExpressionTest.KERNEL)).isFalse();
        Path ids = list("ID47\n");
        assertThat(test("in-list(\"" + ids + "\", value(\"MSGID\"))", FilterExpressionTest.IETF)).isTrue();
        Path sd = list("Application\n");
        assertThat(test("in-list('" + sd + "', value(\".SDATA.exampleSDID@32473.eventSource\"))",
                FilterExpressionTest.IETF)).isTrue();
        Path facilities = list("auth\n");
        assertThat(test("in-list(\"" + facilities + "\", value(\"FACILITY\"))", FilterExpressionTest.SSHD)).isTrue();
        assertThat(test("not in-list(\"" + facilities + "\", value(\"FACILITY\"))", FilterExpressionTest.KERNEL))
                .isTrue();
    }

    @Test
    void lineEndsAreCutButOtherWhitespaceCountsAsInSyslogNg() throws IOException {
        Path crlf = list("db2\r\nweb1 \r\n\r\n");
        String f = "in-list(\"" + crlf + "\", value(\"HOST\"))";
        assertThat(test(f, FilterExpressionTest.POSTGRES)).isTrue();
        assertThat(test(f, FilterExpressionTest.SSHD)).as("'web1 ' is not 'web1'").isFalse();
    }

    @Test
    void anUnsetValueNeverMatchesAndAnEmptyFileMatchesNothing() throws IOException {
        Path any = list("\n\nweb1\n");
        assertThat(test("in-list(\"" + any + "\", value(\".json.nope\"))", FilterExpressionTest.SSHD)).isFalse();
        Path empty = list("");
        assertThat(test("in-list(\"" + empty + "\", value(\"HOST\"))", FilterExpressionTest.SSHD)).isFalse();
    }

    @Test
    void theFileIsReadOnceAtCompileTime() throws IOException {
        Path hosts = list("web1\n");
        FilterExpression x = FilterExpression.compile("in-list(\"" + hosts + "\", value(\"HOST\"))", Map.of());
        Files.writeString(hosts, "db2\n");
        Filter f = x.newFilter();
        LogEvent e = FilterExpressionTest.event(FilterExpressionTest.SSHD);
        assertThat(f.test(e)).isTrue();
        assertThat(x.describe()).isEqualTo("in-list(\"" + hosts + "\" value(\"HOST\"))");
    }

    @Test
    void errorsNameTheFileAndTheColumn() throws IOException {
        Path missing = dir.resolve("nope.list");
        fails("in-list(\"" + missing + "\", value(\"HOST\"))", "column 10:",
                "cannot read the list file '" + missing + "' (no such file)");
        fails("in-list(\"" + dir + "\", value(\"HOST\"))", "column 10:", "cannot read the list file");
        Path hosts = list("web1\n");
        fails("in-list(\"" + hosts + "\")", "in-list() needs the value to look up after the file",
                "value(\"HOST\")");
        fails("in-list(\"\", value(\"HOST\"))", "column 9:", "in-list() needs the path of a file");
        fails("in-list(\"" + hosts + "\", value(\"${A}${B}\"))", "bad in-list() value", "not a template");
        fails("in-list(\"" + hosts + "\", value(\"HOST\") value(\"PROGRAM\"))", "expected ')' to close in-list(");
    }

    private static void fails(String text, String... fragments) {
        var thrown = assertThatThrownBy(() -> FilterExpression.compile(text, Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
        for (String f : fragments) {
            thrown.hasMessageContaining(f);
        }
    }

    @Test
    void keySetAgreesWithAHashSet() {
        Random r = new Random(42);
        List<byte[]> keys = new ArrayList<>();
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 5000; i++) {
            String k = "host-" + r.nextInt(4000);
            keys.add(k.getBytes(StandardCharsets.UTF_8));
            expected.add(k);
        }
        keys.add(new byte[0]);
        expected.add("");
        ByteKeySet set = new ByteKeySet(keys);
        assertThat(set.size()).isEqualTo(expected.size());
        for (int i = 0; i < 6000; i++) {
            String probe = "host-" + i;
            byte[] b = ("[" + probe + "]").getBytes(StandardCharsets.UTF_8);
            assertThat(set.contains(b, 1, b.length - 2)).as(probe).isEqualTo(expected.contains(probe));
        }
        assertThat(new ByteKeySet(List.of()).contains(new byte[0], 0, 0)).isFalse();
    }

    @Test
    void linesOfAFile() {
        assertThat(InListFilter.lines("a\n\nb\r\nc\r".getBytes(StandardCharsets.US_ASCII)))
                .extracting(b -> new String(b, StandardCharsets.US_ASCII)).containsExactly("a", "b", "c");
    }
}
