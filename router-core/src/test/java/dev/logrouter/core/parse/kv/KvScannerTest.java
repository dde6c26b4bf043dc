package dev.logrouter.core.parse.kv;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link KvScanner} on the cases of syslog-ng's kv-scanner unit tests (lib/scanner/kv-scanner/tests), written here
 * as input → expected pairs.
 */
class KvScannerTest {

    private static List<String> scan(String input) {
        return scan(new KvScanner((byte) '=', ", ".getBytes(StandardCharsets.UTF_8), false), input);
    }

    private static List<String> scan(KvScanner s, String input) {
        byte[] b = input.getBytes(StandardCharsets.ISO_8859_1);
        // parse from the middle of a larger array, as the parser does with MSG inside the raw frame
        byte[] frame = new byte[b.length + 6];
        System.arraycopy("ab=cd ".getBytes(StandardCharsets.US_ASCII), 0, frame, 0, 6);
        System.arraycopy(b, 0, frame, 6, b.length);
        s.input(frame, 6, b.length);
        List<String> pairs = new ArrayList<>();
        while (s.next()) {
            pairs.add(new String(frame, s.keyStart(), s.keyLength(), StandardCharsets.ISO_8859_1) + "="
                    + new String(s.valueArray(), s.valueOffset(), s.valueLength(), StandardCharsets.ISO_8859_1));
        }
        return pairs;
    }

    private static KvScanner scanner(char valueSeparator, String pairSeparator, boolean stray) {
        return new KvScanner((byte) valueSeparator, pairSeparator.getBytes(StandardCharsets.UTF_8), stray);
    }

    @Test
    void incompleteInputHasNoPairs() {
        assertThat(scan("")).isEmpty();
        assertThat(scan("foo")).isEmpty();
    }

    @Test
    void nameEqualsValue() {
        assertThat(scan("foo=")).containsExactly("foo=");
        assertThat(scan("foo=bar")).containsExactly("foo=bar");
    }

    @Test
    void keyCharactersAreLettersDigitsDashUnderscoreDot() {
        assertThat(scan("FOOfoo123-_._-321oofOOF=value")).containsExactly("FOOfoo123-_._-321oofOOF=value");
        assertThat(scan("k-j=v")).containsExactly("k-j=v");
        assertThat(scan(":=v")).isEmpty();
        assertThat(scan("\u00e1=v")).isEmpty();
        assertThat(scan("*k=v")).containsExactly("k=v");
        assertThat(scan("x *k=v")).containsExactly("k=v");
    }

    @Test
    void strayWordsBeforeTheFirstPairAreIgnored() {
        assertThat(scan("lorem ipsum foo=bar")).containsExactly("foo=bar");
        assertThat(scan("lorem ipsum/dolor = foo=bar\"")).containsExactly("dolor=", "foo=bar\"");
    }

    @Test
    void wordsAfterAnUnquotedValueJoinItUnlessAKeyFollows() {
        assertThat(scan("foo=bar lorem ipsum key=value some more values"))
                .containsExactly("foo=bar lorem ipsum", "key=value some more values");
        assertThat(scan("key1 key2=value2 key3 key4=value4")).containsExactly("key2=value2 key3", "key4=value4");
        assertThat(scan("IN=em1 OUT= MAC=a2:be ID=9434 DF PROTO=TCP RES=0x00 SYN URGP=0"))
                .containsExactly("IN=em1", "OUT=", "MAC=a2:be", "ID=9434 DF", "PROTO=TCP", "RES=0x00 SYN", "URGP=0");
    }

    @Test
    void emptyValuesAndSpaces() {
        assertThat(scan("k= a=b c=d")).containsExactly("k=", "a=b", "c=d");
        assertThat(scan("k=v a=b c=")).containsExactly("k=v", "a=b", "c=");
        assertThat(scan("key1=value1    key2=value2     key3=value3 "))
                .containsExactly("key1=value1", "key2=value2", "key3=value3");
        assertThat(scan(" foo =bar ggg baz=ez")).containsExactly("foo=bar ggg", "baz=ez");
        assertThat(scan("foo =  bar ggg baz   =   ez")).containsExactly("foo=bar ggg", "baz=ez");
        assertThat(scan("k===  a")).containsExactly("k===  a");
    }

    @Test
    void commaSpaceIsTheDefaultPairSeparator() {
        assertThat(scan("key1=value1, key2=value2, key3=value3")).containsExactly("key1=value1", "key2=value2",
                "key3=value3");
        assertThat(scan("key1=value1,key2=value2")).containsExactly("key1=value1,key2=value2");
        assertThat(scan("key1=value1,   key2=value2  ,    key3=value3")).containsExactly("key1=value1",
                "key2=value2", "key3=value3");
        assertThat(scan(", k=v")).containsExactly("k=v");
        assertThat(scan("k=v,")).containsExactly("k=v,");
        assertThat(scan("k=v, ")).containsExactly("k=v");
    }

    @Test
    void tabIsNotASeparator() {
        assertThat(scan("key1=value1\tkey2=value2 key3=value3")).containsExactly("key1=value1\tkey2=value2",
                "key3=value3");
        assertThat(scan("key1=value1\t key2=value2")).containsExactly("key1=value1\t", "key2=value2");
    }

