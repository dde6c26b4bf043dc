package dev.logrouter.patterndb.radix;

import java.util.Arrays;

/**
 * A node of a {@link RadixTree} (spec 6.1): a literal node has a key (the root's is empty), a parser node has a
 * {@link PatternParser} instead; either may hold a value. Literal children are kept sorted by their key's first
 * byte (at most one per byte), parser children in insertion order.
 *
 * <p>Threads: mutated only by the {@link RadixBuilder} that creates it; after {@link RadixBuilder#build()} it is
 * never written again and is read by any number of threads (published through the tree's final field).
 */
final class RadixNode {

    private static final RadixNode[] NONE = new RadixNode[0];
    private static final byte[] NO_BYTES = new byte[0];

    /** Literal key, null for a parser node. */
    byte[] key;
    final PatternParser parser;
    Object value;
    /** First byte of each literal child's key (unsigned), ascending. */
    byte[] childFirst = NO_BYTES;
    RadixNode[] children = NONE;
    RadixNode[] pchildren = NONE;
    /** Root only: the node of an empty pattern (unreachable by lookups, shown by dumps). */
    RadixNode emptyChild;

    RadixNode(byte[] key, Object value) {
        this.key = key;
        this.parser = null;
        this.value = value;
    }

    RadixNode(PatternParser parser) {
        this.key = null;
        this.parser = parser;
    }

    /** Key length as the reference counts it: -1 for a parser node. */
    int keyLength() {
        return key == null ? -1 : key.length;
    }

    RadixNode literalChild(byte first) {
        int i = indexOf(first);
        return i >= 0 ? children[i] : null;
    }

    private int indexOf(byte first) {
        int k = first & 0xFF;
        byte[] f = childFirst;
        int lo = 0;
        int hi = f.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int v = f[mid] & 0xFF;
            if (v < k) {
                lo = mid + 1;
            } else if (v > k) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    void addLiteralChild(RadixNode child) {
        int i = indexOf(child.key[0]);
        if (i >= 0) {
            throw new IllegalStateException("two literal children start with the same byte");
        }
        int at = -(i + 1);
        int n = children.length;
        RadixNode[] c = new RadixNode[n + 1];
        byte[] f = new byte[n + 1];
        System.arraycopy(children, 0, c, 0, at);
        System.arraycopy(childFirst, 0, f, 0, at);
        c[at] = child;
        f[at] = child.key[0];
        System.arraycopy(children, at, c, at + 1, n - at);
        System.arraycopy(childFirst, at, f, at + 1, n - at);
        children = c;
        childFirst = f;
    }

    /** Replaces the literal child starting with the same byte as {@code child}. */
    void replaceLiteralChild(RadixNode child) {
        children[indexOf(child.key[0])] = child;
    }

    RadixNode parserChild(PatternParser p) {
        for (RadixNode c : pchildren) {
            if (c.parser.sameAs(p)) {
                return c;
            }
        }
        RadixNode c = new RadixNode(p);
        pchildren = Arrays.copyOf(pchildren, pchildren.length + 1);
        pchildren[pchildren.length - 1] = c;
        return c;
    }
}
