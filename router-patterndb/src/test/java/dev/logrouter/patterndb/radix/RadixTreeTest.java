package dev.logrouter.patterndb.radix;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Construction and lookup semantics of spec 6 (literal before parser, parser order, partial matches, ...). */
class RadixTreeTest {

    private final List<String> warnings = new ArrayList<>();
    private final RadixScratch scratch = new RadixScratch();

    /** Builds a tree where each pattern's value is its own text, in the order given. */
    private RadixTree<String> tree(String... patterns) {
        RadixBuilder<String> b = new RadixBuilder<>();
        for (String p : patterns) {
            b.insert(p, p, warnings::add);
        }
        return b.build();
    }

    private String match(RadixTree<String> t, String message) {
        byte[] m = message.getBytes(StandardCharsets.UTF_8);
        return t.lookup(m, 0, m.length, scratch);
    }

    private Map<String, String> captures(RadixTree<String> t, String message) {
        byte[] m = message.getBytes(StandardCharsets.UTF_8);
        Map<String, String> out = new LinkedHashMap<>();
        if (t.lookup(m, 0, m.length, scratch) == null) {
            return out;
        }
        for (int i = 0; i < scratch.captureCount(); i++) {
            out.put(t.captureName(scratch.captureName(i)),
                    new String(m, scratch.captureOffset(i), scratch.captureLength(i), StandardCharsets.UTF_8));
        }
        return out;
    }

    @Test
    void literalBeforeParser() {
        RadixTree<String> t = tree("user @STRING:u@ in", "user root in");
        assertThat(match(t, "user root in")).isEqualTo("user root in");
        assertThat(match(t, "user rootx in")).isEqualTo("user @STRING:u@ in");
        assertThat(captures(t, "user rootx in")).containsExactly(Map.entry("u", "rootx"));
    }

    @Test
    void literalPathFailingDeeperFallsBackToParser() {
        RadixTree<String> t = tree("a root b", "a @STRING:s@ c");
        assertThat(match(t, "a root c")).isEqualTo("a @STRING:s@ c");
    }

    @Test
    void parserChildrenInInsertionOrder() {
        assertThat(match(tree("v @STRING:s@", "v @NUMBER:n@"), "v 12")).isEqualTo("v @STRING:s@");
        assertThat(match(tree("v @NUMBER:n@", "v @STRING:s@"), "v 12")).isEqualTo("v @NUMBER:n@");
    }

    @Test
    void noBacktrackingInsideAParser() {
        assertThat(match(tree("@STRING:v@ing"), "testing")).isNull();
        assertThat(match(tree("@NUMBER:a@5"), "1235")).isNull();
        assertThat(match(tree("@STRING:a@@STRING:b@"), "ab")).isNull();
    }

    @Test
    void partialMatchWhenNothingMatchesCompletely() {
        RadixTree<String> t = tree("a b");
        assertThat(match(t, "a b c")).isEqualTo("a b");
        assertThat(match(t, "a bc")).isEqualTo("a b");
        assertThat(match(t, "a")).isNull();
    }

    @Test
    void completeMatchBeatsPartialMatch() {
        RadixTree<String> t = tree("a @NUMBER:n@", "a @STRING:s@");
        assertThat(match(t, "a 12x")).isEqualTo("a @STRING:s@");
        assertThat(match(t, "a 12")).isEqualTo("a @NUMBER:n@");
    }

    @Test
    void deepestPartialOnFirstPathWins() {
        RadixTree<String> t = tree("m a", "m a b", "m a b c");
        assertThat(match(t, "m a b x")).isEqualTo("m a b");
    }

    @Test
    void emptyRemainderMatchesOnlyTheNodeItself() {
        assertThat(match(tree("foo @ANYSTRING:x@"), "foo ")).isNull();
        assertThat(match(tree("foo @ANYSTRING:x@"), "foo")).isNull();
        assertThat(match(tree("s @OPTIONALSET:x: @"), "s ")).isNull();
        assertThat(match(tree("mid @ANYSTRING:v@ end"), "mid x end")).isNull();
    }

    @Test
    void estringAtTheEndNeedsItsDelimiter() {
        RadixTree<String> t = tree("end @ESTRING:v: @");
        assertThat(match(t, "end word")).isNull();
        assertThat(match(t, "end word ")).isEqualTo("end @ESTRING:v: @");
    }

    @Test
    void capturesOfAbandonedBranchesAreDiscarded() {
        RadixTree<String> t = tree("x @STRING:a@ y", "x @ESTRING:b: @z");
        assertThat(captures(t, "x abc z")).containsExactly(Map.entry("b", "abc"));
    }

    @Test
    void laterCaptureOfTheSameNameIsLast() {
        RadixTree<String> t = tree("@STRING:v@ @STRING:v@");
        assertThat(captures(t, "a b")).containsEntry("v", "b");
        assertThat(scratch.captureCount()).isEqualTo(2);
    }

