package dev.logrouter.core.filter;

import java.util.Arrays;
import java.util.List;

/**
 * An immutable set of byte strings, asked "is this span one of them?" without allocating: the keys are packed
 * into one array and found through an open-addressing table (linear probing, load at most 1/2) keyed by a hash of
 * the bytes.
 *
 * <p>Threads: built on the configuring thread, immutable afterwards; any thread may look up.
 */
final class ByteKeySet {

    private final byte[] data;
    /** Key k is {@code data[starts[k], starts[k + 1])}. */
    private final int[] starts;
    private final int[] hashes;
    /** Slot → key index + 1; 0 is empty. */
    private final int[] slots;
    private final int mask;

    /** A set of {@code keys}; duplicates are kept once. */
    ByteKeySet(List<byte[]> keys) {
        int total = 0;
        for (byte[] k : keys) {
            total += k.length;
        }
        int capacity = Integer.highestOneBit(Math.max(2, keys.size()) * 2 - 1) * 2;
        slots = new int[capacity];
        mask = capacity - 1;
        byte[] d = new byte[total];
        int[] st = new int[keys.size() + 1];
        int[] hs = new int[keys.size()];
        int n = 0;
        int at = 0;
        for (byte[] k : keys) {
            int h = hash(k, 0, k.length);
            int slot = find(d, st, hs, k, 0, k.length, h);
            if (slots[slot] != 0) {
                continue; // duplicate
            }
            System.arraycopy(k, 0, d, at, k.length);
            st[n] = at;
            at += k.length;
            st[n + 1] = at;
            hs[n] = h;
            slots[slot] = ++n;
        }
        data = d;
        starts = Arrays.copyOf(st, n + 1);
        hashes = Arrays.copyOf(hs, n);
    }

    /** Number of distinct keys. */
    int size() {
        return hashes.length;
    }

    /** True when {@code a[off, off + len)} is one of the keys. */
    boolean contains(byte[] a, int off, int len) {
        return slots[find(data, starts, hashes, a, off, len, hash(a, off, len))] != 0;
    }

    /** The slot holding the key, or the empty slot where it would go. */
    private int find(byte[] d, int[] st, int[] hs, byte[] a, int off, int len, int h) {
        int i = h & mask;
        while (true) {
            int k = slots[i] - 1;
            if (k < 0) {
                return i;
            }
            if (hs[k] == h && Arrays.equals(d, st[k], st[k + 1], a, off, off + len)) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    static int hash(byte[] a, int off, int len) {
        int h = 0x811C9DC5;
        for (int i = off, end = off + len; i < end; i++) {
            h = (h ^ a[i]) * 0x01000193; // FNV-1a
        }
        return h ^ (h >>> 16);
    }
}
