package dev.logrouter.core.event;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The process-wide registry of message tags, as syslog-ng keeps one: every tag name (a parser's
 * {@code .parse.json.failed}, a rewrite's {@code set-tag}, a PatternDB rule's tags) gets a small,
 * stable integer id when the configuration is compiled, and events carry ids only. Filters test ids;
 * {@code ${TAGS}} prints the names.
 *
 * <p>Threads: {@link #id} is called while configuration is compiled (synchronised); {@link #name} is
 * read by any thread without locking (the names array is replaced, never mutated, and published
 * through a volatile field).
 */
public final class Tags {

    private static final Map<String, Integer> IDS = new HashMap<>();
    private static volatile byte[][] names = new byte[0][];

    private Tags() {
    }

    /** The id of a tag, registered on first use. */
    public static synchronized int id(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a tag name cannot be empty");
        }
        Integer id = IDS.get(name);
        if (id != null) {
            return id;
        }
        int next = IDS.size();
        IDS.put(name, next);
        byte[][] grown = Arrays.copyOf(names, next + 1);
        grown[next] = name.getBytes(StandardCharsets.UTF_8);
        names = grown;
        return next;
    }

    /** The name of a registered tag, as UTF-8 bytes (shared: do not modify). */
    public static byte[] name(int id) {
        return names[id];
    }

    /** Cold path: the name as a String (tests, diagnostics). */
    public static String nameString(int id) {
        return new String(names[id], StandardCharsets.UTF_8);
    }
}
