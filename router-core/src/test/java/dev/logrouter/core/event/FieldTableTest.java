package dev.logrouter.core.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The name-value table's replace, unset and transaction rules, which parsers rely on to fail cleanly. */
class FieldTableTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aRollbackRemovesNewEntriesAndRestoresOverwrittenValues() {
        FieldTable t = new FieldTable();
        t.set("keep", "1");
        t.set("over", "old");
        t.beginTransaction();
        t.set("new", "x");
        t.set("over", "new value that is longer");
        int i = t.begin(b("composed"), 0, 8, 0);
        t.appendToValue(i, (byte) 'z');
        t.rollback();
        assertThat(t.size()).isEqualTo(2);
        assertThat(t.get("keep")).isEqualTo("1");
        assertThat(t.get("over")).isEqualTo("old");
        assertThat(t.get("new")).isNull();
        assertThat(t.get("composed")).isNull();
        // the table goes on working after a rollback
        t.set("after", "y");
        assertThat(t.get("after")).isEqualTo("y");
        assertThat(t.get("over")).isEqualTo("old");
    }

    @Test
    void aCommitKeepsEverything() {
        FieldTable t = new FieldTable();
        t.set("over", "old");
        t.beginTransaction();
        t.set("over", "new");
        t.set("n", "v");
        t.commit();
        t.rollback(); // no transaction open: nothing happens
        assertThat(t.get("over")).isEqualTo("new");
        assertThat(t.get("n")).isEqualTo("v");
    }

    @Test
    void unsetRemovesOneEntryAndKeepsTheOrderOfTheOthers() {
        FieldTable t = new FieldTable();
        t.set("a", "1");
        t.set("b", "2");
        t.set("c", "3");
        assertThat(t.unset(b("b"), 0, 1)).isTrue();
        assertThat(t.unset(b("b"), 0, 1)).isFalse();
        assertThat(t.size()).isEqualTo(2);
        assertThat(t.name(0)).isEqualTo("a");
        assertThat(t.name(1)).isEqualTo("c");
        assertThat(t.get("c")).isEqualTo("3");
        t.beginTransaction();
        assertThatThrownBy(() -> t.unset(b("a"), 0, 1)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void clearEndsAnOpenTransaction() {
        FieldTable t = new FieldTable();
        t.beginTransaction();
        t.set("x", "1");
        t.clear();
        t.set("y", "2");
        t.rollback();
        assertThat(t.get("y")).isEqualTo("2");
    }
}
