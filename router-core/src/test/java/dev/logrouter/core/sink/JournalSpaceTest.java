package dev.logrouter.core.sink;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The router-wide journal settings refuse what could never work: a shared directory, a max-size too small. */
class JournalSpaceTest {

    @Test
    void twoSinksCannotShareAJournalDirectory() {
        JournalSpace space = new JournalSpace(Path.of("data/journal"), 0);
        space.claim(Path.of("/var/lib/j/a"), "a", 1 << 20);
        assertThatThrownBy(() -> space.claim(Path.of("/var/lib/j/b/../a"), "b", 1 << 20))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sinks a and b both keep their journal in /var/lib/j/a: give each its own journal.dir");
        space.claim(Path.of("/var/lib/j/b"), "b", 1 << 20);
        assertThat(space.journals()).isEqualTo(2);
    }

    @Test
    void maxSizeMustHoldTwoSegmentsOfEveryJournal() {
        JournalSpace space = new JournalSpace(Path.of("data/journal"), 100);
        space.claim(Path.of("/j/a"), "a", 60);
        assertThatThrownBy(() -> space.claim(Path.of("/j/b"), "b", 60))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("journal.max-size (100 bytes) is less than the journaled sinks need together "
                        + "(120 bytes");
        assertThat(new JournalSpace(Path.of("x"), 0).wouldExceed(Long.MAX_VALUE / 2)).as("0: no limit").isFalse();
        space.add(90);
        assertThat(space.wouldExceed(10)).isFalse();
        assertThat(space.wouldExceed(11)).isTrue();
    }
}