    @Test
    void identicalParsersShareANode() {
        RadixTree<String> t = tree("p @ESTRING:foo: @", "p @ESTRING:foo: @tail");
        assertThat(t.dump(v -> "V")).isEqualTo("'' \n 'p ' \n  @ESTRING:foo@ '' V\n   'tail' V\n");
        RadixTree<String> u = tree("p @ESTRING:foo1: @", "p @ESTRING:foo2: @tail");
        assertThat(match(u, "p x tail")).isEqualTo("p @ESTRING:foo2: @tail");
        assertThat(match(u, "p x ")).isEqualTo("p @ESTRING:foo1: @");
    }

    @Test
    void crLfInMessageMatchesLfInPattern() {
        RadixTree<String> t = tree("a\nb", "x @NLSTRING:l@\n@ANYSTRING:r@");
        assertThat(match(t, "a\r\nb")).isEqualTo("a\nb");
        assertThat(captures(t, "x line\r\nrest")).containsExactly(Map.entry("l", "line"), Map.entry("r", "rest"));
    }

    @Test
    void escapedAt() {
        RadixTree<String> t = tree("user@@host @STRING:h@", "@@@STRING:x@");
        assertThat(match(t, "user@host abc")).isEqualTo("user@@host @STRING:h@");
        assertThat(match(t, "@abc")).isEqualTo("@@@STRING:x@");
    }

    @Test
    void perPatternErrorsSkipThePatternAndTheFirstDuplicateWins() {
        RadixBuilder<String> b = new RadixBuilder<>();
        assertThat(b.insert("a @FOO:x@", "bad", warnings::add)).isFalse();
        assertThat(b.insert("a @ESTRING:x@", "bad2", warnings::add)).isFalse();
        assertThat(b.insert("user@host", "bad3", warnings::add)).isFalse();
        assertThat(b.insert("a @PCRE:x:(@", "bad4", warnings::add)).isFalse();
        assertThat(b.insert("k v", "first", warnings::add)).isTrue();
        assertThat(b.insert("k v", "second", warnings::add)).isFalse();
        assertThat(b.insert("k @STRING:s@", "p1", warnings::add)).isTrue();
        assertThat(b.insert("k @STRING:s@", "p2", warnings::add)).isFalse();
        RadixTree<String> t = b.build();
        assertThat(warnings).hasSize(6);
        assertThat(warnings.get(0)).startsWith("Unknown parser type specified");
        assertThat(warnings.get(1)).startsWith("Missing ESTRING parser parameters");
        assertThat(warnings.get(2)).startsWith("Key contains '@' without escaping");
        assertThat(warnings.get(3)).startsWith("Error while compiling regular expression");
        assertThat(warnings.get(4)).startsWith("Duplicate key in radix tree");
        assertThat(warnings.get(5)).startsWith("Duplicate parser node in radix tree");
        assertThat(match(t, "k v")).isEqualTo("first");
        assertThat(match(t, "k w")).isEqualTo("p1");
        assertThat(match(t, "a x")).isNull();
        assertThat(t.size()).isEqualTo(2);
    }

    @Test
    void emptyPatternIsAnUnreachableChildOfTheRoot() {
        RadixTree<String> t = tree("", "abc");
        assertThat(match(t, "")).isNull();
        assertThat(match(t, "abd")).isNull();
        assertThat(match(t, "abc")).isEqualTo("abc");
        assertThat(t.dump(v -> "<" + v + ">")).isEqualTo("'' \n '' <>\n 'abc' <abc>\n");
    }

    @Test
    void rootValueMatchesWhenNothingDeeperDoes() {
        RadixBuilder<String> b = new RadixBuilder<>();
        b.insert("sshd", "sshd", warnings::add);
        assertThat(b.setRootValue("default")).isTrue();
        assertThat(b.setRootValue("again")).isFalse();
        RadixTree<String> t = b.build();
        assertThat(match(t, "")).isEqualTo("default");
        assertThat(match(t, "ssh")).isEqualTo("default");
        assertThat(match(t, "sshd2")).isEqualTo("sshd");
    }

    @Test
    void lookupAtAnOffset() {
        RadixTree<String> t = tree("k @NUMBER:n@");
        byte[] buf = "xxxk 42yyy".getBytes(StandardCharsets.US_ASCII);
        assertThat(t.lookup(buf, 3, 4, scratch)).isEqualTo("k @NUMBER:n@");
        assertThat(scratch.captureOffset(0)).isEqualTo(5);
        assertThat(scratch.captureLength(0)).isEqualTo(2);
    }

    @Test
    void pcreNodesUseTheThreadsMatcher() {
        RadixTree<String> t = tree("id @PCRE:id:[a-f0-9]{4}@ end", "id @PCRE:other:[a-z]+@ x");
        assertThat(captures(t, "id 0a1f end")).containsExactly(Map.entry("id", "0a1f"));
        assertThat(captures(t, "id abcz x")).containsExactly(Map.entry("other", "abcz"));
    }
}
