package dev.logrouter.core.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
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

    @Test
    void manyNamesAreFoundAfterTheIndexGrowsAndKeepTheirOrder() {
        FieldTable t = new FieldTable();
        for (int i = 0; i < 1000; i++) {
            t.set(".kv.key" + i, "v" + i);
        }
        for (int i = 0; i < 1000; i += 2) {
            t.set(".kv.key" + i, "w" + i); // the last value wins, the entry keeps its place
        }
        assertThat(t.size()).isEqualTo(1000);
        for (int i = 0; i < 1000; i++) {
            assertThat(t.name(i)).isEqualTo(".kv.key" + i);
            assertThat(t.get(".kv.key" + i)).isEqualTo((i % 2 == 0 ? "w" : "v") + i);
            assertThat(t.indexOf(b(".kv.key" + i))).isEqualTo(i);
        }
        assertThat(t.get(".kv.key1000")).isNull();
        assertThat(t.get(".kv.key")).isNull();
    }

    @Test
    void namesWithTheSameHashAreKeptApart() {
        // find two different names with the same 32-bit hash (a birthday search: some tens of thousands of names)
        Map<Integer, String> seen = new HashMap<>();
        String first = null;
        String second = null;
        for (int i = 0; second == null; i++) {
            String n = ".json.field_" + i;
            String before = seen.putIfAbsent(FieldTable.hash(b(n), 0, n.length()), n);
            if (before != null) {
                first = before;
                second = n;
            }
        }
        FieldTable t = new FieldTable();
        t.set(first, "1");
        t.set(second, "2");
        t.set(first, "3");
        assertThat(t.size()).isEqualTo(2);
        assertThat(t.get(first)).isEqualTo("3");
        assertThat(t.get(second)).isEqualTo("2");
        assertThat(t.unset(b(first), 0, first.length())).isTrue();
        assertThat(t.get(first)).isNull();
        assertThat(t.get(second)).isEqualTo("2");
    }

    @Test
    void aKeptHashFindsTheSameEntryAsTheName() {
        FieldTable t = new FieldTable();
        t.set("a.b", "1");
        t.set("c", "2");
        byte[] n = b("xx c yy");
        assertThat(t.indexOf(n, 3, 1, FieldTable.hash(n, 3, 1))).isEqualTo(1);
        assertThat(t.indexOf(n, 3, 2, FieldTable.hash(n, 3, 2))).isEqualTo(-1);
    }

    @Test
    void clearForgetsEveryNameMessageAfterMessage() {
        FieldTable t = new FieldTable();
        for (int message = 0; message < 300; message++) {
            t.clear();
            for (int i = 0; i < 40; i++) {
                assertThat(t.indexOf(b("f" + (message - 1) + "." + i))).isEqualTo(-1);
                t.set("f" + message + "." + i, "v");
            }
            assertThat(t.size()).isEqualTo(40);
            assertThat(t.indexOf(b("f" + message + ".39"))).isEqualTo(39);
        }
    }

    @Test
    void aRollbackTakesNewNamesOutOfTheIndexEvenAfterItGrew() {
        FieldTable t = new FieldTable();
        for (int i = 0; i < 5; i++) {
            t.set("base" + i, "b" + i);
        }
        t.beginTransaction();
        for (int i = 0; i < 100; i++) {
            t.set("new" + i, "n" + i);
        }
        t.set("base2", "changed");
        t.rollback();
        assertThat(t.size()).isEqualTo(5);
        for (int i = 0; i < 100; i++) {
            assertThat(t.indexOf(b("new" + i))).isEqualTo(-1);
        }
        for (int i = 0; i < 5; i++) {
            assertThat(t.get("base" + i)).isEqualTo("b" + i);
        }
        assertThat(t.set("new7", "again")).isEqualTo(5);
        assertThat(t.get("new7")).isEqualTo("again");
    }

    @Test
    void unsetKeepsTheIndexPointingAtTheMovedEntries() {
        FieldTable t = new FieldTable();
        for (int i = 0; i < 100; i++) {
            t.set("k" + i, "v" + i);
        }
        for (int i = 1; i < 100; i += 2) {
            assertThat(t.unset(b("k" + i), 0, ("k" + i).length())).isTrue();
        }
        assertThat(t.size()).isEqualTo(50);
        for (int i = 0; i < 100; i++) {
            if (i % 2 == 0) {
                assertThat(t.indexOf(b("k" + i))).isEqualTo(i / 2);
                assertThat(t.get("k" + i)).isEqualTo("v" + i);
            } else {
                assertThat(t.indexOf(b("k" + i))).isEqualTo(-1);
            }
        }
        t.set("k1", "back");
        assertThat(t.indexOf(b("k1"))).isEqualTo(50);
    }

    /** Random set/unset/clear/transactions, checked against a LinkedHashMap after every step. */
    @Test
    void behavesLikeAnInsertionOrderedMapUnderRandomOperations() {
        Random rnd = new Random(42);
        FieldTable t = new FieldTable();
        LinkedHashMap<String, String> model = new LinkedHashMap<>();
        LinkedHashMap<String, String> saved = null;
        for (int step = 0; step < 20000; step++) {
            String name = "n" + rnd.nextInt(60);
            int op = rnd.nextInt(100);
            if (op < 60) {
                String v = "v" + step;
                t.set(name, v);
                model.put(name, v);
            } else if (op < 70 && saved == null) {
                assertThat(t.unset(b(name), 0, name.length())).isEqualTo(model.remove(name) != null);
            } else if (op < 75 && saved == null) {
                t.beginTransaction();
                saved = new LinkedHashMap<>(model);
            } else if (op < 80 && saved != null) {
                t.rollback();
                model = saved;
                saved = null;
            } else if (op < 85 && saved != null) {
                t.commit();
                saved = null;
            } else if (op < 87) {
                t.clear();
                model.clear();
                saved = null;
            }
            assertThat(t.size()).isEqualTo(model.size());
            List<String> names = new ArrayList<>(model.keySet());
            for (int i = 0; i < names.size(); i++) {
                assertThat(t.name(i)).isEqualTo(names.get(i));
                assertThat(t.value(i)).isEqualTo(model.get(names.get(i)));
                assertThat(t.indexOf(b(names.get(i)))).isEqualTo(i);
            }
            assertThat(t.indexOf(b(name))).isEqualTo(names.indexOf(name));
        }
    }
}
