package dev.logrouter.server;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link LineDiff}: one hunk between the common beginning and end, with context, cut after 20 lines a side. */
class LineDiffTest {

    @Test
    void equalListsHaveNoDiff() {
        assertThat(LineDiff.diff(List.of("a", "b"), List.of("a", "b"), "x", "y")).isEmpty();
        assertThat(LineDiff.diff(List.of(), List.of(), "x", "y")).isEmpty();
    }

    @Test
    void aChangedLineIsShownWithTwoLinesOfContextEachSide() {
        assertThat(LineDiff.diff(List.of("1", "2", "3", "4", "5", "6", "7"), List.of("1", "2", "3", "X", "5", "6", "7"),
                "expected", "actual")).containsExactly("--- expected", "+++ actual", "@@ -2,5 +2,5 @@",
                " 2", " 3", "-4", "+X", " 5", " 6");
    }

    @Test
    void linesAddedAtTheEndOrRemovedFromTheStart() {
        assertThat(LineDiff.diff(List.of("a"), List.of("a", "b", "c"), "e", "a"))
                .containsExactly("--- e", "+++ a", "@@ -1,1 +1,3 @@", " a", "+b", "+c");
        assertThat(LineDiff.diff(List.of("a", "b"), List.of("b"), "e", "a"))
                .containsExactly("--- e", "+++ a", "@@ -1,2 +1,1 @@", "-a", " b");
        assertThat(LineDiff.diff(List.of("a"), List.of(), "e", "a"))
                .containsExactly("--- e", "+++ a", "@@ -1,1 +0,0 @@", "-a");
    }

    @Test
    void aLongChangeIsCutAfterTwentyLinesASide() {
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            many.add("line " + i);
        }
        List<String> d = LineDiff.diff(List.of(), many, "e", "a");
        assertThat(d).hasSize(3 + 20 + 1);
        assertThat(d.get(2)).isEqualTo("@@ -0,0 +1,25 @@");
        assertThat(d.get(d.size() - 1)).isEqualTo("+... (5 more lines)");
    }
}
