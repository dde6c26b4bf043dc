package dev.logrouter.core.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The table's field limits ({@code pipeline.max-fields}, {@code pipeline.max-field-length}) through every way a
 * value is written: exactly at a limit is kept, one over is dropped or cut (at a UTF-8 character boundary), each hit
 * is counted once, and transactions, clear and copies treat the counts right.
 */
class FieldTableLimitsTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static FieldTable limited(int maxFields, int maxValueLength) {
        FieldTable t = new FieldTable();
        t.setLimits(maxFields, maxValueLength);
        return t;
    }

    // ------------------------------------------------------------------ max-fields

    @Test
    void exactlyMaxFieldsAreKeptAndTheNextNewNameIsDroppedAndCounted() {
        FieldTable t = limited(3, 100);
        t.set("a", "1");
        t.set("b", "2");
        t.set("c", "3");
        assertThat(t.size()).isEqualTo(3);
        assertThat(t.fieldsDropped()).isZero();

        byte[] v = b("4");
        assertThat(t.set(b("d"), 0, 1, v, 0, 1, 0)).isEqualTo(-1);
        assertThat(t.set(b(".p."), 0, 3, b("e"), 0, 1, v, 0, 1, 0)).isEqualTo(-1);
        assertThat(t.set(FieldName.of("f"), v, 0, 1, 0)).isEqualTo(-1);
        assertThat(t.size()).isEqualTo(3);
        assertThat(t.get("d")).isNull();
        assertThat(t.get(".p.e")).isNull();
        assertThat(t.get("f")).isNull();
        assertThat(t.fieldsDropped()).isEqualTo(3);
        assertThat(t.valuesTruncated()).isZero();
    }

    @Test
    void aFullTableStillReplacesTheValuesOfNamesItHolds() {
        FieldTable t = limited(2, 100);
        t.set("a", "1");
        t.set("b", "2");
        t.set("a", "replaced");
        int i = t.begin(b("b"), 0, 1, 0);
        t.appendToValue(i, b("composed"), 0, 8);
        assertThat(t.get("a")).isEqualTo("replaced");
        assertThat(t.get("b")).isEqualTo("composed");
        assertThat(t.fieldsDropped()).isZero();
    }

    @Test
    void aDroppedComposedValueWritesNothingThroughAnyAppend() {
        FieldTable t = limited(1, 100);
        t.set("kept", "value");
        int i = t.begin(b("dropped"), 0, 7, 0);
        assertThat(i).isEqualTo(-1);
        t.appendToValue(i, b("bytes"), 0, 5);
        t.appendToValue(i, (byte) 'x');
        t.appendUtf8ToValue(i, "chars".toCharArray(), 0, 5);
        t.appendUtf8ToValue(i, "text", 0, 4);
        t.appendUtf8ToValue(i, 'é');
        assertThat(t.size()).isEqualTo(1);
        assertThat(t.fieldsDropped()).isEqualTo(1);
        assertThat(t.valuesTruncated()).isZero();
        // what follows is written where it belongs
        t.set("kept", "after");
        assertThat(t.get("kept")).isEqualTo("after");
        assertThat(t.get("dropped")).isNull();
    }

    // ------------------------------------------------------------------ max-field-length

    @Test
    void aValueOfExactlyTheLimitIsKeptAndOneByteMoreIsCut() {
        FieldTable t = limited(10, 5);
        t.set("at", "12345");
        assertThat(t.get("at")).isEqualTo("12345");
        assertThat(t.valuesTruncated()).isZero();
        t.set("over", "123456");
        assertThat(t.get("over")).isEqualTo("12345");
        assertThat(t.valuesTruncated()).isEqualTo(1);
        assertThat(t.fieldsDropped()).isZero();
    }

    @Test
    void aCutNeverEndsInsideAUtf8Character() {
        FieldTable t = limited(10, 5);
        t.set("two", "abcdé"); // 6 bytes: é would straddle the limit
        t.set("three", "abc€"); // 6 bytes
        t.set("four", "ab😀"); // 6 bytes
        t.set("fits", "ab€"); // exactly 5 bytes
        assertThat(t.get("two")).isEqualTo("abcd");
        assertThat(t.get("three")).isEqualTo("abc");
        assertThat(t.get("four")).isEqualTo("ab");
        assertThat(t.get("fits")).isEqualTo("ab€");
        assertThat(t.valuesTruncated()).isEqualTo(3);
    }

    @Test
    void bytesThatAreNotUtf8AreCutAtTheLimit() {
        FieldTable t = limited(10, 4);
        byte[] v = {'a', (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80};
        t.set(b("k"), 0, 1, v, 0, v.length, 0);
        assertThat(t.valueLength(t.indexOf(b("k")))).isEqualTo(4);
    }

    @Test
    void aComposedValueIsCutOnceAndLaterAppendsAreDropped() {
        FieldTable t = limited(10, 5);
        int i = t.begin(b("k"), 0, 1, 0);
        t.appendToValue(i, b("abcd"), 0, 4);
        t.appendUtf8ToValue(i, 'é'); // 2 bytes, 1 left: cut before it
        t.appendToValue(i, (byte) 'x'); // would fit the byte left, but the value was cut
        t.appendToValue(i, b("yz"), 0, 2);
        assertThat(t.get("k")).isEqualTo("abcd");
        assertThat(t.valuesTruncated()).isEqualTo(1);
        t.set("next", "ok");
        assertThat(t.get("next")).isEqualTo("ok");
        assertThat(t.get("k")).isEqualTo("abcd");
    }

    /** Every write path against the expected cut, over random text of 1- to 4-byte characters and random limits. */
    @Test
    void everyWritePathCutsAtTheLastWholeCharacterWithinTheLimit() {
        Random rnd = new Random(9);
        String[] alphabet = {"a", "Z", "é", "ß", "€", "語", "😀", "\u0000"};
        for (int round = 0; round < 2000; round++) {
            StringBuilder sb = new StringBuilder();
            int chars = rnd.nextInt(12);
            for (int k = 0; k < chars; k++) {
                sb.append(alphabet[rnd.nextInt(alphabet.length)]);
            }
            String text = sb.toString();
            byte[] bytes = b(text);
            int limit = rnd.nextInt(20);
            String expected = longestPrefixWithin(text, limit);
            int expectCuts = bytes.length > limit ? 1 : 0;
            for (int path = 0; path < 8; path++) {
                FieldTable t = limited(10, limit);
                t.set("before", "x");
                int cutsBefore = t.valuesTruncated();
                write(t, path, text, bytes, rnd);
                assertThat(t.get("v")).as("path %d, limit %d, %s", path, limit, text).isEqualTo(expected);
                assertThat(t.valuesTruncated() - cutsBefore).as("path %d, limit %d, %s", path, limit, text)
                        .isEqualTo(expectCuts);
                t.set("after", "y");
                assertThat(t.get("after")).isEqualTo(longestPrefixWithin("y", limit));
                assertThat(t.get("v")).isEqualTo(expected);
            }
        }
    }

    private static void write(FieldTable t, int path, String text, byte[] bytes, Random rnd) {
        byte[] name = b("v");
        switch (path) {
            case 0 -> t.set(name, 0, 1, bytes, 0, bytes.length, 0);
            case 1 -> t.set(FieldName.of("v"), bytes, 0, bytes.length, 0);
            case 2 -> t.set(name, 0, 0, name, 0, 1, bytes, 0, bytes.length, 0);
            case 3 -> { // byte chunks of random sizes
                int i = t.begin(name, 0, 1, 0);
                for (int at = 0; at < bytes.length; ) {
                    int n = Math.min(bytes.length - at, rnd.nextInt(4));
                    t.appendToValue(i, bytes, at, n);
                    at += n;
                }
            }
            case 4 -> {
                int i = t.begin(name, 0, 1, 0);
                for (byte x : bytes) {
                    t.appendToValue(i, x);
                }
            }
            case 5 -> {
                int i = t.begin(name, 0, 1, 0);
                t.appendUtf8ToValue(i, text.toCharArray(), 0, text.length());
            }
            case 6 -> {
                int i = t.begin(name, 0, 1, 0);
                t.appendUtf8ToValue(i, text, 0, text.length());
            }
            default -> {
                int i = t.begin(name, 0, 1, 0);
                for (int k = 0; k < text.length(); k++) {
                    char c = text.charAt(k);
                    if (Character.isHighSurrogate(c)) { // a pair goes in as one code point
                        t.appendUtf8ToValue(i, text.toCharArray(), k, 2);
                        k++;
                    } else {
                        t.appendUtf8ToValue(i, c);
                    }
                }
            }
        }
    }

    private static String longestPrefixWithin(String text, int limit) {
        int end = 0;
        int bytes = 0;
        while (end < text.length()) {
            int cp = text.codePointAt(end);
            int n = b(new String(Character.toChars(cp))).length;
            if (bytes + n > limit) {
                break;
            }
            bytes += n;
            end += Character.charCount(cp);
        }
        return text.substring(0, end);
    }

    // ------------------------------------------------------------------ counts: transactions, clear, copies

    @Test
    void aRollbackForgetsTheHitsOfWhatItUndid() {
        FieldTable t = limited(3, 3);
        t.set("a", "1");
        t.set("long", "12345");
        t.beginTransaction();
        t.set("b", "2");
        t.set("c", "3"); // dropped
        t.set("a", "abcdef"); // cut
        assertThat(t.fieldsDropped()).isEqualTo(1);
        assertThat(t.valuesTruncated()).isEqualTo(2);
        t.rollback();
        assertThat(t.fieldsDropped()).isZero();
        assertThat(t.valuesTruncated()).isEqualTo(1);
        assertThat(t.get("a")).isEqualTo("1");
    }

    @Test
    void clearResetsTheCountsAndKeepsTheLimits() {
        FieldTable t = limited(1, 2);
        t.set("a", "123");
        t.set("b", "1");
        t.clear();
        assertThat(t.fieldsDropped()).isZero();
        assertThat(t.valuesTruncated()).isZero();
        t.set("c", "123");
        t.set("d", "1");
        assertThat(t.get("c")).isEqualTo("12");
        assertThat(t.size()).isEqualTo(1);
        assertThat(t.fieldsDropped()).isEqualTo(1);
        assertThat(t.valuesTruncated()).isEqualTo(1);
    }

    @Test
    void aCopyHasTheLimitsButNotTheHitsOfItsSource() {
        FieldTable src = limited(1, 2);
        src.set("a", "123");
        src.set("b", "1");
        FieldTable copy = new FieldTable();
        copy.copyFrom(src);
        assertThat(copy.maxFields()).isEqualTo(1);
        assertThat(copy.maxValueLength()).isEqualTo(2);
        assertThat(copy.fieldsDropped()).isZero();
        assertThat(copy.valuesTruncated()).isZero();
        assertThat(copy.get("a")).isEqualTo("12");
        copy.set("c", "1");
        assertThat(copy.fieldsDropped()).isEqualTo(1);
    }

    @Test
    void aFreshTableHasNoLimits() {
        FieldTable t = new FieldTable();
        String big = "x".repeat(200_000);
        for (int i = 0; i < 5000; i++) {
            t.set("f" + i, "v");
        }
        t.set("big", big);
        assertThat(t.size()).isEqualTo(5001);
        assertThat(t.get("big")).isEqualTo(big);
        assertThat(t.fieldsDropped() + t.valuesTruncated()).isZero();
    }
}
