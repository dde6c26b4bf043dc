package dev.logrouter.patterndb.radix;


import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * An immutable radix tree of patterns (spec 6), built by {@link RadixBuilder}: the program tree and each
 * program's rule tree of a pattern database.
 *
 * <p>{@link #lookup} implements syslog-ng 3.38's search (spec 6.4): at each node the literal child for the next
 * byte is tried first, then the parser children in insertion order (a parser consumes one greedy length; on a
 * dead end below it, the next parser edge is tried, never a shorter length); input exhausted at a node matches
 * only that node's own value; {@code \r} in the input is skipped where the tree has {@code \n}. The search runs
 * a second time accepting partial (prefix) matches only when the first, complete-match pass failed but saw one.
 * Captures along the returned path are left in the {@link RadixScratch}.
 *
 * <p>Deviation from the reference (documented quirk 7): capture offsets and lengths are full {@code int}s; the
 * reference's 16-bit truncation of captures longer than 65535 bytes or starting after byte 65535 is not
 * reproduced.
 *
 * <p>Threads: immutable; any number of threads look up concurrently, each with its own scratch.
 */
public final class RadixTree<V> {

    private final RadixNode root;
    private final String[] names;
    private final int size;

    RadixTree(RadixNode root, String[] names, int size) {
        this.root = root;
        this.names = names;
        this.size = size;
    }

    /** Number of values in the tree. */
    public int size() {
        return size;
    }

    /** Number of distinct capture names; capture name indexes are {@code 0 .. captureNameCount() - 1}. */
    public int captureNameCount() {
        return names.length;
    }

    public String captureName(int index) {
        return names[index];
    }

    /**
     * Looks up {@code buf[off, off + len)}; returns the value of the matched node or null. The captures of the
     * match are in {@code scratch} afterwards (none after a miss). Allocates nothing once the scratch is warm.
     */
    public V lookup(byte[] buf, int off, int len, RadixScratch scratch) {
        RadixNode n = findNode(buf, off, len, scratch);
        return n == null ? null : cast(n.value);
    }

    @SuppressWarnings("unchecked")
    private V cast(Object o) {
        return (V) o;
    }

    private RadixNode findNode(byte[] buf, int off, int len, RadixScratch s) {
        s.captureCount = 0;
        s.inputStart = off;
        s.requireComplete = true;
        s.partialFound = false;
        RadixNode n = find(root, buf, off, off + len, s);
        if (n == null && s.partialFound) {
            s.captureCount = 0;
            s.requireComplete = false;
            n = find(root, buf, off, off + len, s);
        }
        if (n == null) {
            s.captureCount = 0;
            // the root's own value is the last partial match in depth-first order: it needs no second pass
            // (the program tree's default program, for every program no pattern names)
            if (len > 0 && root.value != null) {
                n = root;
            }
        }
        return n;
    }

    private RadixNode find(RadixNode node, byte[] b, int pos, int end, RadixScratch s) {
        int rem = end - pos;
        int klen = node.keyLength();
        if (rem < 0) {
            // past the end (only after an ESTRING with an empty END): no edge can continue, the node's own value
            // is a partial match, as in the reference
            if (node.value != null) {
                if (!s.requireComplete) {
                    return node;
                }
                s.partialFound = true;
            }
            return null;
        }
        int in = 0;
        int rl = 0;
        if (klen >= 1) {
            byte[] key = node.key;
            while (in < rem && rl < klen) {
                if (b[pos + in] == '\r' && key[rl] == '\n') {
                    in++;
                    if (in == rem) {
                        break;
                    }
                }
                if (b[pos + in] != key[rl]) {
                    break;
                }
                in++;
                rl++;
            }
        }
        if (in == rem && (rl == klen || klen == -1)) {
            return node.value != null ? node : null;
        }
        if (klen < 1 || (in < rem && rl >= klen)) {
            int p = pos + in;
            RadixNode ret = null;
            // literal child first (a leading \r\n is looked up as \n)
            int q = p;
            if (end - q >= 2 && b[q] == '\r' && b[q + 1] == '\n') {
                q++;
            }
            RadixNode lit = node.literalChild(b[q]);
            if (lit != null) {
                ret = find(lit, b, q, end, s);
            }
            if (ret == null) {
                RadixNode[] pc = node.pchildren;
                int mark = s.captureCount;
                for (int i = 0; i < pc.length && ret == null; i++) {
                    s.captureCount = mark;
                    RadixNode child = pc[i];
                    PatternParser parser = child.parser;
                    int consumed = parser.parse(b, p, end, s);
                    if (consumed < 0) {
                        continue;
                    }
                    if (parser.nameIndex() >= 0) {
                        s.push(parser.nameIndex(), p + s.valueStart, s.valueLength);
                    }
                    ret = find(child, b, p + consumed, end, s);
                }
                if (ret == null) {
                    s.captureCount = mark;
                }
            }
            if (ret == null && node.value != null && node != root) {
                if (!s.requireComplete) {
                    return node;
                }
                s.partialFound = true;
            }
            return ret;
        }
        return null;
    }

    /**
     * The tree as {@code pdbtool dump} prints it (spec 10.4): one node per line, indented by depth, parser nodes
     * as {@code @TYPE:name@ }, then {@code 'key' }, then {@code label(value)} where a value is attached; literal
     * children before parser children.
     */
    public String dump(Function<V, String> label) {
        StringBuilder sb = new StringBuilder();
        dump(root, 0, label, sb);
        return sb.toString();
    }

    private void dump(RadixNode n, int level, Function<V, String> label, StringBuilder sb) {
        sb.append(" ".repeat(level));
        if (n.parser != null) {
            sb.append(n.parser.dumpLabel()).append(' ');
        }
        sb.append('\'').append(n.key == null ? "" : new String(n.key, StandardCharsets.UTF_8)).append("' ");
        if (n.value != null) {
            sb.append(label.apply(cast(n.value)));
        }
        sb.append('\n');
        if (n.emptyChild != null) {
            dump(n.emptyChild, level + 1, label, sb);
        }
        for (RadixNode c : n.children) {
            dump(c, level + 1, label, sb);
        }
        for (RadixNode c : n.pchildren) {
            dump(c, level + 1, label, sb);
        }
    }
}
