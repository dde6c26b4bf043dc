package dev.logrouter.patterndb.radix;

import dev.logrouter.core.metrics.Counter;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Builds a {@link RadixTree} from patterns (spec 4, 6.2), inserted one by one in document order.
 *
 * <p>Insertion follows the reference segment by segment: literal text goes into a compressed trie (common
 * prefixes shared, nodes split at the first differing byte; {@code @@} is a literal {@code @}); a parser segment
 * reuses the parser child with the same (kind, name, param) or appends a new one, so parser children stay in
 * first-insertion order. A segment that cannot be compiled stops the insertion of that pattern and leaves what
 * was built before it (as the reference does: such remnants carry no value and never match, but a parser node
 * left behind keeps its place in the order of its siblings). The value goes to the last node; when that node
 * already has one, the first keeps it.
 *
 * <p>Per-pattern problems are reported as warnings and the pattern is skipped (spec 2.10): unknown parser,
 * missing mandatory param, bad PCRE, {@code Key contains '@' without escaping}, {@code Duplicate key in radix
 * tree}.
 *
 * <p>Threads: used by one thread (the loader); {@link #build()} hands the nodes over to the immutable tree and
 * the builder must not be used afterwards.
 */
public final class RadixBuilder<V> {

    private final RadixNode root = new RadixNode(new byte[0], null);
    private final List<String> names = new ArrayList<>();
    private final Map<String, Integer> nameIndex = new HashMap<>();
    private final Function<V, String> describe;
    private final AtomicInteger pcreSlots;
    private final Counter pcreBudgetExceeded;
    private int size;
    private boolean built;

    /**
     * @param describe           names a value in warnings (a rule id, a program)
     * @param pcreSlots          hands out matcher slots in {@link RadixScratch}; share one among the trees a
     *                           scratch serves so that their PCRE nodes do not evict each other's matchers
     * @param pcreBudgetExceeded counts PCRE runs abandoned for exceeding their step budget
     */
    public RadixBuilder(Function<V, String> describe, AtomicInteger pcreSlots, Counter pcreBudgetExceeded) {
        this.describe = describe;
        this.pcreSlots = pcreSlots;
        this.pcreBudgetExceeded = pcreBudgetExceeded;
    }

    public RadixBuilder() {
        this(String::valueOf, new AtomicInteger(), new Counter());
    }

    /**
     * Inserts {@code pattern} with {@code value}; returns true when the value was stored. On a per-pattern
     * problem the pattern is skipped, {@code warnings} gets one message, and false is returned.
     */
    public boolean insert(String pattern, V value, Consumer<String> warnings) {
        if (built) {
            throw new IllegalStateException("the tree was already built");
        }
        if (pattern.isEmpty()) {
            return insertEmpty(value, warnings);
        }
        RadixNode node = root;
        ByteArrayOutputStream literal = new ByteArrayOutputStream();
        int i = 0;
        int n = pattern.length();
        while (i < n) {
            char c = pattern.charAt(i);
            if (c != '@') {
                int j = pattern.indexOf('@', i);
                if (j < 0) {
                    j = n;
                }
                literal.writeBytes(pattern.substring(i, j).getBytes(StandardCharsets.UTF_8));
                i = j;
                continue;
            }
            if (i + 1 < n && pattern.charAt(i + 1) == '@') {
                literal.write('@');
                i += 2;
                continue;
            }
            // a parser segment: flush the literal text before it
            node = insertLiteral(node, literal.toByteArray());
            literal.reset();
            int close = pattern.indexOf('@', i + 1);
            if (close < 0) {
                warnings.accept(message("Key contains '@' without escaping", pattern, value));
                return false;
            }
            PatternParser parser;
            try {
                parser = PatternParser.compile(pattern.substring(i + 1, close), this::intern,
                        pcreSlots.get(), pcreBudgetExceeded);
            } catch (PatternException e) {
                warnings.accept(message(e.getMessage(), pattern, value));
                return false;
            }
            RadixNode child = node.parserChild(parser);
            if (child.parser == parser && parser.kind() == ParserKind.PCRE) {
                pcreSlots.incrementAndGet();
            }
            node = child;
            i = close + 1;
        }
        node = insertLiteral(node, literal.toByteArray());
        if (node.value != null) {
            String what = node.parser != null ? "Duplicate parser node in radix tree" : "Duplicate key in radix tree";
            warnings.accept(message(what, pattern, value) + ", kept " + describe.apply(cast(node.value)));
            return false;
        }
        node.value = value;
        size++;
        return true;
    }

    /**
     * The empty pattern: the reference adds a literal child with an empty key under the root (it does not put
     * the value on the root), which no lookup reaches; it only shows in a dump.
     */
    private boolean insertEmpty(V value, Consumer<String> warnings) {
        RadixNode e = root.emptyChild;
        if (e == null) {
            root.emptyChild = new RadixNode(new byte[0], value);
            size++;
            return true;
        }
        warnings.accept(message("Duplicate key in radix tree", "", value) + ", kept " + describe.apply(cast(e.value)));
        return false;
    }

    /**
     * Puts {@code value} on the root, where every lookup ends when nothing deeper matches (the program tree's
     * default program); returns false when the root already has one.
     */
    public boolean setRootValue(V value) {
        if (root.value != null) {
            return false;
        }
        root.value = value;
        size++;
        return true;
    }

    @SuppressWarnings("unchecked")
    private V cast(Object o) {
        return (V) o;
    }

    private String message(String what, String pattern, V value) {
        return what + "; key='" + pattern + "', value='" + describe.apply(value) + "'";
    }

    private int intern(String name) {
        return nameIndex.computeIfAbsent(name, k -> {
            names.add(k);
            return names.size() - 1;
        });
    }

    /** Inserts literal bytes below {@code node}; returns the node where they end. */
    private static RadixNode insertLiteral(RadixNode node, byte[] lit) {
        RadixNode cur = node;
        int pos = 0;
        while (pos < lit.length) {
            RadixNode child = cur.literalChild(lit[pos]);
            if (child == null) {
                RadixNode leaf = new RadixNode(java.util.Arrays.copyOfRange(lit, pos, lit.length), null);
                cur.addLiteralChild(leaf);
                return leaf;
            }
            byte[] k = child.key;
            int common = 0;
            while (common < k.length && pos + common < lit.length && k[common] == lit[pos + common]) {
                common++;
            }
            if (common < k.length) {
                // split: child keeps the common part, its old tail moves one level down
                RadixNode tail = new RadixNode(java.util.Arrays.copyOfRange(k, common, k.length), child.value);
                tail.childFirst = child.childFirst;
                tail.children = child.children;
                tail.pchildren = child.pchildren;
                RadixNode head = new RadixNode(java.util.Arrays.copyOfRange(k, 0, common), null);
                head.addLiteralChild(tail);
                cur.replaceLiteralChild(head);
                child = head;
            }
            cur = child;
            pos += common;
        }
        return cur;
    }

    /** Values stored so far. */
    public int size() {
        return size;
    }

    /** Freezes the tree; the builder cannot be used afterwards. */
    public RadixTree<V> build() {
        built = true;
        return new RadixTree<>(root, names.toArray(new String[0]), size);
    }
}
