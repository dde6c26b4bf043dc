package dev.logrouter.core.event;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The process-wide registry of message tags, as syslog-ng keeps one: every tag name (a parser's
 * {@code .parse.json.failed}, a rewrite's {@code set-tag}, a PatternDB rule's tags) gets a small,
 * stable integer id when the configuration is compiled, and events carry ids only. Filters test ids;
 * {@code ${TAGS}} prints the names.
 *
 * <p>Bounded like syslog-ng's ({@code LOG_TAGS_MAX}): at most {@link #MAX} names, of which message content (a
 * JSON envelope's {@code TAGS}: a {@code kafka} source, or any source with {@code format: json}; {@link #fromInput}) may add {@link #MAX_FROM_INPUT};
 * the rest stays for the configuration, so that hostile or high-cardinality input can neither grow the registry
 * without end nor keep a PatternDB reload from registering its tags.
 *
 * <p>Threads: {@link #id} is called while configuration is compiled, {@link #fromInput} by parse workers on a
 * name they have not seen (a known name is looked up without a lock; registering is synchronised); {@link #name}
 * is read by any thread without locking (the names
 * array is replaced, never mutated, and published through a volatile field).
 */
public final class Tags {

    /** Most distinct tags: syslog-ng's {@code LOG_TAGS_MAX} on 64-bit systems. */
    public static final int MAX = 16384;
    /** Most distinct tags that message content may register ({@link #fromInput}). */
    public static final int MAX_FROM_INPUT = 4096;

    /** Read without the lock (a parse worker looking up a known name); written only under it. */
    private static final Map<String, Integer> IDS = new ConcurrentHashMap<>();
    private static final LongAdder REFUSED = new LongAdder();
    private static volatile byte[][] names = new byte[0][];
    /** How many of the registered names came from message content. Guarded by the class. */
    private static int fromInput;

    private Tags() {
    }

    /**
     * The id of a tag named by the configuration, registered on first use.
     *
     * @throws IllegalStateException when {@link #MAX} tags are registered already
     */
    public static synchronized int id(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a tag name cannot be empty");
        }
        Integer id = IDS.get(name);
        if (id != null) {
            return id;
        }
        if (IDS.size() >= MAX) {
            throw new IllegalStateException("cannot register tag '" + name + "': " + MAX
                    + " distinct tags are registered already (syslog-ng's limit too)");
        }
        return register(name);
    }

    /**
     * The id of a tag named by message content; registers it only while fewer than {@link #MAX_FROM_INPUT} names
     * came from content (and fewer than {@link #MAX} in all), else returns -1: the caller drops the tag and counts
     * it ({@link #countRefused}).
     */
    public static int fromInput(String name) {
        Integer id = IDS.get(name);
        return id != null ? id : registerFromInput(name);
    }

    private static synchronized int registerFromInput(String name) {
        Integer id = IDS.get(name);
        if (id != null) {
            return id;
        }
        if (name.isEmpty() || fromInput >= MAX_FROM_INPUT || IDS.size() >= MAX) {
            return -1;
        }
        fromInput++;
        return register(name);
    }

    /** Counts {@code n} tags that message content named and {@link #fromInput} refused. Any thread. */
    public static void countRefused(int n) {
        REFUSED.add(n);
    }

    /** Tags dropped from events because {@link #fromInput} refused them, since start. Any thread. */
    public static long refused() {
        return REFUSED.sum();
    }

    /** How many distinct tags are registered. Any thread. */
    public static int count() {
        return names.length;
    }

    private static int register(String name) {
        int next = IDS.size();
        byte[][] grown = Arrays.copyOf(names, next + 1);
        grown[next] = name.getBytes(StandardCharsets.UTF_8);
        names = grown; // before the id is visible: whoever reads the id from IDS finds its name
        IDS.put(name, next);
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