    @Test
    void quotedValuesAreUnescapedLikeCStrings() {
        assertThat(scan("foo=\"\\\"\" bar=baz")).containsExactly("foo=\"", "bar=baz");
        assertThat(scan("foo='\"' bar=baz")).containsExactly("foo=\"", "bar=baz");
        assertThat(scan("key1=\"\\b \\f \\n \\r \\t \\\\\"")).containsExactly("key1=\b \f \n \r \t \\");
        assertThat(scan("key1=\"\\p\"")).containsExactly("key1=\\p");
        assertThat(scan("key1='\\'value1'")).containsExactly("key1='value1");
        assertThat(scan("key1=\\b\\f\\n")).containsExactly("key1=\\b\\f\\n");
        assertThat(scan("foo=\"bar baz\"")).containsExactly("foo=bar baz");
        assertThat(scan("key1=\"value foo, foo2 =@,\\\"\" key2='value foo,  a='"))
                .containsExactly("key1=value foo, foo2 =@,\"", "key2=value foo,  a=");
        assertThat(scan("foo=\"bar\" baz c=d")).containsExactly("foo=bar", "c=d");
    }

    @Test
    void quotesInsideAnUnquotedValueAreLiteral() {
        assertThat(scan("foo=a \"bar baz\" ")).containsExactly("foo=a \"bar baz\"");
        assertThat(scan("foo=a \"bar baz c=d")).containsExactly("foo=a \"bar baz", "c=d");
        assertThat(scan("foo=a \"bar baz\"=f c=d a")).containsExactly("foo=a \"bar baz\"=f", "c=d a");
    }

    @Test
    void separatorInsideAValueIsLiteral() {
        assertThat(scan("k=a=b c=d")).containsExactly("k=a=b", "c=d");
        assertThat(scan("a==b=")).containsExactly("a==b=");
        assertThat(scan("a= =a")).containsExactly("a==a");
        assertThat(scan("k===a=b")).containsExactly("k===a=b");
    }

    @Test
    void emptyKeysAreNotPairs() {
        assertThat(scan("=v")).isEmpty();
        assertThat(scan("k*=v")).isEmpty();
        assertThat(scan(" = =")).isEmpty();
        assertThat(scan(" ==k=v")).containsExactly("k=v");
        assertThat(scan(" =k=v=w")).containsExactly("k=v=w");
    }

    @Test
    void unbalancedQuotesKeepTheRawRestAndRescanIt() {
        assertThat(scan("k=\"a")).containsExactly("k=\"a");
        assertThat(scan("k=\"\\")).containsExactly("k=\"\\");
        assertThat(scan("k='a")).containsExactly("k='a");
        assertThat(scan("foo='bar")).containsExactly("foo='bar");
        // the raw value runs to the end; scanning resumes at its start and finds the pair inside it again
        assertThat(scan("k=\"a b=c d")).containsExactly("k=\"a b=c d", "b=c d");
        // junk after the closing quote: the raw quoted part, and the rest is scanned again
        assertThat(scan("k=\"a\"b c=d")).containsExactly("k=\"a\"", "c=d");
    }

    @Test
    void otherValueSeparator() {
        assertThat(scan(scanner(':', ", ", false), "key1: \"value1\" key2 : value2 key3 :value3 "))
                .containsExactly("key1=value1", "key2=value2", "key3=value3");
        assertThat(scan(scanner('-', ", ", false), "k--v")).containsExactly("k=-v");
        assertThat(scan(scanner('-', ", ", false), "---")).containsExactly("-=-");
    }

    @Test
    void pairSeparatorOfOneSpaceTurnsTheSpaceHeuristicsOff() {
        assertThat(scan(scanner('=', " ", false), "foo=v1 v2 bar=v3 v4")).containsExactly("foo=v1", "bar=v3");
        assertThat(scan(scanner('=', "   ", false), "foo=v1 v2   bar=v3 v4  ")).containsExactly("foo=v1 v2",
                "bar=v3 v4");
    }

    @Test
    void pairSeparatorSplitsValues() {
        KvScanner s = scanner('=', ";", false);
        assertThat(scan(s, "foo=bar; bar=foo;")).containsExactly("foo=bar", "bar=foo");
        assertThat(scan(s, "foo=bar;bar=foo;baz=foo")).containsExactly("foo=bar", "bar=foo", "baz=foo");
        assertThat(scan(s, "foo=bar baz  ;bar=foo;")).containsExactly("foo=bar baz", "bar=foo");
    }

    @Test
    void strayWordsFormACommaSeparatedList() {
        KvScanner s = scanner('=', ", ", true);
        assertThat(scan(s, "foo=bar")).containsExactly("foo=bar");
        assertThat(s.strayWords().toString()).isEmpty();
        scan(s, "alma foo=bar");
        assertThat(s.strayWords().toString()).isEqualTo("alma");
        scan(s, "alma foo=bar, korte bar=foo, narancs");
        assertThat(s.strayWords().toString()).isEqualTo("alma,korte,narancs");
        assertThat(scan(s, "two words a=\"b\" it's, x=\"y\" \"q\" z=1")).containsExactly("a=b", "x=y", "z=1");
        assertThat(s.strayWords().toString()).isEqualTo("\"two words\",\"it's,\",'\"q\"'");
    }
}
